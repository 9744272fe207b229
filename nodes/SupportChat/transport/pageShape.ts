import type { IDataObject } from 'n8n-workflow';

/**
 * Page-shape detection: a pure function of one response (body, headers) and the request that got it.
 * The spec says the list endpoints "may return their results in pages" and shows nothing else, so
 * this reads the shapes real chat and CRM APIs use and says where the records are and what to ask
 * for next. The loop that drives it lives in ./pagination.
 */

export const PAGINATION_STYLES = ['auto', 'none', 'nextUrl', 'cursor', 'hasMore', 'page', 'offset'] as const;
export type PaginationStyle = (typeof PAGINATION_STYLES)[number];

export interface PaginationSettings {
	style: PaginationStyle;
	/** Dot path to the records, e.g. `response.users`; empty = find them. */
	itemsPath: string;
	/** Dot path to the next link, cursor or has-more flag; empty = find it. */
	nextPath: string;
	/** Query parameter carrying a cursor; empty = the usual name for what was found. */
	cursorParam: string;
	pageParam: string;
	offsetParam: string;
	/** Query parameter carrying the page size; used when pageSize > 0. */
	limitParam: string;
	pageSize: number;
	firstPage: number;
	maxPages: number;
	/** Pages fetched at once when the service tells how many there are. */
	concurrency: number;
}

export const DEFAULT_PAGINATION: PaginationSettings = {
	style: 'auto',
	itemsPath: '',
	nextPath: '',
	cursorParam: '',
	pageParam: 'page',
	offsetParam: 'offset',
	limitParam: 'limit',
	pageSize: 0,
	firstPage: 1,
	maxPages: 10_000,
	concurrency: 1,
};

export interface PageRequest {
	/** Path under the base URL (the first request, and parameter-based styles). */
	path?: string;
	/** A link the service gave (URL styles). */
	url?: string;
	qs: IDataObject;
}

export type Detected = 'single' | 'link' | 'nextUrl' | 'cursor' | 'hasMore' | 'page' | 'offset' | 'probe';

export interface PagePlan {
	param: string;
	/** Values of `param` for every remaining page, in order. */
	values: number[];
}

export interface PageReading {
	items: unknown[];
	/** Where the records were found, for error messages. */
	itemsAt: string;
	detected: Detected;
	next?: PageRequest;
	/**
	 * Whether the service itself said there is (or is not) more: a link, a cursor, a flag, a total.
	 * When false the node is guessing (page numbers without totals) and an empty, short or repeated
	 * page is the normal end.
	 */
	explicit: boolean;
	total?: number;
	/** Declared page size, when the page says it. */
	pageSize?: number;
	/** Every remaining request, when the page tells how many there are (used to fetch a few at once). */
	plan?: PagePlan;
}

export class PageShapeError extends Error {}

const LIST_KEYS = [
	'data',
	'items',
	'results',
	'records',
	'users',
	'conversations',
	'tags',
	'messages',
	'entries',
	'rows',
	'list',
	'values',
	'objects',
	'hits',
	'result',
	'response',
];
/** Wrappers that may hold a page object rather than the records themselves. */
const ENVELOPE_KEYS = ['response', 'data', 'result', 'payload', 'body'];
/** Where APIs keep paging metadata beside the records. */
const META_KEYS = [
	'meta',
	'pagination',
	'paging',
	'page_info',
	'pageInfo',
	'_meta',
	'metadata',
	'response_metadata',
	'links',
	'_links',
	'cursors',
	'cursor',
];

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
/** Cursor key → the query parameter APIs that use it expect. */
const CURSOR_KEYS: Record<string, string> = {
	next_cursor: 'cursor',
	nextCursor: 'cursor',
	next_page_token: 'page_token',
	nextPageToken: 'pageToken',
	continuation_token: 'continuation_token',
	continuationToken: 'continuationToken',
	end_cursor: 'after',
	endCursor: 'after',
	after: 'after',
	cursor: 'cursor',
};
const HAS_MORE_KEYS = ['has_more', 'hasMore', 'has_next', 'hasNext', 'has_next_page', 'hasNextPage', 'more'];
const PAGE_KEYS = ['current_page', 'currentPage', 'page', 'page_number', 'pageNumber', 'pageNo'];
const TOTAL_PAGES_KEYS = ['total_pages', 'totalPages', 'last_page', 'lastPage', 'page_count', 'pageCount', 'pages', 'num_pages'];
const TOTAL_KEYS = ['total', 'total_count', 'totalCount', 'total_results', 'totalResults', 'total_items', 'totalItems'];
const PER_PAGE_KEYS = ['per_page', 'perPage', 'page_size', 'pageSize', 'limit', 'size'];
const OFFSET_KEYS = ['offset', 'skip', 'start'];
const ID_KEYS = ['id', '_id', 'uuid', 'ID', 'Id'];

