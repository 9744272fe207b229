import type { IDataObject } from 'n8n-workflow';

import type {
	EventFinder,
	FinderClient,
	Found,
	KeptMarks,
	Marks,
	PollSettings,
	PolledEvent,
} from '../types';
import { isDataObject, asText, fieldOf, getPath } from '../../shared/json';
import type { ListName } from '../../transport/calls';
import { eventKey } from '../../shared/eventKey';
import { QUOTE_LENGTH } from '../../shared/text';
import {
	CLOSED_AT_KEYS,
	CLOSED_STATES,
	CREATED_AT_KEYS,
	STATUS_KEYS,
} from '../../shared/vocabulary/times';

/**
 * The REST poll's streams (new users, new conversations, closings) and how one stream's records are
 * read against its mark: the highest value of its field, and the keys of the records at that value.
 */

export interface Stream {
	event: PolledEvent;
	list: ListName;
	/** The record counts for this stream. */
	keep(record: IDataObject): boolean;
	/** Where the value that grows is looked for, when no field is set for it. */
	fields: readonly string[];
	/** Whether Watermark Field (and so Since Parameter) applies: creation streams only. */
	byCreation: boolean;
}

const isClosed = (record: IDataObject) =>
	STATUS_KEYS.some((key) => {
		const value = fieldOf(record, key);
		return typeof value === 'string' && CLOSED_STATES.has(value.toLowerCase());
	});

const STREAMS: readonly Stream[] = [
	{
		event: 'userCreated',
		list: 'users',
		keep: () => true,
		fields: [...CREATED_AT_KEYS, 'id'],
		byCreation: true,
	},
	{
		event: 'conversationCreated',
		list: 'conversations',
		keep: () => true,
		fields: [...CREATED_AT_KEYS, 'id'],
		byCreation: true,
	},
	{
		event: 'conversationClosed',
		list: 'conversations',
		keep: isClosed,
		fields: CLOSED_AT_KEYS,
		byCreation: false,
	},
];

/** A stream's mark: the field read, its highest value (a number: ms for a time), that value as sent, and the keys at it. */
export interface Mark {
	field: string;
	value: number;
	raw: string;
	tie: string[];
}

/** A mark as kept in static data; anything else is no mark. */
function markIn(marks: Marks, event: PolledEvent): Mark | undefined {
	const kept = marks[event];
	if (!isDataObject(kept)) return undefined;
	const { field, value, raw, tie } = kept;
	if (typeof field !== 'string' || typeof value !== 'number' || typeof raw !== 'string')
		return undefined;
	return {
		field,
		value,
		raw,
		tie: Array.isArray(tie) ? tie.filter((key): key is string => typeof key === 'string') : [],
	};
}

/** A time or a number; a text of digits is a number, other text a time (Date.parse). */
function ordinal(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string' || value.trim() === '' || value.length > 64) return undefined;
	const text = value.trim();
	const n = /^\d{1,15}$/.test(text) ? Number(text) : Date.parse(text);
	return Number.isFinite(n) ? n : undefined;
}

/** A record's id as a message quotes it: masked, then cut (a service may send anything there). */
const recordId = (client: FinderClient, record: IDataObject) =>
	client.mask.quote(asText(fieldOf(record, 'id')) ?? '(no id)', ID_QUOTE_LENGTH);
const ID_QUOTE_LENGTH = 80;

