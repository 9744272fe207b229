import type { Reader } from '../reading';
import { own } from '../../../shared/json';
import { lookup } from '../values';
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
]);
const CURSOR_KEY_NAMES = [...CURSOR_KEYS.keys()];

/** The query parameter for a cursor found under `key`, unless the user named one. */
export function cursorParamFor(key: string, configured: string): string {
	return configured || (CURSOR_KEYS.get(key) ?? 'cursor');
}

/**
 * A cursor under one of the usual keys, a string or a number. A bare `cursor` equal to the one just
 * sent is the current position, not the next one.
 */
export const cursor: Reader = (page) => {
	if (page.custom) return undefined;
	const found = lookup(page.scopes, CURSOR_KEY_NAMES);
	if (!found) return undefined;
	const param = cursorParamFor(found.key, page.settings.cursorParam);
	const sent = own(page.request.qs, param);
	if (found.key === 'cursor' && sent !== undefined && String(found.value) === String(sent)) return undefined;
	const pointer = pointerFrom(found.value, param, true);
	if (!pointer || pointer.kind === 'url') return undefined;
	return follow(page, pointer, 'cursor');
};
