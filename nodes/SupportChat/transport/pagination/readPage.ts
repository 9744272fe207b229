import { cut } from '../../shared/text';
import type { FinalReader, PageContext, PageReading, Reader } from './reading';
import { findItems, isBodyless } from './locate';
import type { PageRequest, PaginationSettings, PaginationStyle } from './styles';
import { getPath } from '../../shared/json';
import { HAS_MORE_KEYS, PER_PAGE_KEYS, TOTAL_KEYS } from '../../shared/vocabulary/pages';
import { headerCounts, lookup, toBoolean, toCount, toSize } from './values';
import { cursor, linkEnd, linkNext, nextLink, pointsFurther } from './readers/pointers';
import { missingFlag, missingPointer, probe, single } from './readers/final';
import {
	hasMore,
	offset,
	offsetForced,
	declaredPages,
	pageNumber,
	pageNumberForced,
} from './readers/numbers';

/**
 * The detection order, per style: the readers tried in turn, then the one that always decides. A
 * pointer to the next page outranks page numbers, which outrank offsets, which outrank a bare flag.
 * A new page style is a reader file (with the keys only it reads) and an entry here; keys every
 * style reads are in shared/vocabulary/pages.ts.
 */
const DETECTION: Readonly<
	Record<PaginationStyle, { readers: readonly Reader[]; last: FinalReader }>
> = {
	none: { readers: [], last: single },
	auto: {
		readers: [linkNext, nextLink, cursor, linkEnd, pageNumber, offset, hasMore],
		last: probe,
	},
	nextUrl: { readers: [linkNext, nextLink, linkEnd], last: missingPointer },
	cursor: { readers: [nextLink, cursor, linkEnd], last: missingPointer },
	hasMore: { readers: [hasMore], last: missingFlag },
	page: { readers: [], last: pageNumberForced },
	offset: { readers: [], last: offsetForced },
};

function contextOf(
	body: unknown,
	headers: Record<string, string>,
	request: PageRequest,
	settings: PaginationSettings,
) {
	const { items, at, scopes } = findItems(body, settings.itemsPath);
	const { nextPath, style } = settings;
	const custom =
		nextPath !== ''
			? { key: nextPath.slice(nextPath.lastIndexOf('.') + 1), value: getPath(body, nextPath) }
			: undefined;
	const flag = style === 'hasMore' && custom ? custom : lookup(scopes, HAS_MORE_KEYS);
	const inHeaders = headerCounts(headers);
	const page: PageContext = {
		body,
		headers,
		request,
		settings,
		style,
		items,
		scopes,
		custom,
		total: toCount(lookup(scopes, TOTAL_KEYS)?.value) ?? inHeaders.total,
		headerPages: inHeaders.pages,
		perPage: toSize(lookup(scopes, PER_PAGE_KEYS)?.value) ?? toSize(settings.pageSize),
		hasMore: toBoolean(flag?.value),
		hasMoreKey: flag?.key,
	};
	return { page, itemsAt: at };
}

/**
 * Reads one page: where its records are and what to ask for next. A pure function of the answer and
 * the request that got it (whose query tells the current page number or offset when the body does
 * not). Throws PageShapeError when the page cannot be read as asked.
 */
export function readPage(
	body: unknown,
	headers: Record<string, string>,
	request: PageRequest,
	settings: PaginationSettings,
): PageReading {
	const { page, itemsAt } = contextOf(body, headers, request, settings);
	// The style was checked against PAGINATION_STYLES where the options were read.
	const { readers, last } = DETECTION[settings.style];
	let outcome;
	for (const reader of readers) if ((outcome = reader(page))) break;
	const decided = outcome ?? last(page);
	const summary = {
		items: page.items,
		itemsAt,
		bodyless: isBodyless(body),
		total: page.total,
		pageSize: page.perPage,
	};
	// No Pagination reads one answer whatever it says: it holds the service to no promise of pages.
	if (settings.style === 'none') return { ...summary, ...decided };
	const said =
		page.hasMore === true && !(decided.explicit && decided.next)
			? `${cut(page.hasMoreKey ?? '', 80)} true`
			: undefined;
	const guess = !decided.explicit && !pointsFurther(page) ? { guess: true as const } : {};
	return {
		...summary,
		...decided,
		...guess,
		pages: decided.pages ?? declaredPages(page),
		unfollowed: said,
	};
}
