import type { FinalReader, ReaderOutcome, PageContext, Reader } from '../reading';
import { own } from '../../../shared/json';
import { lookup, toCount, withParam } from '../values';

const PAGE_KEYS = ['current_page', 'currentPage', 'page', 'page_number', 'pageNumber', 'pageNo'];
const TOTAL_PAGES_KEYS = ['total_pages', 'totalPages', 'last_page', 'lastPage', 'page_count', 'pageCount', 'pages', 'num_pages'];

/**
 * Page numbers, with a page count (declared, or from total and per_page), a has-more flag, or
 * nothing (then the node guesses and an empty or short page ends the list).
 */
function readPages(page: PageContext, fromBody: number | undefined): ReaderOutcome {
	const { request, settings } = page;
	const param = settings.pageParam;
	const current = fromBody ?? toCount(own(request.qs, param)) ?? settings.firstPage;
	const step = (ahead: number) => withParam(request, param, current + ahead);

	const declaredPages = toCount(lookup(page.scopes, TOTAL_PAGES_KEYS)?.value);
	const totalPages =
		declaredPages ?? (page.total !== undefined && page.perPage !== undefined ? Math.ceil(page.total / page.perPage) : undefined);
	if (totalPages !== undefined) {
		const remaining = totalPages - 1 + settings.firstPage - current;
		if (!(remaining > 0)) return { detected: 'page', explicit: true };
		const declared = declaredPages !== undefined ? `${declaredPages} pages` : `${page.total} records at ${page.perPage} a page`;
		return { detected: 'page', explicit: true, next: step(1), plan: { count: remaining, declared, at: (index) => step(index + 1) } };
	}
	if (page.hasMore !== undefined) return { detected: 'page', explicit: true, next: page.hasMore ? step(1) : undefined };
	return { detected: 'page', explicit: false, next: step(1) };
}

const pageInBody = (page: PageContext) => toCount(lookup(page.scopes, PAGE_KEYS)?.value);

/** Detected: the body names its page number. */
export const pageNumber: Reader = (page) => {
	const fromBody = pageInBody(page);
	return fromBody === undefined ? undefined : readPages(page, fromBody);
};

/** Forced: the page number may come from the request alone. */
export const pageNumberForced: FinalReader = (page) => readPages(page, pageInBody(page));
