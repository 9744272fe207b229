import type { IDataObject } from 'n8n-workflow';

import { asText, fieldOf, getPath, isDataObject } from '../../shared/json';
import { eventKey } from '../../shared/eventKey';
import { CLOSED_AT_KEYS, CLOSED_STATES, CREATED_AT_KEYS, STATUS_KEYS } from '../../shared/vocabulary/times';
import type { ListName } from '../../transport/calls';
import { paginate } from '../../transport/pagination';
import type { PaginationSettings } from '../../transport/pageShape';
import type { SupportChatClient, SupportChatContext } from '../../transport/request';
import { Budget } from '../budget';
import type { EventFinder, Found, Marks, PolledEvent, PollSettings } from '../types';

/**
 * The REST API of the description documents no `since` filter, no order and no message list (§4): a
 * poll reads the users and conversations lists whole (within Pagination Max Pages) and keeps, per stream,
 * the highest value of a field that grows with each new record: a creation time, else an id that is a
 * number. A conversation is closed when its status says so, and its closing time (or last change) tells
 * two closings apart. Since Parameter sends the watermark to a service that can filter by it.
 */

interface Stream {
	event: PolledEvent;
	list: ListName;
	/** The record counts for this stream. */
	keep(record: IDataObject): boolean;
	/** Where the value that grows is looked for, when Watermark Field is empty. */
	fields: readonly string[];
}

const isClosed = (record: IDataObject) =>
	STATUS_KEYS.some((key) => {
		const value = fieldOf(record, key);
		return typeof value === 'string' && CLOSED_STATES.has(value.toLowerCase());
	});

const STREAMS: readonly Stream[] = [
	{ event: 'userCreated', list: 'users', keep: () => true, fields: CREATED_AT_KEYS },
	{ event: 'conversationCreated', list: 'conversations', keep: () => true, fields: CREATED_AT_KEYS },
	{ event: 'conversationClosed', list: 'conversations', keep: isClosed, fields: CLOSED_AT_KEYS },
];

/** A stream's mark: the field read, its highest value (a number: ms for a time), and that value as sent. */
interface Mark {
	field: string;
	value: number;
	raw: string;
}

/** A mark as kept in static data; anything else is no mark. */
function markIn(marks: Marks, event: PolledEvent): Mark | undefined {
	const kept = marks[event];
	if (!isDataObject(kept)) return undefined;
	const { field, value, raw } = kept;
	return typeof field === 'string' && typeof value === 'number' && typeof raw === 'string' ? { field, value, raw } : undefined;
}

/** A time or a number; a text of digits is a number, other text a time (Date.parse). */
function ordinal(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string' || value.trim() === '' || value.length > 64) return undefined;
	const text = value.trim();
	const n = /^\d{1,15}$/.test(text) ? Number(text) : Date.parse(text);
	return Number.isFinite(n) ? n : undefined;
}

function watermarkField(records: IDataObject[], stream: Stream, settings: PollSettings): string | undefined {
	const candidates = settings.watermarkField !== '' ? [settings.watermarkField] : [...stream.fields, 'id'];
	return candidates.find((field) => records.length > 0 && records.every((record) => ordinal(getPath(record, field)) !== undefined));
}

function markOf(records: IDataObject[], field: string): Mark | undefined {
	let best: Mark | undefined;
	for (const record of records) {
		const raw = getPath(record, field);
		const value = ordinal(raw);
		if (value !== undefined && (best === undefined || value > best.value)) best = { field, value, raw: String(raw) };
	}
	return best;
}

function found(stream: Stream, record: IDataObject, field: string, seq: number): Found | undefined {
	const id = asText(fieldOf(record, 'id'));
	const value = ordinal(getPath(record, field));
	if (id === undefined || value === undefined) return undefined;
	const conversation = stream.list === 'conversations';
	const conversationId = conversation ? id : null;
	const userId = conversation ? (asText(fieldOf(record, 'user_id')) ?? null) : id;
	const change = stream.event === 'conversationClosed' ? String(getPath(record, field)) : undefined;
	return {
		event: stream.event,
		key: eventKey({ event: stream.event, conversationId, userId, change }) as string,
		// A number that is no time (an id) still orders within its stream.
		at: value,
		seq,
		conversationId,
		userId,
		messageId: null,
		source: `poll GET /${stream.list}`,
		data: record,
	};
}

