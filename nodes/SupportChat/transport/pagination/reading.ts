import type { IDataObject } from 'n8n-workflow';

import type { PageRequest, PaginationSettings, PaginationStyle } from './styles';
import type { Found } from './values';

/**
 * What a page was read as: a style the user can force (so a new one in PAGINATION_STYLES is one here too),
 * `link` (found by auto only), one page (`single`), or page numbers guessed (`probe`).
 */
export type Detected = Exclude<PaginationStyle, 'auto' | 'none'> | 'link' | 'single' | 'probe';

/**
 * The remaining pages when a page tells how many there are. Lazy: a service may declare a billion
 * pages, so requests are made one at a time as they are launched, never listed in advance.
 */
export interface PagePlan {
	/** Pages still to fetch after this one, as declared (a safe integer, possibly huge). */
	count: number;
	/** What the service declared, for messages: `total_pages 1000000000`. */
	declared: string;
	/** The request for the `index`-th remaining page, 0 being the next one. */
	at(index: number): PageRequest;
}

/**
 * The pages that may follow when page numbers come with a known page size and no count: while each
 * comes back full, the next may hold more. Pagination Concurrency reads a few of them ahead.
 */
export interface ReadAhead {
	/** Records in a full page: a page with fewer ends the list. */
	size: number;
	/** The request for the `index`-th page after this one, 0 being the next one. */
	at(index: number): PageRequest;
}

export interface PageReading {
	items: unknown[];
	/** Where the records were found, for error messages. */
	itemsAt: string;
	/** The answer had no body at all (not even an empty list). */
	bodyless: boolean;
	detected: Detected;
	next?: PageRequest;
	/**
	 * Whether the service itself said there is (or is not) more: a link, a cursor, a flag, a total.
	 * When false the node is guessing (page numbers without totals) and an empty, short or repeated
	 * page is the normal end.
	 */
	explicit: boolean;
	/** Records in the whole list, when the page declares it (in its body, or failing that its headers). */
	total?: number;
	/** Declared page size, when the page says it. */
	pageSize?: number;
	plan?: PagePlan;
	ahead?: ReadAhead;
	/**
	 * The pages the service declares after this one (`total_pages`, `last_page`, a Link rel="last"),
	 * in its words for messages. A promise: the collector holds the list to it.
	 */
	pages?: DeclaredPages;
	/** A has-more flag saying more that this page does not lead on to, in the service's words. */
	unfollowed?: string;
	/**
	 * Nothing on this page says more may follow (no count, flag, link, cursor or next-page key, read or
	 * not): the node only guesses that the next page exists, and a 404 for it ends the list.
	 */
	guess?: true;
	/** This page was a guess, and the service answered 404: it does not exist (./loop). */
	absent?: true;
}

export interface DeclaredPages {
	/** Pages after this one, as declared: a safe integer, never a loop bound. */
	after: number;
	/** What the service declared: `4 pages`, `a Link rel="last" to page 9`. */
	declared: string;
	/** The page told no number of its own: `after` counts from the first page, and holds only there. */
	ifFirst?: true;
}

/** What a reader decides: where to go next. The records and declared figures are added by readPage. */
export type ReaderOutcome = Pick<
	PageReading,
	'detected' | 'next' | 'explicit' | 'plan' | 'ahead' | 'pages'
>;

/** One answer as the readers see it; everything here is computed once per page. */
export interface PageContext {
	body: unknown;
	headers: Record<string, string>;
	/** The request that got this page: its query tells the current page number or offset. */
	request: PageRequest;
	settings: PaginationSettings;
	style: PaginationStyle;
	items: unknown[];
	/** Objects that may carry paging metadata, nearest first. */
	scopes: IDataObject[];
	/** The value at the user's Next Path, when one is set. */
	custom?: Found;
	total?: number;
	/** The page count the response headers declare (`X-Total-Pages`); the body's is read by ./readers/numbers. */
	headerPages?: number;
	perPage?: number;
	hasMore?: boolean;
	/** The key of the has-more flag, for messages. */
	hasMoreKey?: string;
}

/** A page style: its outcome when the page is in that style, undefined to let the next reader try. */
export type Reader = (page: PageContext) => ReaderOutcome | undefined;
/** The last reader of a style: it always decides (or throws a PageShapeError). */
export type FinalReader = (page: PageContext) => ReaderOutcome;

/** The page cannot be read as asked; the message says what to set. */
export class PageShapeError extends Error {}
