import type { IDataObject } from 'n8n-workflow';

import { asText, isDataObject } from '../../shared/json';
import { eventKey } from '../../shared/eventKey';
import type { Found, PolledEvent } from '../types';

/**
 * What Support Board's rows mean as poll events: a user, a conversation, a message, and the note an
 * agent's archive posts (its payload's event is `conversation-status-update-3`), which is the
 * Conversation Closed event, its id telling two closings apart.
 */

export const CLOSED_EVENT = 'conversation-status-update-3';

export const idOf = (value: unknown): number | undefined => {
	const text = asText(value);
	const n = text === undefined ? NaN : Number(text);
	return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
};
export const text = (value: unknown): string => asText(value) ?? '';
export const rows = (answer: unknown): IDataObject[] =>
	Array.isArray(answer) ? answer.filter(isDataObject) : [];
export const highest = (list: IDataObject[], key: string, floor: number) =>
	list.reduce((top, row) => Math.max(top, idOf(row[key]) ?? 0), floor);

/** The event a message's payload names, for messages the product posts itself (assignments, archives). */
function payloadEvent(message: IDataObject): string | undefined {
	const payload = typeof message.payload === 'string' ? safeJson(message.payload) : message.payload;
	return isDataObject(payload) && typeof payload.event === 'string' ? payload.event : undefined;
}

function safeJson(raw: string): unknown {
	if (raw.length > 65_536 || !raw.startsWith('{')) return undefined;
	try {
		const parsed: unknown = JSON.parse(raw);
		return parsed;
	} catch {
		return undefined;
	}
}

export function userFound(user: IDataObject, seq: number): Found | undefined {
	const userId = asText(user.id);
	if (userId === undefined) return undefined;
	const key = eventKey({ event: 'userCreated', userId });
	return key === null
		? undefined
		: {
				event: 'userCreated',
				key,
				at: text(user.creation_time),
				seq,
				conversationId: null,
				userId,
				messageId: null,
				source: 'poll get-new-users',
				data: user,
			};
}

/** A message as an event: Conversation Closed for an archive's note, New Message for anyone's words, else none. */
export function messageFound(
	message: IDataObject,
	conversation: IDataObject,
	seq: number,
): Found | undefined {
	const messageId = asText(message.id);
	const conversationId =
		asText(message.conversation_id) ?? asText(conversation.conversation_id) ?? null;
	if (messageId === undefined) return undefined;
	const posted = payloadEvent(message);
	const closing = posted === CLOSED_EVENT;
	// Notes the product posts itself (an assignment, a status change) are no one's message.
	if (
		!closing &&
		text(message.message) === '' &&
		text(message.attachments) === '' &&
		posted !== undefined
	)
		return undefined;
	const event: PolledEvent = closing ? 'conversationClosed' : 'messageCreated';
	const key = eventKey({
		event,
		conversationId,
		messageId,
		change: closing ? messageId : undefined,
	});
	if (key === null) return undefined;
	return {
		event,
		key,
		at: text(message.creation_time),
		seq,
		conversationId,
		userId: closing
			? (asText(conversation.conversation_user_id) ?? null)
			: (asText(message.user_id) ?? null),
		messageId: closing ? null : messageId,
		source: 'poll get-new-messages',
		data: closing
			? { ...conversation, conversation_status_code: '3', closing_message: message }
			: message,
	};
}

export function conversationFound(conversation: IDataObject, seq: number): Found | undefined {
	const conversationId = asText(conversation.conversation_id);
	if (conversationId === undefined) return undefined;
	const key = eventKey({ event: 'conversationCreated', conversationId });
	if (key === null) return undefined;
	const { conversation_creation_time: at, conversation_user_id: userId } = conversation;
	return {
		event: 'conversationCreated',
		key,
		at: text(at),
		seq,
		conversationId,
		userId: asText(userId) ?? null,
		messageId: null,
		source: 'poll get-new-conversations',
		data: conversation,
	};
}