/** The records at or after each stream's mark (all of them without one), and the marks they lead to. */
function collect(streams: readonly Stream[], lists: Map<ListName, IDataObject[]>, marks: Marks, settings: PollSettings, fail: (stream: Stream) => Error) {
	const events: Found[] = [];
	const next: Marks = { ...marks };
	for (const stream of streams) {
		const records = (lists.get(stream.list) ?? []).filter(stream.keep);
		if (records.length === 0) continue;
		const mark = markIn(marks, stream.event);
		const field = mark?.field ?? watermarkField(records, stream, settings);
		if (field === undefined) throw fail(stream);
		records.forEach((record, index) => {
			const value = ordinal(getPath(record, field));
			// At the mark itself too: a record written in the same second as the last one read; the recent
			// keys drop the ones already out.
			if (value === undefined || (mark !== undefined && value < mark.value)) return;
			const event = found(stream, record, field, index);
			if (event) events.push(event);
		});
		const newest = markOf(records, field);
		if (newest && (mark === undefined || newest.value > mark.value)) next[stream.event] = newest;
	}
	return { found: events, marks: next };
}

function streamsFor(client: SupportChatClient, settings: PollSettings): Stream[] {
	if (settings.events.includes('messageCreated')) {
		throw client.refuse(
			'New Message cannot be found by polling the REST API: it has no list of messages',
			'Take New Message out of Events here and use the Support Chat Trigger (webhooks) for it, or choose Support Board Web API in the credentials if your service is Support Board.',
		);
	}
	return STREAMS.filter((stream) => settings.events.includes(stream.event));
}

const undetectable = (client: SupportChatClient) => (stream: Stream) =>
	client.refuse(
		`The ${stream.list} records carry no field that grows with each new one (${stream.fields.join(', ')}, or a numeric id), so new ones cannot be told from old ones`,
		'Set Watermark Field under Options to a field of the records that grows with each new one (a creation time or an increasing number).',
	);

/** The lowest mark of the streams reading a list; none when one of them has none (it reads the list whole). */
function lowestMark(list: ListName, streams: readonly Stream[], marks: Marks): Mark | undefined {
	let lowest: Mark | undefined;
	for (const stream of streams.filter((s) => s.list === list)) {
		const mark = markIn(marks, stream.event);
		if (mark === undefined) return undefined;
		if (lowest === undefined || mark.value < lowest.value) lowest = mark;
	}
	return lowest;
}

interface Reading {
	ctx: SupportChatContext;
	client: SupportChatClient;
	pagination: PaginationSettings;
	settings: PollSettings;
}

/** Each list a stream needs, read once a poll, with Since Parameter when every stream reading it has a mark. */
async function readLists({ ctx, client, pagination, settings }: Reading, streams: readonly Stream[], marks: Marks) {
	const budget = new Budget(client, settings);
	const lists = new Map<ListName, IDataObject[]>();
	for (const list of new Set(streams.map((stream) => stream.list))) {
		const lowest = lowestMark(list, streams, marks);
		const query = settings.sinceParam !== '' && lowest !== undefined ? { [settings.sinceParam]: lowest.raw } : {};
		budget.spend(`GET /${list}`);
		const { items } = await paginate(ctx, client, { list, query }, pagination, 0);
		lists.set(list, items.filter(isDataObject));
	}
	return lists;
}

export function restFinder(ctx: SupportChatContext, pagination: PaginationSettings): EventFinder {
	return {
		async baseline(client, settings) {
			const streams = streamsFor(client, settings);
			const lists = await readLists({ ctx, client, pagination, settings }, streams, {});
			// Every record read stands before the marks: the first poll emits none of them.
			const { marks } = collect(streams, lists, {}, settings, undetectable(client));
			return { found: collect(streams, lists, marks, settings, undetectable(client)).found, marks };
		},

		async since(client, settings, marks) {
			const streams = streamsFor(client, settings);
			const lists = await readLists({ ctx, client, pagination, settings }, streams, marks);
			return collect(streams, lists, marks, settings, undetectable(client));
		},

		async newest(client, settings) {
			const streams = streamsFor(client, settings);
			const lists = await readLists({ ctx, client, pagination, settings }, streams, {});
			const { marks } = collect(streams, lists, {}, settings, undetectable(client));
			// The records at each stream's newest value.
			return collect(streams, lists, marks, settings, undetectable(client)).found;
		},
	};
}
