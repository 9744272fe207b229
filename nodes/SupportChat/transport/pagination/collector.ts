import { QUOTE_LENGTH } from '../../shared/text';
import type { Detected, PagePlan, PageReading } from './reading';
import type { PageRequest, PaginationSettings } from './styles';
import { OPTION_PATHS } from './styles';
import { requestKey, hasIdentity, pageDigest, SeenIds } from './values';

/** Builds the error the user sees; the loop masks the token in both texts. */
export type Failure = (
	message: string,
	description: string,
	context: { pages: number; records: number },
) => Error;

export interface Collected {
	items: unknown[];
	pages: number;
	detected: Detected | 'empty';
}

const STYLE = OPTION_PATHS.paginationStyle;
const MAX_PAGES = OPTION_PATHS.maxPages;

/**
 * What the pages add up to, whatever their style: it drops records already seen, stops exactly at
 * Limit, knows a page or request served twice, holds the service to the total it declares and keeps
 * the requests within Max Pages. The loop asks it before each request and after each page.
 */
export class Collector {
	readonly items: unknown[] = [];

	private pages = 0;

	private requested = 0;

	private detected: Collected['detected'] = 'empty';

	private readonly seen = new Seen();

	private readonly seenRequests = new Set<string>();

	private firstPageSize: number | undefined;

	/** The last page said there is more: a page that then comes back without a body is a failure. */
	private promised = false;
	/** Nothing on the last page said more may follow (PageReading.guess): a 404 next ends the list. */
	private guessing = false;

	/** The list's size as the latest page declared it. */
	private declaredTotal: number | undefined;

	/** The last page that, as the latest declaration of a page count has it, must bring records. */
	private pagesOwed: { through: number; declared: string } | undefined;

	/** The last page that brought records not seen before (0: none yet). */
	private lastFruitful = 0;

	/** A has-more flag on the latest page that the page did not lead on from. */
	private unfollowed: { page: number; said: string } | undefined;

	constructor(
		private readonly path: string,
		private readonly settings: PaginationSettings,
		/** Limit; infinity with Return All. */
		readonly wanted: number,
		private readonly failure: Failure,
		/** Masks, then cuts, text the service sent (a Link header is not masked on its way here). */
		private readonly quote: (text: string, max: number) => string,
	) {}

	private fail(message: string, description: string): Error {
		return this.failure(message, description, { pages: this.pages, records: this.items.length });
	}

	/** Before a request: fails on one already made (the service points back) and past Max Pages. */
	admit(request: PageRequest): void {
		const key = requestKey(request);
		if (this.seenRequests.has(key)) {
			throw this.fail(
				`The service pointed back to a page of ${this.path} it had already served, after ${this.items.length} records; stopped to avoid an endless loop`,
				`Repeated request: ${this.quote(key, QUOTE_LENGTH)}. Set ${STYLE} to match your service.`,
			);
		}
		if (this.requested + 1 > this.settings.maxPages) {
			throw this.fail(
				`Stopped after ${this.pages} pages (${this.items.length} records) of ${this.path}: the service still reports more pages and Max Pages is ${this.settings.maxPages}`,
				`Raise ${MAX_PAGES} if the list really is that long, or turn off Return All and set a Limit. If the count keeps growing, the pagination settings may not match the service.`,
			);
		}
		this.seenRequests.add(key);
		this.requested++;
	}

	/** A page that could not be read: says which one, and which options set the shape. */
	unreadable(message: string): Error {
		return this.fail(
			`Could not read page ${this.pages + 1} of ${this.path}: ${message}`,
			`Set ${STYLE} to the way your service pages its lists, and ${OPTION_PATHS.itemsPath} to where its records are in each answer.`,
		);
	}

