import { fieldOf } from '../../shared/json';
import {
	PAGE_COUNT_HEADERS,
	RECORD_RANGE_UNITS,
	TOTAL_HEADERS,
} from '../../shared/vocabulary/pages';
import { toCount } from './values';

/**
 * A header value is untrusted text of any length: only its first characters are read, with indexOf
 * and slices (linear), and what they hold counts only as toCount accepts it. A count is at most 16
 * digits; `items 0-24/137` is a few characters more.
 */
const MAX_VALUE = 80;

function text(headers: Record<string, string>, name: string): string | undefined {
	const value = fieldOf(headers, name);
	return typeof value === 'string' ? value.slice(0, MAX_VALUE).trim() : undefined;
}

/** The count under the first of `names` present, as the body's keys are read: the first one present decides. */
function firstCount(headers: Record<string, string>, names: readonly string[]): number | undefined {
	for (const name of names) {
		const value = text(headers, name);
		if (value !== undefined) return toCount(value);
	}
	return undefined;
}

/**
 * The total of a `Content-Range` over records (RFC 9110 §14.4 with a unit of the service's own):
 * `items 0-24/137` and PostgREST's `0-24/137` declare 137; `*` after the slash, or a byte range, none.
 */
function rangeTotal(value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const space = value.indexOf(' ');
	const unit = space < 0 ? '' : value.slice(0, space).toLowerCase();
	const slash = value.lastIndexOf('/');
	return RECORD_RANGE_UNITS.includes(unit) && slash >= 0
		? toCount(value.slice(slash + 1))
		: undefined;
}

/**
 * What a page declares in its response headers: the records in the whole list and the number of
 * pages. Held as a declaration in the body is, by the one rule in the collector; never a loop bound.
 */
export function headerCounts(headers: Record<string, string>): { total?: number; pages?: number } {
	return {
		total: firstCount(headers, TOTAL_HEADERS) ?? rangeTotal(text(headers, 'content-range')),
		pages: firstCount(headers, PAGE_COUNT_HEADERS),
	};
}
