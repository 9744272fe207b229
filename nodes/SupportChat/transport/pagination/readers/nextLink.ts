import type { PageContext, Reader } from '../reading';
import { HAS_MORE_KEYS } from '../../../shared/vocabulary/pages';
import { lookup } from '../values';
import { CURSOR_KEY_NAMES, cursorParamFor } from './cursor';
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
