import type { Detected, ReaderOutcome, PageContext, Reader, PagePlan } from '../reading';
import { fieldOf, isDataObject } from '../../../shared/json';
import { withParam, toCount, lookup } from '../values';
import { HAS_MORE_KEYS } from '../../../shared/vocabulary/pages';

/**
 * The page styles that follow what a page points to next: a cursor (`cursor`), a next link in the body
 * (`nextLink`) or a Link header (`linkNext`, `linkEnd`), each read through one pointer rule (`pointerFrom`,
 * `follow`). Keys only these styles read are here, so a pointer style is self-contained.
 */

/** What a next-ish value says: a URL to fetch, a cursor to send, or "no more". */
type Pointer =
	| { kind: 'url'; url: string }
	| { kind: 'cursor'; value: string | number; param: string }
	| { kind: 'end' };

const END: Pointer = { kind: 'end' };
/** Where a next link sits when it is an object (`_links.next.href`). */
const HREF_KEYS = ['href', 'url', 'link', 'uri'];
const URL_START = /^(?:https?:)?\/\//i;
/**
 * Where a cursor object keeps the next position (`cursor: { next: 20 }`, `cursors: { after: "b" }`):
 * a value found under a cursor key that is itself an object is read one level into it.
 */
const INNER_CURSOR_KEYS = ['next', 'after', 'next_cursor', 'nextCursor', 'end_cursor', 'endCursor'];

function looksLikeUrl(text: string): boolean {
	return URL_START.test(text) || text.startsWith('/') || text.startsWith('?');
}

/**
 * Interprets a next-ish value: a URL or {href}, a cursor, null/false/'' for "no more". Numbers are
 * cursors only where the key says cursor (`next_cursor: 1002`): under `next_page` a number is a page.
 * `innerParam`, given where the key says cursor, reads a cursor object one level in (`cursor.next`);
 * its keys say cursor too, so a number there is a cursor.
 */
function pointerFrom(
	value: unknown,
	param: string,
	numbersAreCursors: boolean,
	innerParam?: (key: string) => string,
): Pointer | undefined {
	if (value === null || value === false || value === '') return END;
	if (isDataObject(value)) {
		let ended = false;
		for (const key of HREF_KEYS) {
			const href = fieldOf(value, key);
			if (typeof href === 'string' && href !== '') return { kind: 'url', url: href };
			if (href === null || href === '') ended = true;
		}
		if (innerParam && !ended) {
			for (const key of INNER_CURSOR_KEYS) {
				const inner = fieldOf(value, key);
				if (inner !== undefined && !isDataObject(inner))
					return pointerFrom(inner, innerParam(key), true);
			}
		}
		return ended ? END : undefined;
	}
	if (typeof value === 'string')
		return looksLikeUrl(value) ? { kind: 'url', url: value } : { kind: 'cursor', value, param };
	if (numbersAreCursors && typeof value === 'number' && Number.isFinite(value))
		return { kind: 'cursor', value, param };
	return undefined;
}

/** The outcome of following a pointer; `ended` names the style when it says "no more". */
function follow(page: PageContext, pointer: Pointer, ended: Detected): ReaderOutcome {
	switch (pointer.kind) {
		case 'url':
			return { detected: 'nextUrl', explicit: true, next: { url: pointer.url, qs: {} } };
		case 'cursor':
			return {
				detected: 'cursor',
				explicit: true,
				next: withParam(page.request, pointer.param, pointer.value),
			};
		case 'end':
			return { detected: ended, explicit: true };
	}
}

/** Cursor key → the query parameter APIs that use it expect. */
const CURSOR_KEYS: ReadonlyMap<string, string> = new Map([
	['next_cursor', 'cursor'],
	['nextCursor', 'cursor'],
	['next_page_token', 'page_token'],
	['nextPageToken', 'pageToken'],
	['continuation_token', 'continuation_token'],
	['continuationToken', 'continuationToken'],
	['end_cursor', 'after'],
	['endCursor', 'after'],
	['after', 'after'],
	['cursor', 'cursor'],
	['cursors', 'cursor'],
]);
const CURSOR_KEY_NAMES = [...CURSOR_KEYS.keys()];

/** The query parameter for a cursor found under `key`, unless the user named one. */
function cursorParamFor(key: string, configured: string): string {
	return configured || (CURSOR_KEYS.get(key) ?? 'cursor');
}

/**
 * A cursor under one of the usual keys, a string or a number, or in a cursor object under one of them
 * (`cursor: { next: 20 }`, `cursors: { after: "b" }`); the nearest readable one wins. A bare `cursor`
 * equal to the one just sent is the current position, not the next one.
 */
export const cursor: Reader = (page) => {
	if (page.custom) return undefined;
	const configured = page.settings.cursorParam;
	for (const scope of page.scopes) {
		for (const key of CURSOR_KEY_NAMES) {
			if (!Object.hasOwn(scope, key)) continue;
			const value = scope[key];
			const param = cursorParamFor(key, configured);
			const sent = fieldOf(page.request.qs, param);
			if (key === 'cursor' && sent !== undefined && String(value) === String(sent))
				return undefined;
			const pointer = pointerFrom(value, param, true, (inner) =>
				inner === 'next' ? param : cursorParamFor(inner, configured),
			);
			if (pointer === undefined) continue;
			return pointer.kind === 'url' ? undefined : follow(page, pointer, 'cursor');
		}
	}
	return undefined;
};

/**
 * RFC 8288 Link headers (GitHub's pagination). Real headers hold a handful of links; beyond this
 * length the rest is ignored, so that a hostile header costs a bounded, linear scan.
 */
