import type { IDataObject } from 'n8n-workflow';

import { asText, isDataObject } from '../../shared/json';
import { eventKey } from '../../shared/eventKey';
import type { SupportChatClient } from '../../transport/request';
import { SUPPORT_BOARD_PAGE_SIZE, fn } from '../../transport/wires/supportBoardApi';
import { Budget } from '../budget';
import type { EventFinder, Found, Marks, PolledEvent, PollSettings } from '../types';

/**
 * Support Board's functions made for this (its include/messages.php and users.php, 3.8.7):
 * - `get-new-users` with a number answers every user whose id is above it;
 * - `get-new-conversations` with a number answers every conversation with a message whose id is above
 *   it, one row each, carrying its latest message;
 * - `get-new-messages` answers a conversation's messages after `last_id` (its `datetime` is set past any
 *   message's time, so that only the id counts).
 * Ids only grow, so the marks are the highest user id and message id read, and the product's clock never
 * matters. An agent's archive posts a message whose payload's event is `conversation-status-update-3`:
 * that message is the Conversation Closed event, and its id tells two closings apart.
 */

interface SbMarks {
	userId: number;
	messageId: number;
	/** The time of the message at `messageId`: a conversation created after it is new. */
	messageTime: string;
}

/** Past every message's creation_time, so get-new-messages selects by `last_id` alone. */
const AFTER_EVERY_MESSAGE = '9999-12-31 23:59:59';
const CLOSED_EVENT = 'conversation-status-update-3';
const MESSAGE_EVENTS: readonly PolledEvent[] = ['messageCreated', 'conversationCreated', 'conversationClosed'];

const idOf = (value: unknown): number | undefined => {
	const text = asText(value);
	const n = text === undefined ? NaN : Number(text);
	return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
};
const text = (value: unknown): string => asText(value) ?? '';

function readMarks(marks: Marks): SbMarks {
	return { userId: idOf(marks.userId) ?? 0, messageId: idOf(marks.messageId) ?? 0, messageTime: text(marks.messageTime) };
}

const rows = (answer: unknown): IDataObject[] => (Array.isArray(answer) ? answer.filter(isDataObject) : []);

/** The event a message's payload names, for messages the product posts itself (assignments, archives). */
function payloadEvent(message: IDataObject): string | undefined {
	const payload = typeof message.payload === 'string' ? safeJson(message.payload) : message.payload;
	return isDataObject(payload) && typeof payload.event === 'string' ? payload.event : undefined;
}

function safeJson(raw: string): unknown {
	if (raw.length > 65_536 || !raw.startsWith('{')) return undefined;
	try {
		return JSON.parse(raw) as unknown;
	} catch {
		return undefined;
	}
}

function userFound(user: IDataObject, seq: number): Found | undefined {
	const userId = asText(user.id);
	if (userId === undefined) return undefined;
	return {
		event: 'userCreated',
		key: eventKey({ event: 'userCreated', userId }) as string,
		at: text(user.creation_time),
		seq,
		conversationId: null,
		userId,
		messageId: null,
		source: 'poll get-new-users',
		data: user,
	};
}

function messageFound(message: IDataObject, conversation: IDataObject, seq: number): Found | undefined {
	const messageId = asText(message.id);
	const conversationId = asText(message.conversation_id) ?? asText(conversation.conversation_id) ?? null;
	if (messageId === undefined) return undefined;
	const posted = payloadEvent(message);
	const closing = posted === CLOSED_EVENT;
	// Notes the product posts itself (an assignment, a status change) are no one's message.
	if (!closing && text(message.message) === '' && text(message.attachments) === '' && posted !== undefined) return undefined;
	const event: PolledEvent = closing ? 'conversationClosed' : 'messageCreated';
	return {
		event,
		key: eventKey({ event, conversationId, messageId, change: closing ? messageId : undefined }) as string,
		at: text(message.creation_time),
		seq,
		conversationId,
		userId: closing ? (asText(conversation.conversation_user_id) ?? null) : (asText(message.user_id) ?? null),
		messageId: closing ? null : messageId,
		source: 'poll get-new-messages',
		data: closing ? { ...conversation, conversation_status_code: '3', closing_message: message } : message,
	};
}

function conversationFound(conversation: IDataObject, seq: number): Found | undefined {
	const conversationId = asText(conversation.conversation_id);
	if (conversationId === undefined) return undefined;
	return {
		event: 'conversationCreated',
		key: eventKey({ event: 'conversationCreated', conversationId }) as string,
		at: text(conversation.conversation_creation_time),
		seq,
		conversationId,
		userId: asText(conversation.conversation_user_id) ?? null,
		messageId: null,
		source: 'poll get-new-conversations',
		data: conversation,
	};
}

const wants = (settings: PollSettings, ...events: readonly PolledEvent[]) => events.some((e) => settings.events.includes(e));