	/**
	 * How many of the planned pages to fetch: those Limit needs. With Return All, a declared count
	 * that cannot fit in Max Pages fails now, rather than after fetching Max Pages pages.
	 */
	planned(plan: PagePlan, perPage: number): number {
		if (Number.isFinite(this.wanted)) {
			return Math.min(
				plan.count,
				Math.ceil((this.wanted - this.items.length) / Math.max(perPage, 1)),
			);
		}
		if (this.requested + plan.count > this.settings.maxPages) {
			throw this.fail(
				`The service declares ${plan.declared} for ${this.path}, which needs ${plan.count} more pages after ${this.pages}, beyond Max Pages (${this.settings.maxPages}); stopped before fetching them`,
				`Raise ${MAX_PAGES} if the list really is that long, or turn off Return All and set a Limit. If the count is wrong, the service cannot be paged by its count: set ${STYLE}.`,
			);
		}
		return plan.count;
	}

	/** Whether one more page may be read ahead of `inFlight` others: Max Pages has room, and Limit wants more if they all come back full. */
	mayReadAhead(inFlight: number, size: number): boolean {
		const limitWantsMore = this.items.length + inFlight * size < this.wanted;
		return limitWantsMore && this.requested < this.settings.maxPages;
	}

	/** A page read ahead past the one (with `short` records) that ended the list must bring nothing new. */
	pastTheEnd(reading: PageReading, after: number, short: number, size: number): void {
		if (this.seen.addsNothing(reading.items)) return;
		throw this.fail(
			`Page ${this.pages + after} of ${this.path}, read ahead, brought records after page ${this.pages} ended the list with ${short} records (a full page holds ${size}): the list changed while it was read, or the service's pages do not end at a short one`,
			`Return All does not return a list pieced together from two states of it. Run the node again: a record added or removed while a list is read moves the others across its pages. If it keeps failing, set ${OPTION_PATHS.concurrency} to 1: the node then stops at the first short page without reading further.`,
		);
	}

	/** Takes a page's records; returns whether to ask for the next page. */
	accept(
		reading: PageReading,
		request: PageRequest,
		hasNext = reading.next !== undefined,
	): boolean {
		if ((reading.bodyless && this.promised) || (reading.absent && !this.guessing)) {
			throw this.fail(
				`Page ${this.pages + 1} of ${this.path} came back ${reading.absent ? 'as a 404 (no such page)' : 'without a body'} after the service said there were more records (${this.items.length} so far)`,
				'The service or a proxy may have failed on the way; run the node again. Return All does not return part of a list.',
			);
		}
		this.pages++;
		this.guessing = reading.guess === true;
		this.detected = reading.detected;
		this.record(reading);
		this.promised = reading.explicit && hasNext;
		const { items } = reading;
		// An empty page that still points further is followed (some services filter pages after paging
		// them; Max Pages and the repeat checks bound it), unless it breaks what was declared: one before
		// the declared end ends no list, and the pages after it would only hide the gap.
		if (items.length === 0) {
			this.holdToPromises(`page ${this.pages} came back empty`);
			return this.promised && this.items.length < this.wanted;
		}

		// A page served before adds nothing: its records without ids would otherwise come twice.
		const fresh = this.seen.take(items);
		if (fresh === undefined || fresh.length === 0)
			return this.repeatedPage(reading, request, hasNext);
		for (const item of fresh) {
			if (this.items.length >= this.wanted) break;
			this.items.push(item);
		}
		this.lastFruitful = this.pages;
		if (this.items.length >= this.wanted || !hasNext) return false;
		if (!reading.explicit) {
			const size = reading.pageSize ?? this.firstPageSize;
			if (size !== undefined && items.length < size) return false;
		}
		this.firstPageSize ??= items.length;
		return true;
	}

	/** A page seen before is the end when the node was guessing, a failure when the service promised more. */
	private repeatedPage(reading: PageReading, request: PageRequest, hasNext: boolean): false {
		if (reading.explicit && hasNext) {
			throw this.fail(
				`The service served the same page of ${this.path} again after ${this.items.length} records while saying there are more; stopped to avoid an endless loop`,
				`Request that repeated: ${this.quote(requestKey(request), QUOTE_LENGTH)}. The service may ignore the paging parameter the node sends: set ${STYLE} and its parameter names to what your service expects.`,
			);
		}
		this.holdToPromises('it served the same page again');
		return false;
	}

