import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { clientSettings, paginationSettings } from '../transport/readOptions';
import { DOWNLOAD_ATTACHMENTS_PATH, engineV2FilesRefusal } from '../files/downloadOptions';
import { withPollFiles } from '../files/runs';
import { EVENT_CLAIMS } from '../shared/claims';
import { isPolledEvent } from '../shared/eventFacts';
import { eventItem } from '../shared/eventKey';
import { connect } from '../apis';
import type { RequestGate, SupportChatClient } from '../transport/request';
import { DEFAULT_MAX_REQUESTS } from './description';
import type { Found, PolledEvent, PollSettings, Marks } from '../apis/types';
import { nodeCollection } from '../shared/parameters';
import { isRecord } from '../shared/json';

/**
 * The poll's memory in the node's static data: where each stream stands. n8n 2.41 saves a poller's
 * static data after the poll that runs when the workflow is published and after each poll that emits;
 * not after a poll that emits nothing or fails, and never after Fetch Test Event. After a restart a poll
 * therefore reads again from the last save; the marks hold what each stream needs to emit nothing twice
 * (the keys at the mark itself), so what is read again is dropped, and what it did not emit then (own
 * messages, the product's notes) is dropped again by the same rules.
 */

/** Changed when the shape of what is kept changes. */
const VERSION = 2;

interface PollState {
	/** Which API the marks belong to: marks of another are meaningless. */
	api: string;
	/** The events the marks were taken for: one added later is baselined first, never read from history. */
	events: readonly PolledEvent[];
	marks: Marks;
}

/**
 * Version 1 kept the keys of the last events emitted beside the marks: they become the keys at each
 * REST mark, and Support Board's marks carry over as they are. It did not say which events its marks
 * were taken for: those with a mark count, and any other is baselined afresh.
 */
function fromVersion1(kept: IDataObject & { marks: IDataObject }, api: string): PollState {
	const recent = Array.isArray(kept.recent)
		? kept.recent.filter((key): key is string => typeof key === 'string')
		: [];
	const marks: Marks = { ...kept.marks };
	const events: PolledEvent[] = [];
	for (const [event, mark] of Object.entries(marks)) {
		if (!isRecord(mark) || typeof mark.field !== 'string' || !isPolledEvent(event)) continue;
		marks[event] = { ...mark, tie: recent.filter((key) => key.startsWith(`${event}:`)) };
		events.push(event);
	}
	if (Number(marks.userId) > 0) events.push('userCreated');
	if (Number(marks.messageId) > 0)
		events.push('conversationCreated', 'messageCreated', 'conversationClosed');
	return { api, events, marks };
}

export function readState(staticData: IDataObject, api: string): PollState | undefined {
	const kept = staticData.supportChatPoll;
	if (!isRecord(kept) || kept.api !== api || !isRecord(kept.marks)) return undefined;
	if (kept.version === 1) return fromVersion1(kept as IDataObject & { marks: IDataObject }, api);
	if (kept.version !== VERSION) return undefined;
	const events = Array.isArray(kept.events) ? kept.events.filter(isPolledEvent) : [];
	return { api, events, marks: kept.marks as Marks };
}

export function writeState(staticData: IDataObject, state: PollState): void {
	staticData.supportChatPoll = {
		version: VERSION,
		api: state.api,
		events: [...state.events],
		marks: state.marks as IDataObject,
	};
}

/** Within one instant, the order things happen in: a user, then a conversation, its messages, its closing. */
const RANK: Readonly<Record<Found['event'], number>> = {
	userCreated: 0,
	conversationCreated: 1,
	messageCreated: 2,
	conversationClosed: 3,
};

/** Numbers by value (negative and fractional ones too), text by its characters. */
function compareAt(a: number | string, b: number | string): number {
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	const [x, y] = [String(a), String(b)];
	return x < y ? -1 : x > y ? 1 : 0;
}

/** The events of one poll oldest first, each key once. */
export function inOrder(found: Found[]): Found[] {
	const seen = new Set<string>();
	const ordered = [...found].sort(
		(a, b) => compareAt(a.at, b.at) || RANK[a.event] - RANK[b.event] || a.seq - b.seq,
	);
	return ordered.filter((event) => {
		if (seen.has(event.key)) return false;
		seen.add(event.key);
		return true;
	});
}

/** Without a budget from the host (n8n 1.x), a poll still stops asking after this long. */
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;
/** Of the host's budget, the share spent asking: the rest is for building and handing over the items. */
const BUDGET_SHARE = 0.8;

function readEvents(ctx: IPollFunctions): PolledEvent[] {
	const chosen: unknown = ctx.getNodeParameter('events', []);
	const events = (Array.isArray(chosen) ? chosen : []).filter(isPolledEvent);
	if (events.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'No event to look for', {
			description: 'Choose at least one under Events.',
		});
	}
	return events;
}

function readSettings(ctx: IPollFunctions, options: IDataObject): PollSettings {
	const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
	const max = options.maxRequests;
	// n8n 1.x gives a poller no budget; 2.x does, and abandons a poll that outlasts it.
	const budget =
		typeof ctx.getPollBudgetMs === 'function'
			? ctx.getPollBudgetMs() * BUDGET_SHARE
			: DEFAULT_POLL_BUDGET_MS;
	return {
		events: readEvents(ctx),
		maxRequests:
			typeof max === 'number' && Number.isFinite(max)
				? Math.max(1, Math.floor(max))
				: DEFAULT_MAX_REQUESTS,
		sinceParam: text(options.sinceParam),
		watermarkField: text(options.watermarkField),
		deadline: Date.now() + budget,
	};
}

