import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { PageReading, PageRequest, PaginationSettings } from './pageShape';
import { itemKey, PageShapeError, readPage } from './pageShape';
import type { ApiResponse, SupportChatClient, SupportChatContext } from './request';

export interface ListRequest {
	path: string;
	qs?: IDataObject;
	/** Max records to return; undefined = all. */
	limit?: number;
	resourceLabel?: string;
}

export interface ListResult {
	items: unknown[];
	pages: number;
	detected: PageReading['detected'] | 'empty';
}

function requestKey(request: PageRequest): string {
	const qs = Object.keys(request.qs)
		.sort()
		.map((k) => `${k}=${JSON.stringify(request.qs[k])}`)
		.join('&');
	return `${request.url ?? request.path}?${qs}`;
}

/** A cheap fingerprint of a page: enough to tell the same page served twice. */
function pageFingerprint(items: unknown[]): string {
	const edge = (item: unknown) => itemKey(item) ?? JSON.stringify(item)?.slice(0, 200);
	return `${items.length}|${edge(items[0])}|${edge(items[items.length - 1])}`;
}

/**
 * One page: the request, then what ./pageShape reads in the answer. Throws PageShapeError when the
 * answer cannot be read as a page. `relativeTo` resolves a relative next-page link.
 */
export async function fetchPage(
	client: SupportChatClient,
	page: PageRequest,
	settings: PaginationSettings,
	resourceLabel?: string,
	relativeTo?: string,
): Promise<{ response: ApiResponse; reading: PageReading }> {
	const response = await client.request({
		method: 'GET',
		path: page.path,
		url: page.url === undefined ? undefined : client.resolveUrl({ url: page.url }, relativeTo),
		qs: page.qs,
		resourceLabel,
	});
	return { response, reading: readPage(response.body, response.headers, page, settings) };
}

/**
 * The one pagination loop behind every list. It asks ./pageShape what each page says, and stops:
 * - when Limit records are collected (exactly: the last page is cut);
 * - when the service says there is no more (no link, no cursor, has_more false, last page reached);
 * - on an empty page, or, when it is only guessing page numbers, on a short page or a page it has
 *   already seen (a service that ignores the page parameter serves page 1 again).
 * It fails, rather than return fewer records than exist, when the service says there is more but
 * serves a page or a pointer already seen, and when Max Pages is reached with more to come.
 */
