import type { DeclaredPages, FinalReader, ReaderOutcome, PageContext, Reader } from '../reading';
import { fieldOf } from '../../../shared/json';
import { lookup, toCount, withParam, recordId } from '../values';
import { PageShapeError } from '../reading';
import { OPTION_PATHS } from '../styles';

/**
 * The page styles that count their way on: a page number (`pageNumber`), an offset (`offset`) and a
 * has-more flag alone, continued after the last record (`hasMore`). Keys only these styles read are here.
 */

const PAGE_KEYS = ['current_page', 'currentPage', 'page', 'page_number', 'pageNumber', 'pageNo'];
const TOTAL_PAGES_KEYS = [
	'total_pages',
	'totalPages',
	'last_page',
	'lastPage',
	'page_count',
	'pageCount',
	'pages',
	'num_pages',
];

const pageInBody = (page: PageContext) => toCount(lookup(page.scopes, PAGE_KEYS)?.value);
/** The page count the body declares, or failing that the headers. */
const countOfPages = (page: PageContext) =>
	toCount(lookup(page.scopes, TOTAL_PAGES_KEYS)?.value) ?? page.headerPages;

/** The page count a page declares, or one computed from its total and page size, with its words. */
function pageCount(page: PageContext): { count: number; declared: string } | undefined {
	const declaredPages = countOfPages(page);
	if (declaredPages !== undefined)
		return { count: declaredPages, declared: `${declaredPages} pages` };
	if (page.total === undefined || page.perPage === undefined) return undefined;
	return {
		count: Math.ceil(page.total / page.perPage),
		declared: `${page.total} records at ${page.perPage} a page`,
	};
}

/**
 * The pages a page declares after itself, whatever style reads it (a next-page URL beside a
 * `last_page`, say). Only a declared page count: a total is a promise of records, held as such. The
 * page's own number is read from its body or the request; without either, the page is taken as the
 * first, which the collector holds only of the first page.
 */
export function declaredPages(page: PageContext): DeclaredPages | undefined {
	const count = countOfPages(page);
	if (count === undefined) return undefined;
	const { request, settings } = page;
	const known = pageInBody(page) ?? toCount(fieldOf(request.qs, settings.pageParam));
	const current = known ?? settings.firstPage;
	const after = Math.max(0, count - 1 + settings.firstPage - current);
	return known === undefined
		? { after, declared: `${count} pages`, ifFirst: true }
		: { after, declared: `${count} pages` };
}

/**
 * Page numbers, with a page count (declared, or from total and per_page), a has-more flag, or
 * nothing (then the node guesses and an empty or short page ends the list; with a known page size,
 * the pages after this one may be read ahead).
 */
function readPages(page: PageContext, fromBody: number | undefined): ReaderOutcome {
	const { request, settings } = page;
	const param = settings.pageParam;
	const current = fromBody ?? toCount(fieldOf(request.qs, param)) ?? settings.firstPage;
	const step = (ahead: number) => withParam(request, param, current + ahead);

	const count = pageCount(page);
	if (count !== undefined) {
		const remaining = count.count - 1 + settings.firstPage - current;
		if (!(remaining > 0)) return { detected: 'page', explicit: true };
		return {
			detected: 'page',
			explicit: true,
			next: step(1),
			plan: { count: remaining, declared: count.declared, at: (index) => step(index + 1) },
		};
	}
	if (page.hasMore !== undefined)
		return { detected: 'page', explicit: true, next: page.hasMore ? step(1) : undefined };
	const size = page.perPage;
	const guessed: ReaderOutcome = { detected: 'page', explicit: false, next: step(1) };
	return size === undefined
		? guessed
		: { ...guessed, ahead: { size, at: (index) => step(index + 1) } };
}

/** Detected: the body names its page number. */
export const pageNumber: Reader = (page) => {
	const fromBody = pageInBody(page);
	return fromBody === undefined ? undefined : readPages(page, fromBody);
};

/** Forced: the page number may come from the request alone. */
export const pageNumberForced: FinalReader = (page) => readPages(page, pageInBody(page));

const OFFSET_KEYS = ['offset', 'skip', 'start'];

/**
 * Offset and limit: the next offset is this one plus the records received (not the declared page
 * size: a service may cap the size below what it declares). With a total the remaining pages are known.
 */
function readOffsets(page: PageContext, fromBody: number | undefined): ReaderOutcome {
	const param = page.settings.offsetParam;
	const current = fromBody ?? toCount(fieldOf(page.request.qs, param)) ?? 0;
	const received = page.items.length;
	const nextOffset = current + received;
	const at = (index: number) => withParam(page.request, param, nextOffset + index * received);

	if (page.total !== undefined) {
		if (received === 0 || nextOffset >= page.total) return { detected: 'offset', explicit: true };
		const plan = {
			count: Math.ceil((page.total - nextOffset) / received),
			declared: `${page.total} records`,
			at,
		};
		return { detected: 'offset', explicit: true, next: at(0), plan };
	}
	if (page.hasMore !== undefined)
		return { detected: 'offset', explicit: true, next: page.hasMore ? at(0) : undefined };
	return { detected: 'offset', explicit: false, next: at(0) };
}

const offsetInBody = (page: PageContext) => toCount(lookup(page.scopes, OFFSET_KEYS)?.value);

/** Detected: the body names its offset. */
export const offset: Reader = (page) => {
	const fromBody = offsetInBody(page);
	return fromBody === undefined ? undefined : readOffsets(page, fromBody);
};

/** Forced: the offset may come from the request alone. */
export const offsetForced: FinalReader = (page) => readOffsets(page, offsetInBody(page));

/** A has-more flag alone: continue after the last record (Stripe's `starting_after`). */
export const hasMore: Reader = (page) => {
	if (page.hasMore === undefined) return undefined;
	if (!page.hasMore) return { detected: 'hasMore', explicit: true };
	const id = recordId(page.items[page.items.length - 1]);
	if (id === undefined) {
		throw new PageShapeError(
			`The service says it has more records but gives no link or cursor, and the last record has no id to continue after. Set ${OPTION_PATHS.paginationStyle} and its parameters`,
		);
	}
	return {
		detected: 'hasMore',
		explicit: true,
		next: withParam(page.request, page.settings.cursorParam || 'starting_after', id),
	};
};