/**
 * What one poll may spend: Max Requests per Poll, and the time until its deadline (n8n's poll budget
 * where the host has one). The client asks before every request it sends, each page and each retry
 * included, so a slow service overruns the deadline by one request at most, not by a whole list. A poll
 * over either fails whole, so no mark moves past what it did not read, and n8n shows the error and polls
 * again at the next poll time.
 */
function pollBudget(ctx: Pick<IPollFunctions, 'getNode'>, settings: PollSettings): RequestGate {
	let spent = 0;
	return (where) => {
		if (spent >= settings.maxRequests) {
			throw new NodeOperationError(
				ctx.getNode(),
				`This poll needs more than ${settings.maxRequests} requests (${where}); nothing was emitted and the poll stands where it stood`,
				{
					description:
						'Raise Max Requests per Poll under Options, or poll more often so that less happens between two polls.',
				},
			);
		}
		if (Date.now() >= settings.deadline) {
			throw new NodeOperationError(
				ctx.getNode(),
				`This poll ran out of time after ${spent} requests (${where}); nothing was emitted and the poll stands where it stood`,
				{
					description:
						'n8n gives each poll a limited time, and the service answered too slowly to read everything in it. Poll more often so that less happens between two polls.',
				},
			);
		}
		spent++;
	};
}

function toItem(event: Found, receivedAt: string): INodeExecutionData {
	return eventItem({
		event: event.event,
		eventName: null,
		eventSource: event.source,
		eventKey: event.key,
		conversationId: event.conversationId,
		userId: event.userId,
		messageId: event.messageId,
		deliveryId: null,
		receivedAt,
		data: event.data,
		body: null,
	});
}

/**
 * The items of the events found, with their messages' files when Options → Download Attachments is on:
 * the poll's events share one budget of files, bytes and time, whose time ends by the poll's deadline.
 */
async function emit(
	ctx: IPollFunctions,
	client: SupportChatClient,
	options: IDataObject,
	events: Found[],
	{ now, deadline }: { now: string; deadline: number },
): Promise<INodeExecutionData[][] | null> {
	if (events.length === 0) return null;
	const items = events.map((event) => toItem(event, now));
	// Download Attachments is read first: with it off, none of files/ runs.
	if (ctx.getNodeParameter(DOWNLOAD_ATTACHMENTS_PATH, false) !== true) return [items];
	return [await withPollFiles(ctx, client, options, items, deadline)];
}

/**
 * One poll. Fetch Test Event (manual mode) reads the newest events and changes nothing. In production the
 * first poll records where things stand (and so does the first after an event is added to Events); each
 * later one emits what happened since, oldest first, each event once: an event the workflow's webhook
 * trigger already ran in this process is left out (`EVENT_CLAIMS`). The state is written only after
 * everything was read: a poll that fails moves nothing, and n8n shows the error and polls again.
 */
export async function poll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const options = nodeCollection(ctx, 'options');
	// Before any request: at publishing, n8n's first poll then fails the publication with it.
	const refusal = options.downloadAttachments === true ? engineV2FilesRefusal(ctx) : undefined;
	if (refusal) throw refusal;
	const settings = readSettings(ctx, options);
	// From its first poll on, even one that fails: the webhook trigger may leave these events to it.
	if (ctx.getMode() !== 'manual') EVENT_CLAIMS.polls(ctx.getWorkflow().id ?? '', settings.events);
	const pagination = () => paginationSettings(ctx, options, 0);
	const client = await connect(ctx, 0, {
		settings: clientSettings(options),
		gate: pollBudget(ctx, settings),
		pagination,
	});
	// The credentials' API, looked up once by connect, brings its own finder.
	const finder = client.api.finder(options);
	const now = new Date().toISOString();

	// Downloads take from the time n8n gives the poll, like the requests before them.
	const found = (events: Found[]) =>
		emit(ctx, client, options, events, { now, deadline: settings.deadline });
	if (ctx.getMode() === 'manual')
		return await found(inOrder(await finder.newest(client, settings)));

	const staticData = ctx.getWorkflowStaticData('node');
	const api = client.api.title;
	const state = readState(staticData, api);
	const { events } = settings;
	if (state === undefined) {
		writeState(staticData, { api, events, marks: (await finder.baseline(client, settings)).marks });
		return null;
	}
	const added = events.filter((event) => !state.events.includes(event));
	const marks =
		added.length === 0
			? state.marks
			: (await finder.baseline(client, { ...settings, events: added }, state)).marks;
	const { found: since, marks: next } = await finder.since(client, settings, marks);
	const workflowId = ctx.getWorkflow().id ?? '';
	const claimedAt = Date.now();
	const fresh = inOrder(since).filter(
		(event) => EVENT_CLAIMS.claim(workflowId, event.key, 'poll', claimedAt) !== 'taken',
	);
	writeState(staticData, { api, events, marks: next });
	return await found(fresh);
}
