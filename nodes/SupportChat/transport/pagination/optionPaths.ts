/**
 * The pagination options the transport's messages name, as the editor shows them: `Options →
 * Pagination Style`. test/package/strings.test.ts holds each path to an option of the node's Options,
 * and test/unit/transport/pagination/optionPaths.test.ts each to the option of its key
 * (descriptions/options.ts), so a renamed option cannot leave a message naming one that is gone.
 */
export const OPTION_PATHS = {
	concurrency: 'Options → Pagination Concurrency',
	itemsPath: 'Options → Pagination Items Path',
	maxPages: 'Options → Pagination Max Pages',
	nextPath: 'Options → Pagination Next Path',
	paginationStyle: 'Options → Pagination Style',
} as const;
