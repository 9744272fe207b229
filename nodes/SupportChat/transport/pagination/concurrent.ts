import type { ApiResponse } from '../types';
import type { Collector } from './collector';
import type { PagePlan, PageReading, ReadAhead } from './reading';
import type { PageRequest } from './styles';

/**
 * Pagination Concurrency: pages fetched a few at a time, in a sliding window, and taken in the order
 * they were asked for. Two sources of pages: the rest of a list whose count a page declared, and the
 * pages that may follow a full page when page numbers come with a known page size and no count.
 */

export interface Fetched {
	response: ApiResponse;
	reading: PageReading;
}

type Get = (page: PageRequest) => Promise<Fetched>;

/** A request's outcome as a value, so that one abandoned by an early stop cannot reject unobserved. */
type Outcome = { page: PageRequest } & (
	| { ok: true; fetched: Fetched }
	| { ok: false; error: unknown }
);

/** Up to its callers' bound of requests in flight, each made when it is launched. */
class PageWindow {
	private readonly queue: Array<Promise<Outcome>> = [];

	constructor(private readonly get: Get) {}

	get size(): number {
		return this.queue.length;
	}

	launch(page: PageRequest): void {
		this.queue.push(this.request(page));
	}

	/**
	 * The oldest request's page, its failure failing the list; with none in flight, the page
	 * `following` names is asked for now, so that a list is never left waiting on nothing.
	 */
	async next(following: () => PageRequest): Promise<{ page: PageRequest; reading: PageReading }> {
		const outcome = await (this.queue.shift() ?? this.request(following()));
		if (!outcome.ok) throw outcome.error;
		return { page: outcome.page, reading: outcome.fetched.reading };
	}

	/**
	 * Waits for every request still out: none outlives the list, so the next item's list never has
	 * more than Pagination Concurrency requests in flight beside them.
	 */
	async settle(): Promise<Outcome[]> {
		return await Promise.all(this.queue.splice(0));
	}

	private request(page: PageRequest): Promise<Outcome> {
		return this.get(page).then(
			(fetched): Outcome => ({ page, ok: true, fetched }),
			(error: unknown): Outcome => ({ page, ok: false, error }),
		);
	}
}

/** The `count` pages a page declared after itself (as many as Limit needs). */
export async function fetchPlanned(
	collector: Collector,
	concurrency: number,
	plan: PagePlan,
	count: number,
	get: Get,
): Promise<void> {
	const window = new PageWindow(get);
	let launched = 0;
	const following = () => {
		const page = plan.at(launched++);
		collector.admit(page);
		return page;
	};
	const launch = () => {
		if (launched < count) window.launch(following());
	};
	try {
		for (let slot = 0; slot < concurrency; slot++) launch();
		for (let index = 0; index < count; index++) {
			const { page, reading } = await window.next(following);
			if (!collector.accept(reading, page, index < count - 1)) return;
			launch();
		}
	} finally {
		await window.settle();
	}
}

/**
 * The pages after a full page, read ahead by number: the first short (or empty) page ends the list.
 * Pages already asked for past it are awaited, and each must bring nothing new: records there mean
 * the list changed while it was read, or the service does not end its lists at a short page, and
 * Return All fails rather than piece a list together from two states of it. A page that fails fails
 * the list, read ahead or not. Limit and Max Pages keep pages from going out that they would not
 * allow (Collector.mayReadAhead).
 */
export async function readAhead(
	collector: Collector,
	concurrency: number,
	ahead: ReadAhead,
	get: Get,
): Promise<void> {
	const window = new PageWindow(get);
	try {
		const end = await untilTheEnd(collector, concurrency, ahead, window);
		if (collector.items.length >= collector.wanted) return;
		const rest = await window.settle();
		rest.forEach((outcome, index) => {
			if (!outcome.ok) throw outcome.error;
			collector.pastTheEnd(outcome.fetched.reading, index + 1, end.items.length, ahead.size);
		});
	} finally {
		await window.settle();
	}
}

/** Reads ahead until a page ends the list (Limit, a short page, a page served before); returns that page. */
async function untilTheEnd(
	collector: Collector,
	concurrency: number,
	ahead: ReadAhead,
	window: PageWindow,
): Promise<PageReading> {
	let launched = 0;
	const following = () => {
		const page = ahead.at(launched++);
		collector.admit(page);
		return page;
	};
	for (;;) {
		while (window.size < concurrency && collector.mayReadAhead(window.size, ahead.size))
			window.launch(following());
		// With none in flight, the page the last one leads to goes out whatever may be read ahead (next):
		// Max Pages stops it in admit.
		const { page, reading } = await window.next(following);
		if (!collector.accept(reading, page)) return reading;
	}
}
