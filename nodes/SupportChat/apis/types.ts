import type { IDataObject, NodeOperationError } from 'n8n-workflow';

import type { PolledEvent } from '../shared/eventFacts';
import type { SecretMask } from '../shared/secrets';
import type { ListCall } from '../transport/calls';
import type { Wire } from '../transport/wire';

/**
 * Everything one API of the credentials' API choice brings: how its calls travel, and how the poll
 * trigger finds its events. One row of the table in ./index.ts each; a third API is one folder here
 * and one row.
 */
export interface Api {
	/** The API's name as the credentials show it: in messages, and in the poll's saved state. */
	readonly title: string;
	readonly wire: Wire;
	/** The poll trigger's finder, given the trigger's Options. */
	finder(options: IDataObject): EventFinder;
}

/**
 * The events a poll can find (the event table's `polled`): the webhook trigger's values, so a workflow
 * works with either.
 */
export type { PolledEvent };

/** One event found, before it becomes an item. */
export interface Found {
	event: PolledEvent;
	key: string;
	/**
	 * Orders events oldest first across streams: a number (ms of a time, or a growing field's value) or
	 * the service's own sortable time text (Support Board's `2024-05-01 10:00:00`); one poll uses one kind.
	 */
	at: number | string;
	seq: number;
	conversationId: string | null;
	userId: string | null;
	messageId: string | null;
	/** Where the event was found, as the webhook trigger's `eventSource` says where its name was. */
	source: string;
	data: IDataObject;
}

/**
 * Where each stream stands: JSON kept in the node's static data. A mark is what the last poll read up to;
 * its shape is the finder's own.
 */
export type Marks = Record<string, unknown>;

export interface PollSettings {
	events: PolledEvent[];
	/** Most requests one poll makes; a poll that would need more fails and moves nothing. */
	maxRequests: number;
	/** REST: a query parameter to send the watermark in, when the service filters lists by it. */
	sinceParam: string;
	/** REST: a record's field that grows with each new record (a creation time or an increasing id); empty = detect. */
	watermarkField: string;
	/** When the poll must stop asking for more, in ms since the epoch. */
	deadline: number;
}

/** Marks as kept, and the events they were taken for. */
export interface KeptMarks {
	marks: Marks;
	events: readonly PolledEvent[];
}

/** What a finder answers: the events after the marks, oldest first, and the marks to keep once they are out. */
interface Findings {
	found: Found[];
	marks: Marks;
}

/** What a finder may ask of the client: lists, reads its API names itself, and refusals of the poll's input. */
export interface FinderClient {
	/** A whole list by the poll's pagination options. */
	list(call: ListCall): Promise<unknown[]>;
	/** One read by the API's own name for it (see `Wire.read`). */
	read(name: string, args: IDataObject): Promise<unknown>;
	refuse(message: string, description?: string): NodeOperationError;
	/** Masks the API token in what a message quotes of the service's records, then cuts it. */
	readonly mask: Pick<SecretMask, 'quote'>;
}

/** How one API's events are found: one per API, in its row of ./index.ts. */
export interface EventFinder {
	/**
	 * Where things stand now for `settings.events`: the first production poll, and the first after an
	 * event is added to Events, whose marks are then merged into `kept` (the others' marks unchanged).
	 * Nothing it finds is emitted.
	 */
	baseline(client: FinderClient, settings: PollSettings, kept?: KeptMarks): Promise<Findings>;
	/** What happened after `marks`. */
	since(client: FinderClient, settings: PollSettings, marks: Marks): Promise<Findings>;
	/** The newest event of each kind selected, for Fetch Test Event; reads only. */
	newest(client: FinderClient, settings: PollSettings): Promise<Found[]>;
}