/**
 * The highest message id now. get-conversations puts conversations waiting for an agent (status 2) first
 * unless the product orders by date: the pages are read until the first row of another status, whose
 * latest message is then the newest of the rest.
 */
async function newestMessage(client: SupportChatClient, budget: Budget): Promise<{ id: number; time: string; rows: IDataObject[] }> {
	let best = { id: 0, time: '', rows: [] as IDataObject[] };
	for (let page = 0; ; page++) {
		budget.spend('get-conversations');
		const list = rows(await fn.read(client, 'get-conversations', { status_code: 'all', pagination: page }));
		for (const row of list) {
			const id = idOf(row.message_id) ?? 0;
			if (id > best.id) best = { id, time: text(row.last_update_time), rows: best.rows };
		}
		best.rows.push(...list);
		const anotherStatus = list.some((row) => text(row.conversation_status_code) !== '2');
		if (anotherStatus || list.length < SUPPORT_BOARD_PAGE_SIZE) return best;
	}
}

async function newestUserId(client: SupportChatClient, budget: Budget): Promise<{ id: number; rows: IDataObject[] }> {
	budget.spend('get-users');
	const list = rows(await fn.read(client, 'get-users', { pagination: 0 }));
	return { id: Math.max(0, ...list.map((row) => idOf(row.id) ?? 0)), rows: list };
}

export const supportBoardFinder: EventFinder = {
	async baseline(client, settings) {
		const budget = new Budget(client, settings);
		const marks: SbMarks = { userId: 0, messageId: 0, messageTime: '' };
		if (wants(settings, 'userCreated')) marks.userId = (await newestUserId(client, budget)).id;
		if (wants(settings, ...MESSAGE_EVENTS)) {
			const newest = await newestMessage(client, budget);
			marks.messageId = newest.id;
			marks.messageTime = newest.time;
		}
		return { found: [], marks: { ...marks } };
	},

	async since(client, settings, kept) {
		const budget = new Budget(client, settings);
		const marks = readMarks(kept);
		const found: Found[] = [];
		const next: SbMarks = { ...marks };
		if (wants(settings, 'userCreated')) {
			budget.spend('get-new-users');
			for (const user of rows(await fn.read(client, 'get-new-users', { datetime: String(marks.userId) }))) {
				const id = idOf(user.id);
				if (id === undefined || id <= marks.userId) continue;
				const event = userFound(user, id);
				if (event) found.push(event);
				next.userId = Math.max(next.userId, id);
			}
		}
		if (wants(settings, ...MESSAGE_EVENTS)) {
			budget.spend('get-new-conversations');
			const conversations = rows(await fn.read(client, 'get-new-conversations', { datetime: String(marks.messageId) }));
			for (const conversation of conversations) {
				const created = text(conversation.conversation_creation_time);
				if (settings.events.includes('conversationCreated') && created !== '' && created >= marks.messageTime) {
					const event = conversationFound(conversation, idOf(conversation.conversation_id) ?? 0);
					if (event) found.push(event);
				}
				budget.spend('get-new-messages');
				const messages = rows(
					await fn.read(client, 'get-new-messages', {
						user_id: text(conversation.conversation_user_id),
						conversation_id: text(conversation.conversation_id),
						datetime: AFTER_EVERY_MESSAGE,
						last_id: marks.messageId,
					}),
				);
				for (const message of messages) {
					const id = idOf(message.id);
					if (id === undefined || id <= marks.messageId) continue;
					const event = messageFound(message, conversation, id);
					if (event && settings.events.includes(event.event)) found.push(event);
					if (id > next.messageId) Object.assign(next, { messageId: id, messageTime: text(message.creation_time) });
				}
			}
		}
		return { found, marks: { ...next } };
	},

	async newest(client, settings) {
		const budget = new Budget(client, settings);
		const found: Found[] = [];
		if (wants(settings, 'userCreated')) {
			const [user] = (await newestUserId(client, budget)).rows;
			const event = user && userFound(user, 0);
			if (event) found.push(event);
		}
		if (wants(settings, ...MESSAGE_EVENTS)) {
			const { rows: conversations } = await newestMessage(client, budget);
			const [latest] = conversations;
			if (latest && settings.events.includes('conversationCreated')) found.push(conversationFound(latest, 0) as Found);
			if (latest && settings.events.includes('messageCreated')) {
				const message = { id: latest.message_id, conversation_id: latest.conversation_id, user_id: latest.message_user_id, message: latest.message, creation_time: latest.last_update_time };
				const event = messageFound(message, latest, 1);
				if (event) found.push(event);
			}
			const closed = conversations.find((row) => text(row.conversation_status_code) === '3');
			if (closed && settings.events.includes('conversationClosed')) {
				const message = { id: closed.message_id, conversation_id: closed.conversation_id, message: '', payload: { event: CLOSED_EVENT }, creation_time: closed.last_update_time };
				const event = messageFound(message, closed, 2);
				if (event) found.push(event);
			}
		}
		return found;
	},
};
