import type { IDataObject } from 'n8n-workflow';

export const PAGINATION_STYLES = [
	'auto',
	'none',
	'nextUrl',
	'cursor',
	'hasMore',
	'page',
	'offset',
] as const;
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
	/** Query parameter carrying the page size; used when pageSize > 0 and it is named. */
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
	/** Path under the base URL (the first request, and parameter-based styles); none for Support Board. */
	path?: string;
	/** A link the service gave (URL styles). */
	url?: string;
	/** The page's parameters: the query string in REST, the function and its arguments for Support Board. */
	qs: IDataObject;
}
/**
 * The pagination options the transport's messages name, as the editor shows them: `Options →
 * Pagination Style`. test/package/strings.test.ts holds each path to an option of the node's Options,
 * and test/unit/transport/pagination/styles.test.ts each to the option of its key
 * (descriptions/options.ts), so a renamed option cannot leave a message naming one that is gone.
 */
export const OPTION_PATHS = {
	concurrency: 'Options → Pagination Concurrency',
	itemsPath: 'Options → Pagination Items Path',
	maxPages: 'Options → Pagination Max Pages',
	nextPath: 'Options → Pagination Next Path',
	paginationStyle: 'Options → Pagination Style',
} as const;