	/** What a page promises beyond itself, the latest declaration standing (a list may shrink while read). */
	private record(reading: PageReading): void {
		if (reading.total !== undefined) this.declaredTotal = reading.total;
		const pages = reading.pages;
		if (pages && (!pages.ifFirst || this.pages === 1)) {
			if (pages.after > 0)
				this.pagesOwed = { through: this.pages + pages.after, declared: pages.declared };
			else if (this.pagesOwed) this.pagesOwed.through = this.pages;
		}
		this.unfollowed =
			reading.unfollowed === undefined ? undefined : { page: this.pages, said: reading.unfollowed };
	}

	/**
	 * The one rule behind "nothing silently cut": a list that ends before Limit, and every empty page
	 * before it, must have kept each promise of more the service made (in its body or its headers,
	 * as ./readPage reads them). A declared total is kept by the records received; a declared
	 * page count (total_pages, last_page, a Link rel="last") by records on the last page it declares;
	 * a has-more flag by a page it leads to. Pointers (links, cursors) are kept by being followed:
	 * the readers follow every one they find, and a page after one that comes back without a body
	 * fails in accept().
	 */
	private holdToPromises(why: string): void {
		if (this.items.length >= this.wanted) return;
		const received = this.items.length;
		const total = this.declaredTotal;
		if (total !== undefined && received < total) {
			throw this.fail(
				`The service reports ${total} records in ${this.path} but only ${received} could be fetched: ${why}`,
				`Run the node again in case the list changed while it was read. If it fails again, the service's pages do not add up to its own count: set ${STYLE} and the parameter names your service expects.`,
			);
		}
		const owed = this.pagesOwed;
		if (owed && this.lastFruitful < owed.through) {
			const came =
				this.lastFruitful === 0
					? 'no page brought records'
					: `records came only up to page ${this.lastFruitful}`;
			throw this.fail(
				`The service declares ${owed.declared} for ${this.path}, but ${came} (${received} records from ${this.pages} pages fetched): ${why}`,
				`Return All does not return part of a list. Run the node again in case the list changed while it was read. If it fails again, the service's page count is not to be trusted: set ${STYLE} to another style your service supports, or turn off Return All and set a Limit.`,
			);
		}
		const flag = this.unfollowed;
		if (flag) {
			throw this.fail(
				`Page ${flag.page} of ${this.path} says ${flag.said}, but gives no next link, cursor or page the node can follow; the list ended after ${received} records`,
				`Return All does not return part of a list. If the service puts its cursor or link under another key, set ${OPTION_PATHS.nextPath} to it and ${STYLE} to match.`,
			);
		}
	}

	/** The list, once the service said there is no more: it must hold what the service promised. */
	finish(): Collected {
		this.holdToPromises('the service gave no further page');
		return { items: this.items, pages: this.pages, detected: this.detected };
	}
}

/**
 * What a list has served: its records by identity, and by whole content the pages holding records
 * without one (a page whose records all have ids is told by them, so only those need hashing).
 */
export class Seen {
	private readonly ids = new SeenIds();

	private readonly pages = new Set<string>();

	/**
	 * Notes a page: its records not served before, or undefined for a page served before whole. A page
	 * whose records all have ids is told by them; one with a record without an id also by its whole
	 * content. One pass, one identity per record: a long list notes tens of thousands. Noting the ids of
	 * a page that turns out to be a repeat changes nothing, since they were noted when it came first.
	 */
	take(items: unknown[]): unknown[] | undefined {
		const fresh: unknown[] = [];
		let unidentified = false;
		for (const item of items) {
			const added = this.ids.add(item);
			if (added === undefined) unidentified = true;
			if (added !== false) fresh.push(item);
		}
		if (!unidentified) return fresh;
		const digest = pageDigest(items);
		if (this.pages.has(digest)) return undefined;
		this.pages.add(digest);
		return fresh;
	}

	/** Whether a page adds nothing to what was served, without noting it. */
	addsNothing(items: unknown[]): boolean {
		return items.every(hasIdentity)
			? items.every((item) => this.ids.has(item))
			: this.pages.has(pageDigest(items));
	}
}