export function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads `a.b.0.c` from an object; keys containing dots are tried whole first. */
export function getPath(source: unknown, path: string): unknown {
	if (path === '') return source;
	if (isRecord(source) && path in source) return source[path];
	let current: unknown = source;
	for (const part of path.split('.')) {
		if (Array.isArray(current) && /^\d+$/.test(part)) current = current[Number(part)];
		else if (isRecord(current)) current = current[part];
		else return undefined;
	}
	return current;
}

/** A record's identity for dropping duplicates, or undefined when it has none. */
export function itemKey(item: unknown): string | undefined {
	if (isRecord(item)) {
		for (const key of ID_KEYS) {
			const value = item[key];
			if (typeof value === 'string' || typeof value === 'number') return `${key}:${value}`;
		}
		return undefined;
	}
	if (typeof item === 'string' || typeof item === 'number') return `value:${item}`;
	return undefined;
}

interface Located {
	items: unknown[];
	at: string;
	/** Objects that may carry paging metadata, nearest first. */
	scopes: IDataObject[];
}

/** The container itself, then its metadata objects two levels deep (`meta.cursor.next`). */
function metaScopes(container: IDataObject, depth = 2): IDataObject[] {
	const scopes = [container];
	if (depth === 0) return scopes;
	for (const key of META_KEYS) {
		const value = container[key];
		if (isRecord(value)) scopes.push(...metaScopes(value, depth - 1));
	}
	return scopes;
}

function locateItems(body: unknown, at = ''): Located | undefined {
	if (Array.isArray(body)) return { items: body, at: at || '(the whole body)', scopes: [] };
	if (!isRecord(body)) return undefined;
	const here = (key: string) => (at ? `${at}.${key}` : key);
	const embedded = body._embedded;
	if (isRecord(embedded)) {
		const key = Object.keys(embedded).find((k) => Array.isArray(embedded[k]));
		if (key) return { items: embedded[key] as unknown[], at: here(`_embedded.${key}`), scopes: metaScopes(body) };
	}
	for (const key of LIST_KEYS) {
		if (Array.isArray(body[key])) return { items: body[key] as unknown[], at: here(key), scopes: metaScopes(body) };
	}
	const arrays = Object.keys(body).filter((k) => Array.isArray(body[k]) && !META_KEYS.includes(k));
	if (arrays.length === 1) {
		return { items: body[arrays[0]] as unknown[], at: here(arrays[0]), scopes: metaScopes(body) };
	}
	for (const key of ENVELOPE_KEYS) {
		const inner = locateItems(body[key], here(key));
		if (inner && isRecord(body[key])) {
			return { ...inner, scopes: [...inner.scopes, ...metaScopes(body)] };
		}
	}
	return undefined;
}

function describeKeys(body: unknown): string {
	if (Array.isArray(body)) return 'an array';
	if (!isRecord(body)) return typeof body === 'string' ? 'text' : String(body);
	const keys = Object.keys(body).slice(0, 12);
	return keys.length ? `an object with keys ${keys.join(', ')}` : 'an empty object';
}

/** Finds the records of a list response, or throws a PageShapeError that tells the user what to set. */
export function findItems(body: unknown, itemsPath: string): Located {
	if (itemsPath !== '') {
		const value = getPath(body, itemsPath);
		if (!Array.isArray(value)) {
			throw new PageShapeError(
				`No list found at Items Path "${itemsPath}"; the service answered ${describeKeys(body)}`,
			);
		}
		const parent = itemsPath.includes('.') ? getPath(body, itemsPath.replace(/\.[^.]+$/, '')) : body;
		const scopes = isRecord(parent) ? metaScopes(parent) : [];
		if (isRecord(body) && parent !== body) scopes.push(...metaScopes(body));
		return { items: value, at: itemsPath, scopes };
	}
	if (body === undefined || body === null || body === '') return { items: [], at: '(empty body)', scopes: [] };
	const found = locateItems(body);
	if (!found) {
		throw new PageShapeError(
			`Could not find the list of records in the answer, which was ${describeKeys(body)}. Set Options > Pagination > Items Path to where the records are`,
		);
	}
	return found;
}

function lookup(scopes: IDataObject[], keys: readonly string[]): { key: string; value: unknown } | undefined {
	for (const scope of scopes) {
		for (const key of keys) {
			if (key in scope) return { key, value: scope[key] };
		}
	}
	return undefined;
}

