import type { Detected, ReaderOutcome, PageContext } from '../reading';
import { fieldOf, isDataObject } from '../../../shared/json';
import { withParam } from '../values';

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
export function pointerFrom(
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
export function follow(page: PageContext, pointer: Pointer, ended: Detected): ReaderOutcome {
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
