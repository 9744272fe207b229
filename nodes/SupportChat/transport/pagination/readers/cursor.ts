import type { Reader } from '../reading';
import { fieldOf } from '../../../shared/json';
import { follow, pointerFrom } from './pointer';

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
export const CURSOR_KEY_NAMES = [...CURSOR_KEYS.keys()];

/** The query parameter for a cursor found under `key`, unless the user named one. */
export function cursorParamFor(key: string, configured: string): string {
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