export async function paginate(
	ctx: SupportChatContext,
	client: SupportChatClient,
	list: ListRequest,
	settings: PaginationSettings,
	itemIndex: number,
): Promise<ListResult> {
	const collected: unknown[] = [];
	const seenItems = new Set<string>();
	const seenPages = new Set<string>();
	const seenRequests = new Set<string>();
	const wanted = list.limit ?? Number.POSITIVE_INFINITY;
	let firstPageSize: number | undefined;
	let pages = 0;
	let detected: ListResult['detected'] = 'empty';

	const fail = (message: string, description: string) =>
		new NodeApiError(ctx.getNode(), { pages, records: collected.length }, { message, description, itemIndex });

	const firstQs: IDataObject = { ...(list.qs ?? {}) };
	if (settings.pageSize > 0) firstQs[settings.limitParam] = settings.pageSize;
	if (settings.style === 'page' && settings.firstPage !== 1) firstQs[settings.pageParam] = settings.firstPage;

	let request: PageRequest | undefined = { path: list.path, qs: firstQs };
	let previousUrl: string | undefined;

	const fetch = async (page: PageRequest) => {
		try {
			return await fetchPage(client, page, settings, list.resourceLabel, previousUrl);
		} catch (error) {
			if (error instanceof PageShapeError) {
				throw fail(
					`Could not read page ${pages + 1} of ${list.path}: ${error.message}`,
					'See README › Pagination for the shapes recognised and how to set them.',
				);
			}
			// The client's errors are NodeApiErrors already; re-wrapping hands them back unchanged.
			throw new NodeApiError(ctx.getNode(), error as JsonObject);
		}
	};

	/** Takes a page's records; returns whether the loop should go on. */
	const accept = (reading: PageReading, current: PageRequest, hasNext = reading.next !== undefined): boolean => {
		pages++;
		detected = reading.detected;
		const { items } = reading;
		if (items.length === 0) return false;

		const fingerprint = pageFingerprint(items);
		let fresh = 0;
		for (const item of items) {
			const key = itemKey(item);
			if (key !== undefined) {
				if (seenItems.has(key)) continue;
				seenItems.add(key);
			}
			fresh++;
			if (collected.length < wanted) collected.push(item);
		}
		const repeated = seenPages.has(fingerprint) || fresh === 0;
		seenPages.add(fingerprint);
		if (repeated) {
			if (reading.explicit && hasNext) {
				throw fail(
					`The service served the same page of ${list.path} again after ${collected.length} records while saying there are more; stopped to avoid an endless loop`,
					`Request that repeated: ${requestKey(current)}. The service may ignore the paging parameter the node sends: set Options > Pagination > Style and its parameter names to what your service expects.`,
				);
			}
			if (reading.total !== undefined && collected.length < reading.total && collected.length < wanted) {
				throw fail(
					`The service reports ${reading.total} records in ${list.path} but only ${collected.length} could be fetched: it served the same page again`,
					'Set Options > Pagination > Style and the parameter names your service expects.',
				);
			}
			return false;
		}
		if (collected.length >= wanted) return false;
		if (!hasNext) return false;
		if (!reading.explicit) {
			const size = reading.pageSize ?? firstPageSize;
			if (size !== undefined && items.length < size) return false;
		}
		firstPageSize ??= items.length;
		return true;
	};

	const checkBudget = (more: number) => {
		if (pages + more > settings.maxPages) {
			throw fail(
				`Stopped after ${pages} pages (${collected.length} records) of ${list.path}: the service still reports more pages and Max Pages is ${settings.maxPages}`,
				'Raise Options > Pagination > Max Pages if the list really is that long, or turn off Return All and set a Limit. If the count keeps growing, the pagination settings may not match the service.',
			);
		}
	};

	while (request) {
		const key = requestKey(request);
		if (seenRequests.has(key)) {
			throw fail(
				`The service pointed back to a page of ${list.path} it had already served, after ${collected.length} records; stopped to avoid an endless loop`,
				`Repeated request: ${key}. Set Options > Pagination > Style to match your service.`,
			);
		}
		seenRequests.add(key);
		checkBudget(1);
		const current: PageRequest = request;
		const { response, reading } = await fetch(current);
		previousUrl = response.url;
		if (!accept(reading, current)) break;

		if (reading.plan && settings.concurrency > 1) {
			await fetchPlanned(reading, current);
			break;
		}
		request = reading.next;
	}

	/**
	 * When the page tells how many pages there are, the remaining requests are known in advance and
	 * can go out a few at a time (the rate limiter still spaces them). Only as many as Limit needs.
	 */
	async function fetchPlanned(first: PageReading, template: PageRequest): Promise<void> {
		const plan = first.plan!;
		const perPage = first.pageSize ?? first.items.length;
		const needed = Number.isFinite(wanted) ? Math.ceil((wanted - collected.length) / Math.max(perPage, 1)) : plan.values.length;
		const values = plan.values.slice(0, needed);
		checkBudget(values.length);
		// A sliding window: up to `concurrency` requests in flight, their pages taken in order. Each
		// outcome is held as a value, so a request abandoned by an early stop cannot reject unobserved.
		const requests = values.map((value) => ({
			path: template.path,
			url: template.url,
			qs: { ...template.qs, [plan.param]: value },
		}));
		const inFlight: Array<Promise<{ result?: Awaited<ReturnType<typeof fetch>>; error?: unknown }>> = [];
		const launch = (index: number) => {
			if (index >= requests.length) return;
			seenRequests.add(requestKey(requests[index]));
			inFlight.push(fetch(requests[index]).then((result) => ({ result }), (error: unknown) => ({ error })));
		};
		for (let index = 0; index < settings.concurrency; index++) launch(index);
		for (let index = 0; index < requests.length; index++) {
			const outcome = await inFlight.shift()!;
			if (outcome.error !== undefined) throw outcome.error;
			if (!accept(outcome.result!.reading, requests[index], index < requests.length - 1)) return;
			launch(index + settings.concurrency);
		}
	}

	return { items: collected, pages, detected };
}