function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value);
	return undefined;
}

function toBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (value === 1 || value === 'true' || value === '1') return true;
	if (value === 0 || value === 'false' || value === '0') return false;
	return undefined;
}

function looksLikeUrl(text: string): boolean {
	return /^(https?:)?\/\//i.test(text) || text.startsWith('/') || text.startsWith('?');
}

/** Parses an RFC 8288 Link header and returns the target of rel="next", null if other rels only. */
export function linkHeaderNext(header: string | undefined): string | null | undefined {
	if (!header) return undefined;
	for (const part of header.split(/,(?=\s*<)/)) {
		const match = /<([^>]*)>(.*)/.exec(part.trim());
		if (!match) continue;
		const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(match[2])?.[1];
		if (rel && rel.toLowerCase().split(/\s+/).includes('next')) return match[1];
	}
	return null;
}

type Pointer =
	| { kind: 'url'; url: string }
	| { kind: 'cursor'; value: string; param: string }
	| { kind: 'end' }
	| undefined;

/** Interprets a next-ish value: a URL or {href}, a cursor string, null for "no more". */
function pointerFrom(key: string, value: unknown, cursorParam: string): Pointer {
	if (value === null || value === false || value === '') return { kind: 'end' };
	if (isRecord(value)) {
		const href = value.href ?? value.url ?? value.link ?? value.uri;
		if (typeof href === 'string') return pointerFrom(key, href, cursorParam);
		if (href === null) return { kind: 'end' };
		return undefined;
	}
	if (typeof value === 'string') {
		if (looksLikeUrl(value)) return { kind: 'url', url: value };
		return { kind: 'cursor', value, param: cursorParam || (CURSOR_KEYS[key] ?? 'cursor') };
	}
	return undefined;
}

function withParam(request: PageRequest, param: string, value: string | number): PageRequest {
	return { path: request.path, url: request.url, qs: { ...request.qs, [param]: value } };
}

function lastId(items: unknown[]): string | undefined {
	const last = items[items.length - 1];
	if (!isRecord(last)) return undefined;
	for (const key of ID_KEYS) {
		const value = last[key];
		if (typeof value === 'string' || typeof value === 'number') return String(value);
	}
	return undefined;
}

/**
 * Reads one page. `request` is the request that got it (its query tells the current page number or
 * offset when the body does not). Throws PageShapeError when the page cannot be read as asked.
 */