/** The field a stream orders by: the kept mark's, Watermark Field for new records, else the first every record has. */
function fieldFor(
	client: FinderClient,
	stream: Stream,
	records: IDataObject[],
	mark: Mark | undefined,
	settings: PollSettings,
): string {
	const chosen = stream.byCreation ? settings.watermarkField : '';
	if (mark !== undefined && (chosen === '' || chosen === mark.field)) return mark.field;
	if (chosen !== '') {
		if (records.some((record) => ordinal(getPath(record, chosen)) !== undefined)) return chosen;
		const [first] = records;
		throw client.refuse(
			`No ${stream.list} record has a value in "${chosen}", the Watermark Field (record ${recordId(client, first)} has ${client.mask.quote(Object.keys(first).slice(0, 12).join(', '), QUOTE_LENGTH)})`,
			'Set Watermark Field under Options to a field of these records that grows with each new one (a creation time or an increasing number), or leave it empty to let the node look for one.',
		);
	}
	const found = stream.fields.find((field) =>
		records.every((record) => ordinal(getPath(record, field)) !== undefined),
	);
	if (found !== undefined) return found;
	const lacking =
		records.find((record) =>
			stream.fields.every((field) => ordinal(getPath(record, field)) === undefined),
		) ?? records[0];
	throw client.refuse(
		`The ${stream.event === 'conversationClosed' ? 'closed conversations' : `${stream.list} records`} do not all carry one of ${stream.fields.join(', ')} (record ${recordId(client, lacking)} has none), so new ones cannot be told from old ones`,
		stream.byCreation
			? 'Set Watermark Field under Options to a field every record carries that grows with each new one (a creation time or an increasing number).'
			: 'Conversation Closed goes by when a conversation was closed: the service must send a closing time (closed_at or the like) or a last change time (updated_at) with each closed conversation.',
	);
}

function found(
	stream: Stream,
	record: IDataObject,
	field: string,
	value: number,
	seq: number,
): Found | undefined {
	const id = asText(fieldOf(record, 'id'));
	if (id === undefined) return undefined;
	const conversation = stream.list === 'conversations';
	const conversationId = conversation ? id : null;
	const userId = conversation ? (asText(fieldOf(record, 'user_id')) ?? null) : id;
	const change = stream.event === 'conversationClosed' ? String(getPath(record, field)) : undefined;
	const key = eventKey({ event: stream.event, conversationId, userId, change });
	if (key === null) return undefined;
	// A number that is no time (an id) still orders within its stream.
	return {
		event: stream.event,
		key,
		at: value,
		seq,
		conversationId,
		userId,
		messageId: null,
		source: `poll GET /${stream.list}`,
		data: record,
	};
}

/** One stream's events above its mark (or at it and not kept), and the mark they lead to. */
function collectStream(
	client: FinderClient,
	stream: Stream,
	records: IDataObject[],
	mark: Mark | undefined,
	settings: PollSettings,
) {
	const field = fieldFor(client, stream, records, mark, settings);
	// Watermark Field changed: values of two fields do not compare, so this stream starts afresh.
	const rebase = mark !== undefined && mark.field !== field;
	const since = rebase ? undefined : mark;
	const tie = new Set(since?.tie);
	const events: Found[] = [];
	// The highest value read and the keys at it, as a Set: a burst of any size costs once per record.
	let top = since && { value: since.value, raw: since.raw, keys: new Set(since.tie) };
	records.forEach((record, index) => {
		const value = ordinal(getPath(record, field));
		if (value === undefined) {
			throw client.refuse(
				`The ${stream.list} record ${recordId(client, record)} has no value in "${field}", the field this poll tells new ${stream.list} from old by; it is not skipped silently`,
				stream.byCreation
					? 'Set Watermark Field under Options to a field every record carries that grows with each new one (a creation time or an increasing number).'
					: 'Conversation Closed goes by when a conversation was closed: the service must send that time with every closed conversation.',
			);
		}
		const event = found(stream, record, field, value, index);
		if (event === undefined) {
			throw client.refuse(
				`A ${stream.list} record (number ${index + 1} in the list) has no id, so its event cannot be told from others; it is not skipped silently`,
				'The service must send an id with every record: check that the Base URL points at its API.',
			);
		}
		if (
			!rebase &&
			(since === undefined || value > since.value || (value === since.value && !tie.has(event.key)))
		)
			events.push(event);
		if (top === undefined || value > top.value)
			top = { value, raw: String(getPath(record, field)), keys: new Set() };
		if (value === top.value) top.keys.add(event.key);
	});
	const next: Mark | undefined = top && {
		field,
		value: top.value,
		raw: top.raw,
		tie: [...top.keys],
	};
	return { events, mark: next };
}

