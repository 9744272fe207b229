import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isJsonObject } from '../../shared/json';
import type { ListCall } from '../calls';
import type { Wire, WirePort } from '../wire';
import type { Collected, Failure } from './collector';
import { Collector } from './collector';
import type { Fetched } from './concurrent';
import { fetchPlanned, readAhead } from './concurrent';
import type { Detected, PageReading } from './reading';
import { PageShapeError } from './reading';
import { readPage } from './readPage';
import type { PageRequest, PaginationSettings } from './styles';

/** What the list loop needs of any n8n context (an execution, a list lookup, a poll): the node, for its errors. */
export type SupportChatContext = Pick<
	IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions,
	'getNode'
>;

/** What the loop needs of the client: a port to send pages through, and the wire that shapes them. */
type Pager = WirePort & { readonly wire: Wire };

export type ListResult = Collected;

/**
 * One page: the request, then what ./readPage reads in the answer. Throws PageShapeError when the
 * answer cannot be read as a page; its message quotes the answer, so callers mask it before showing
 * it. `relativeTo` resolves a relative next-page link.
 *
 * `guessedAs`: the page was only guessed at, read as that style (nothing on the page before it said
 * more may follow, or it is read ahead). Where the API may answer a page past the end with a 404 in
 * JSON (Django REST Framework's "Invalid page."), that answer is a page marked absent, with no
 * records; the collector takes it as the end, or fails when the page before it promised more.
 */
export async function fetchPage(
	client: Pager,
	page: PageRequest,
	settings: PaginationSettings,
	relativeTo?: string,
	guessedAs?: Detected,
): Promise<Fetched> {
	const spec = client.wire.pageSpec(client, page, relativeTo);
	const mayBeAbsent = guessedAs !== undefined && client.wire.pastTheEndMayBe404;
	const response = await client.request(mayBeAbsent ? { ...spec, absentIsAnswer: true } : spec);
	if (mayBeAbsent && response.status === 404) {
		const reading: PageReading = {
			items: [],
			itemsAt: '',
			bodyless: false,
			detected: guessedAs,
			explicit: false,
			absent: true,
		};
		return { response, reading };
	}
	return { response, reading: readPage(response.body, response.headers, page, settings) };
}

/** How messages name a list: its path, or the function that reads it. */
function listLabel(first: PageRequest): string {
	return first.path ?? String(first.qs.function ?? first.url ?? 'the list');
}

/** The list's collector; every message it builds goes through the mask (a service may echo the token as a cursor or in a link). */
function collectorFor(
	ctx: SupportChatContext,
	client: Pager,
	label: string,
	settings: PaginationSettings,
	limit: number | undefined,
	itemIndex: number,
): Collector {
	const failure: Failure = (message, description, context) =>
		new NodeApiError(ctx.getNode(), context, {
			message: client.mask.quote(message, 1000),
			description: client.mask.quote(description, 1000),
			itemIndex,
		});
	return new Collector(label, settings, limit ?? Number.POSITIVE_INFINITY, failure, (text, max) =>
		client.mask.quote(text, max),
	);
}

/** fetchPage for one list, its failures explained by the list's collector. */
function fetcherFor(
	ctx: SupportChatContext,
	client: Pager,
	settings: PaginationSettings,
	collector: Collector,
): (page: PageRequest, relativeTo: string | undefined, guessedAs?: Detected) => Promise<Fetched> {
	return async (page, relativeTo, guessedAs) => {
		try {
			return await fetchPage(client, page, settings, relativeTo, guessedAs);
		} catch (error) {
			if (error instanceof PageShapeError) throw collector.unreadable(error.message);
			// Stopped before a request was sent (the poll trigger's budget): already explained, handed back as it is.
			if (error instanceof NodeOperationError) throw new NodeOperationError(ctx.getNode(), error);
			// The client's errors are NodeApiErrors already; re-wrapping hands them back unchanged.
			throw isJsonObject(error) ? new NodeApiError(ctx.getNode(), error) : error;
		}
	};
}

/**
 * The one pagination loop behind every list. ./readPage says what each page holds and where the next
 * one is; the Collector decides whether to go on (Limit, repeats, totals, Max Pages). With Pagination
 * Concurrency above 1, pages go out a few at a time (./concurrent) when a page tells how many follow,
 * or, page numbers coming with a known page size and no count, after a full page.
 */
export async function paginate(
	ctx: SupportChatContext,
	client: Pager,
	list: ListCall,
	options: PaginationSettings,
	itemIndex: number,
): Promise<ListResult> {
	// The user's pagination options, with what the credentials' API fixes put over them.
	const settings = client.wire.pagination(options);
	const first = client.wire.firstPage(client, list.list, list.query, settings);
	const collector = collectorFor(ctx, client, listLabel(first), settings, list.limit, itemIndex);
	const fetch = fetcherFor(ctx, client, settings, collector);
	let previousUrl: string | undefined;
	let request: PageRequest | undefined = first;
	// How the page that led to `request` was read, when it only guessed that more may follow.
	let guessedAs: Detected | undefined;
	while (request) {
		collector.admit(request);
		const { response, reading }: Fetched = await fetch(request, previousUrl, guessedAs);
		if (!collector.accept(reading, request)) break;
		if (settings.concurrency > 1 && reading.ahead) {
			// Pages read ahead are guesses: no count says they exist.
			await readAhead(collector, settings.concurrency, reading.ahead, (page) =>
				fetch(page, response.url, reading.detected),
			);
			break;
		}
		if (reading.plan) {
			const count = collector.planned(reading.plan, reading.pageSize ?? reading.items.length);
			if (settings.concurrency > 1) {
				await fetchPlanned(collector, settings.concurrency, reading.plan, count, (page) =>
					fetch(page, response.url),
				);
				break;
			}
		}
		previousUrl = response.url;
		request = reading.next;
		guessedAs = reading.guess ? reading.detected : undefined;
	}
	return collector.finish();
}