const MAX_LINK_HEADER = 16_384;
const SPACES = /\s+/;
const QUOTES = /^"|"$/g;

/** Each relation of a Link header and its target; the first link of a relation wins. */
function parseLinks(header: string | undefined): Map<string, string> | undefined {
	if (!header) return undefined;
	const text = header.slice(0, MAX_LINK_HEADER);
	const links = new Map<string, string>();
	let open = text.indexOf('<');
	while (open >= 0) {
		const close = text.indexOf('>', open + 1);
		if (close < 0) break;
		const following = text.indexOf('<', close + 1);
		const params = text.slice(close + 1, following < 0 ? text.length : following);
		for (const rel of relations(params))
			if (!links.has(rel)) links.set(rel, text.slice(open + 1, close));
		open = following;
	}
	return links;
}

/** The `rel` values in a link's parameters (`; rel="next last"`), lower-cased. */
function relations(params: string): string[] {
	for (const param of params.split(';')) {
		const equals = param.indexOf('=');
		if (equals < 0 || param.slice(0, equals).trim().toLowerCase() !== 'rel') continue;
		let value = param.slice(equals + 1).trim();
		// The text up to the next link ends with the comma that separates them.
		if (value.endsWith(',')) value = value.slice(0, -1).trim();
		return value.replace(QUOTES, '').toLowerCase().split(SPACES).filter(Boolean);
	}
	return [];
}

function splitUrl(url: string): { base: string; query: URLSearchParams } {
	const hash = url.indexOf('#');
	const bare = hash < 0 ? url : url.slice(0, hash);
	const mark = bare.indexOf('?');
	return mark < 0
		? { base: bare, query: new URLSearchParams() }
		: { base: bare.slice(0, mark), query: new URLSearchParams(bare.slice(mark + 1)) };
}

function withQueryValue(url: string, param: string, value: number): string {
	const { base, query } = splitUrl(url);
	query.set(param, String(value));
	return `${base}?${query.toString()}`;
}

/**
 * rel="last" declares the page count as surely as `total_pages` does, when the next and last links
 * differ only in the page parameter: then the pages in between are known and can be fetched at once.
 */
function planFromLast(next: string, last: string | undefined, param: string): PagePlan | undefined {
	if (last === undefined) return undefined;
	const from = toCount(splitUrl(next).query.get(param));
	const to = toCount(splitUrl(last).query.get(param));
	if (from === undefined || to === undefined || to < from) return undefined;
	if (withQueryValue(next, param, 0) !== withQueryValue(last, param, 0)) return undefined;
	return {
		count: to - from + 1,
		declared: `a Link rel="last" to ${param} ${to}`,
		at: (index) => ({ url: withQueryValue(next, param, from + index), qs: {} }),
	};
}

function links(page: PageContext): Map<string, string> | undefined {
	return page.custom ? undefined : parseLinks(page.headers.link);
}

/** A Link header with rel="next". Not under a forced cursor style, which asks for a cursor. */
export const linkNext: Reader = (page) => {
	const found = links(page);
	const next = found?.get('next');
	if (next === undefined || page.style === 'cursor') return undefined;
	const plan = planFromLast(next, found?.get('last'), page.settings.pageParam);
	const pages = plan && { after: plan.count, declared: plan.declared };
	return { detected: 'link', explicit: true, next: { url: next, qs: {} }, plan, pages };
};

/** A Link header without rel="next", when nothing in the body points further: the last page. */
export const linkEnd: Reader = (page) => {
	const found = links(page);
	return found && !found.has('next') ? { detected: 'link', explicit: true } : undefined;
};

/** Keys holding the next page's URL (or, on some services, its cursor). */
const NEXT_KEYS = [
	'next_page_url',
	'nextPageUrl',
	'next_url',
	'nextUrl',
	'next_link',
	'nextLink',
	'@odata.nextLink',
	'next',
	'next_page',
	'nextPage',
];

/** Whether a key was found with a value that says something: anything but null, false or an empty text. */
function holdsValue(found: { value: unknown } | undefined): boolean {
	const value = found?.value;
	return value !== undefined && value !== null && value !== false && value !== '';
}

/**
 * Whether the page points further in any form the readers know, followed or not: a next-page key, a
 * cursor key or a has-more key with a value (a number in auto detection, a link under a forced Page
 * Number style, a cursor that is a URL, `has_next: "True"`), or a Link rel="next".
 */
export function pointsFurther(page: PageContext): boolean {
	const { scopes } = page;
	const keys = [page.custom ?? lookup(scopes, NEXT_KEYS), lookup(scopes, CURSOR_KEY_NAMES)];
	if (keys.some(holdsValue) || holdsValue(lookup(scopes, HAS_MORE_KEYS))) return true;
	return parseLinks(page.headers.link)?.has('next') ?? false;
}

/**
 * A next-page link in the body, or the value at the user's Next Path. Under a forced cursor style a
 * URL is not what was asked for; at a Next Path the user chose, a number is a cursor.
 */
export const nextLink: Reader = (page) => {
	const found = page.custom ?? lookup(page.scopes, NEXT_KEYS);
	if (!found) return undefined;
	const numbers = page.custom !== undefined && page.style !== 'nextUrl';
	const pointer = pointerFrom(
		found.value,
		cursorParamFor(found.key, page.settings.cursorParam),
		numbers,
	);
	if (!pointer || (pointer.kind === 'url' && page.style === 'cursor')) return undefined;
	return follow(page, pointer, 'nextUrl');
};
