import type { Reader } from '../reading';
import { lookup } from '../values';
import { cursorParamFor } from './cursor';
import { follow, pointerFrom } from './pointer';

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
