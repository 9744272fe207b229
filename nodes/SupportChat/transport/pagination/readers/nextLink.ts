import type { PageContext, Reader } from '../reading';
import { lookup } from '../values';
import { cursorParamFor } from './cursor';
import { parseLinks } from './link';
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
 * Whether the page points further in any form the readers know, followed or not: a next-page key with a
 * value (a number in auto detection, a link under a forced Page Number style), or a Link rel="next".
 */
export function pointsFurther(page: PageContext): boolean {
	const value = (page.custom ?? lookup(page.scopes, NEXT_KEYS))?.value;
	if (value !== undefined && value !== null && value !== false && value !== '') return true;
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
