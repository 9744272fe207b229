/**
 * What a page of a list answer may declare, read by every page style (transport/pagination/locate.ts
 * and readPage.ts). The keys only one page style reads (cursors, next links, page numbers, offsets)
 * stay in that style's reader file under transport/pagination/readers/, so that a page style is
 * one file and one entry in readPage's DETECTION table.
 */

/** Where lists of records are kept, most likely first. */
export const LIST_KEYS: readonly string[] = [
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

/** Where APIs keep paging metadata beside the records. */
export const META_KEYS: ReadonlySet<string> = new Set([
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
]);

/** The number of records in the whole list. */
export const TOTAL_KEYS: readonly string[] = [
	'total',
	'total_count',
	'totalCount',
	'total_results',
	'totalResults',
	'total_items',
	'totalItems',
];

/** The page size the service says it used. */
export const PER_PAGE_KEYS: readonly string[] = [
	'per_page',
	'perPage',
	'page_size',
	'pageSize',
	'limit',
	'size',
];

/** A flag saying whether more records follow. */
export const HAS_MORE_KEYS: readonly string[] = [
	'has_more',
	'hasMore',
	'has_next',
	'hasNext',
	'has_next_page',
	'hasNextPage',
	'more',
];

/**
 * Response headers declaring the number of records in the whole list (json-server and GitLab's
 * `X-Total-Count`/`X-Total`, Yii's `X-Pagination-Total-Count`, WordPress's `X-WP-Total`), lower-case
 * as the transport keeps them. A count declared here is held as one in the body is.
 */
export const TOTAL_HEADERS: readonly string[] = [
	'x-total-count',
	'x-total',
	'x-pagination-total-count',
	'total-count',
	'x-wp-total',
];

/** Response headers declaring the number of pages (GitLab, Yii, WordPress). */
export const PAGE_COUNT_HEADERS: readonly string[] = [
	'x-total-pages',
	'x-pagination-page-count',
	'x-wp-totalpages',
];

/**
 * `Content-Range` units that count records, declaring the total after the slash: `items 0-24/137`, or no
 * unit as PostgREST sends it (`0-24/137`). `bytes` is a byte range, not a list.
 */
export const RECORD_RANGE_UNITS: readonly string[] = ['', 'items'];