/**
 * The REST API of the description documents no `since` filter, no order and no message list (§4): a
 * poll reads the users and conversations lists whole (within Pagination Max Pages) and keeps, per stream,
 * the highest value of a field that grows with each new record, and the keys of the records at that
 * value: a record above the mark is new, one at the mark is new unless its key is kept, one below is
 * old. However many records share the mark's value, none comes out twice, and what is kept is only that
 * tie. New records go by their creation time (or Watermark Field); closings always go by their closing
 * time, whatever marks creation.
 */

function collect(
	client: FinderClient,
	streams: readonly Stream[],
	lists: Map<ListName, IDataObject[]>,
	marks: Marks,
	settings: PollSettings,
) {
	const events: Found[] = [];
	// Only the selected streams' marks: one taken out of Events starts afresh when it is selected again.
	const next: Marks = {};
	for (const stream of streams)
		if (marks[stream.event] !== undefined) next[stream.event] = marks[stream.event];
	for (const stream of streams) {
		const records = (lists.get(stream.list) ?? []).filter(stream.keep);
		if (records.length === 0) continue;
		const result = collectStream(client, stream, records, markIn(marks, stream.event), settings);
		events.push(...result.events);
		if (result.mark) next[stream.event] = { ...result.mark };
	}
	return { found: events, marks: next };
}

function streamsFor(client: FinderClient, settings: PollSettings): Stream[] {
	if (settings.events.includes('messageCreated')) {
		throw client.refuse(
			'New Message cannot be found by polling the REST API: it has no list of messages',
			'Take New Message out of Events here and use the Support Chat Trigger (webhooks) for it, or choose Support Board Web API in the credentials if your service is Support Board.',
		);
	}
	return STREAMS.filter((stream) => settings.events.includes(stream.event));
}

/**
 * Since Parameter's value for a list: the lowest creation mark of the streams reading it. None when one
 * of them has no mark yet, or orders by closing time: a closing can come to a conversation of any age.
 */
function sinceValue(list: ListName, streams: readonly Stream[], marks: Marks): string | undefined {
	let lowest: Mark | undefined;
	for (const stream of streams.filter((s) => s.list === list)) {
		const mark = markIn(marks, stream.event);
		if (mark === undefined || !stream.byCreation) return undefined;
		if (lowest === undefined || mark.value < lowest.value) lowest = mark;
	}
	return lowest?.raw;
}

/** Each list a stream needs, read once a poll (by the poll's pagination options), with Since Parameter where `sinceValue` allows it. */
async function readLists(
	client: FinderClient,
	settings: PollSettings,
	streams: readonly Stream[],
	marks: Marks,
) {
	const lists = new Map<ListName, IDataObject[]>();
	for (const list of new Set(streams.map((stream) => stream.list))) {
		const since = settings.sinceParam === '' ? undefined : sinceValue(list, streams, marks);
		const query = since === undefined ? {} : { [settings.sinceParam]: since };
		lists.set(list, (await client.list({ list, query })).filter(isDataObject));
	}
	return lists;
}

export function restFinder(): EventFinder {
	const read = async (client: FinderClient, settings: PollSettings, marks: Marks) => {
		const streams = streamsFor(client, settings);
		const lists = await readLists(client, settings, streams, marks);
		return collect(client, streams, lists, marks, settings);
	};
	return {
		async baseline(client, settings, kept?: KeptMarks) {
			// Every record read stands at or before the marks: the first poll emits none of them.
			return { found: [], marks: { ...kept?.marks, ...(await read(client, settings, {})).marks } };
		},

		async since(client, settings, marks) {
			return await read(client, settings, marks);
		},

		async newest(client, settings) {
			const { found: all, marks } = await read(client, settings, {});
			// The records at each stream's newest value.
			return all.filter((event) => markIn(marks, event.event)?.value === event.at);
		},
	};
}
