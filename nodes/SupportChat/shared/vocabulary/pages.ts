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
export const PER_PAGE_KEYS: readonly string[] = ['per_page', 'perPage', 'page_size', 'pageSize', 'limit', 'size'];

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
