import { subjectOf } from './eventFacts';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { PlainObject } from './json';

/**
 * The one key an event has, whichever trigger found it: the webhook trigger from a delivery, the poll
 * trigger from a list. Made of the event and the ids of its record, never of when it was received, so
 * the same event found both ways has the same key, and n8n's Remove Duplicates node can let it run once.
 *
 * An event that can happen to one record more than once (a conversation closed, reopened and closed
 * again) needs a mark of the change itself: the id of the message that closed it (Support Board posts one
 * with every archive by an agent), or the record's closing time. Without one the key is the record's
 * alone, and two closings of one conversation share it.
 */
export interface EventKeyParts {
	event: string;
	conversationId?: string | number | null;
	userId?: string | number | null;
	messageId?: string | number | null;
	/** What tells this change of the record from another of the same kind. */
	change?: string | null;
}

/** The record an event is keyed by (the event table's `keyedBy`): its message, user or conversation. */
export function eventKey({
	event,
	conversationId,
	userId,
	messageId,
	change,
}: EventKeyParts): string | null {
	const subject = { message: messageId, user: userId, conversation: conversationId }[
		subjectOf(event)
	];
	// A delivery that names no record (Support Board's follow-up form: a name and an e-mail) is told by
	// its change alone; with neither there is nothing stable to make a key of.
	const record = subject === undefined || subject === null || subject === '' ? '' : String(subject);
	if (record === '' && !change) return null;
	// Numbers and their text are one id: a delivery may send 7 where a list answers "7".
	return change ? `${event}:${record}@${change}` : `${event}:${record}`;
}

/**
 * The item an event becomes, whichever trigger found it. Its fields are public (README › Trigger ›
 * Events, "Each event becomes one item"), so a workflow reads the same names from the webhook trigger
 * and the poll trigger, and may swap one for the other.
 */
export interface EventItemFields {
	/** The event's value (`messageCreated`), or `unknown` for a delivery passed on unrecognised. */
	event: string;
	/** The name the sender gave it, as sent (masked, cut); null when none was given (a poll). */
	eventName: string | null;
	/** Where the name was found (`body.function`), or where a poll found the event (`poll get-new-users`). */
	eventSource: string | null;
	/** The same key for the same event from either trigger (shared/eventKey.ts). */
	eventKey: string | null;
	conversationId: string | number | null;
	userId: string | number | null;
	messageId: string | number | null;
	/** The delivery's own id, when it carried one; null from a poll. */
	deliveryId: string | null;
	/** When n8n received it (ISO 8601). */
	receivedAt: string;
	/** The event's own data: the record it is about. */
	data: PlainObject;
	/** The delivery as received (secrets masked); null from a poll. */
	body: PlainObject | null;
	/** The request's headers (credentials masked), webhook only and only with Include Headers. */
	headers?: PlainObject;
}

/** One item, its fields always in this order, `headers` last and only when given. */
export function eventItem(fields: EventItemFields): INodeExecutionData {
	const json: PlainObject = {
		event: fields.event,
		eventName: fields.eventName,
		eventSource: fields.eventSource,
		eventKey: fields.eventKey,
		conversationId: fields.conversationId,
		userId: fields.userId,
		messageId: fields.messageId,
		deliveryId: fields.deliveryId,
		receivedAt: fields.receivedAt,
		data: fields.data,
		body: fields.body,
	};
	if (fields.headers !== undefined) json.headers = fields.headers;
	// Parsed JSON and the service's records: JSON values, which is what n8n's IDataObject describes.
	return { json: json as IDataObject };
}