export function readPage(
	body: unknown,
	headers: Record<string, string>,
	request: PageRequest,
	settings: PaginationSettings,
): PageReading {
	const { items, at, scopes } = findItems(body, settings.itemsPath);
	const style = settings.style;
	const base = { items, itemsAt: at };
	if (style === 'none') return { ...base, detected: 'single', explicit: true };

	const custom =
		settings.nextPath !== ''
			? { key: settings.nextPath.split('.').pop() ?? '', value: getPath(body, settings.nextPath) }
			: undefined;
	const total = toNumber(lookup(scopes, TOTAL_KEYS)?.value);
	const perPage = toNumber(lookup(scopes, PER_PAGE_KEYS)?.value) ?? (settings.pageSize || undefined);
	const hasMoreFound = style === 'hasMore' && custom ? custom : lookup(scopes, HAS_MORE_KEYS);
	const hasMore = toBoolean(hasMoreFound?.value);
	const summary = { ...base, total, pageSize: perPage };

	// 1. A link to the next page: Link header, or a next-ish key in the body.
	if (style === 'auto' || style === 'nextUrl' || style === 'cursor') {
		const fromHeader = custom ? undefined : linkHeaderNext(headers.link);
		if (fromHeader && style !== 'cursor') {
			return { ...summary, detected: 'link', explicit: true, next: { url: fromHeader, qs: {} } };
		}
		const found = custom ?? lookup(scopes, NEXT_KEYS);
		let pointer = found ? pointerFrom(found.key, found.value, settings.cursorParam) : undefined;
		if (pointer?.kind === 'url' && style === 'cursor') pointer = undefined;
		if (!pointer && !custom && style !== 'nextUrl') {
			const cursor = lookup(scopes, Object.keys(CURSOR_KEYS));
			const sent = cursor ? request.qs[settings.cursorParam || (CURSOR_KEYS[cursor.key] ?? 'cursor')] : undefined;
			if (cursor && !(cursor.key === 'cursor' && cursor.value === sent)) {
				pointer = pointerFrom(cursor.key, cursor.value, settings.cursorParam);
				if (pointer?.kind === 'url') pointer = undefined;
			}
		}
		if (pointer?.kind === 'url') {
			return { ...summary, detected: 'nextUrl', explicit: true, next: { url: pointer.url, qs: {} } };
		}
		if (pointer?.kind === 'cursor') {
			return { ...summary, detected: 'cursor', explicit: true, next: withParam(request, pointer.param, pointer.value) };
		}
		if (pointer?.kind === 'end' || fromHeader === null) {
			return { ...summary, detected: fromHeader === null ? 'link' : 'nextUrl', explicit: true };
		}
		if (style !== 'auto') {
			if (hasMore === false || items.length === 0) return { ...summary, detected: style, explicit: true };
			throw new PageShapeError(
				`Pagination style "${style}" is set, but the answer has no ${style === 'cursor' ? 'cursor' : 'next-page link'}${custom ? ` at "${settings.nextPath}"` : ''}. Set Options > Pagination > Next Path to where it is, or choose another style`,
			);
		}
	}

	// 2. Page numbers, with or without totals.
	const pageFound = style === 'auto' || style === 'page' ? lookup(scopes, PAGE_KEYS) : undefined;
	const pageFromBody = toNumber(pageFound?.value);
	const offsetFromBody = style === 'auto' || style === 'offset' ? toNumber(lookup(scopes, OFFSET_KEYS)?.value) : undefined;
	if (pageFromBody !== undefined || style === 'page') {
		const param = settings.pageParam;
		const current = pageFromBody ?? toNumber(request.qs[param]) ?? settings.firstPage;
		const declaredPages = toNumber(lookup(scopes, TOTAL_PAGES_KEYS)?.value);
		const totalPages =
			declaredPages ?? (total !== undefined && perPage ? Math.ceil(total / perPage) : undefined);
		if (totalPages !== undefined) {
			const lastPage = totalPages - 1 + settings.firstPage;
			const values = [];
			for (let p = current + 1; p <= lastPage; p++) values.push(p);
			return {
				...summary,
				detected: 'page',
				explicit: true,
				next: values.length ? withParam(request, param, current + 1) : undefined,
				plan: values.length ? { param, values } : undefined,
			};
		}
		if (hasMore !== undefined) {
			return { ...summary, detected: 'page', explicit: true, next: hasMore ? withParam(request, param, current + 1) : undefined };
		}
		return { ...summary, detected: 'page', explicit: false, next: withParam(request, param, current + 1) };
	}

	// 3. Offset and limit, with or without a total.
	if (offsetFromBody !== undefined || style === 'offset') {
		const param = settings.offsetParam;
		const current = offsetFromBody ?? toNumber(request.qs[param]) ?? 0;
		const nextOffset = current + items.length;
		if (total !== undefined) {
			const step = perPage ?? items.length;
			const values = [];
			if (step > 0) for (let o = nextOffset; o < total; o += step) values.push(o);
			return {
				...summary,
				detected: 'offset',
				explicit: true,
				next: nextOffset < total && items.length > 0 ? withParam(request, param, nextOffset) : undefined,
				plan: values.length && items.length > 0 ? { param, values } : undefined,
			};
		}
		if (hasMore !== undefined) {
			return { ...summary, detected: 'offset', explicit: true, next: hasMore ? withParam(request, param, nextOffset) : undefined };
		}
		return { ...summary, detected: 'offset', explicit: false, next: withParam(request, param, nextOffset) };
	}

	// 4. A has-more flag alone: continue after the last record (Stripe's starting_after).
	if (hasMore !== undefined && (style === 'auto' || style === 'hasMore')) {
		if (!hasMore) return { ...summary, detected: 'hasMore', explicit: true };
		const id = lastId(items);
		if (id === undefined) {
			throw new PageShapeError(
				'The service says it has more records but gives no link or cursor, and the last record has no id to continue after. Set Options > Pagination > Style and its parameters',
			);
		}
		return {
			...summary,
			detected: 'hasMore',
			explicit: true,
			next: withParam(request, settings.cursorParam || 'starting_after', id),
		};
	}
	if (style === 'hasMore') {
		throw new PageShapeError(
			`Pagination style "hasMore" is set, but the answer has no has-more flag${custom ? ` at "${settings.nextPath}"` : ''}. Set Next Path to it, or choose another style`,
		);
	}

	// 5. No paging information at all: ask for the next page number and see whether anything new comes.
	const current = toNumber(request.qs[settings.pageParam]) ?? settings.firstPage;
	return {
		...summary,
		detected: 'probe',
		explicit: false,
		next: items.length > 0 ? withParam(request, settings.pageParam, current + 1) : undefined,
	};
}
