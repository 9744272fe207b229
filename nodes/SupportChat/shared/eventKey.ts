import { subjectOf } from './eventFacts';

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
