import type { IDataObject } from 'n8n-workflow';

import type {
	EventFinder,
	FinderClient,
	Found,
	KeptMarks,
	Marks,
	PolledEvent,
	PollSettings,
} from '../types';
import type { LoopOptions } from '../../shared/ownMessages';
import { isOwnMessage, readLoopOptions } from '../../shared/ownMessages';
import {
	CLOSED_EVENT,
	conversationFound,
	highest,
	idOf,
	messageFound,
	rows,
	text,
	userFound,
} from './pollEvents';
import type { SbMarks } from './marks';
import {
	conversationMarks,
	isNewConversation,
	keep,
	MESSAGE_EVENTS,
	readMarks,
	wants,
} from './marks';
import { conversationsNow, messagesNow, usersNow } from './now';

/**
 * Support Board's functions made for this (its include/messages.php and users.php, 3.8.7), at their edges:
 * - `get-new-users` with a number answers every user (not bot) whose id is above it; 0 answers all;
 * - `get-new-conversations` with a number answers every conversation with a message whose id is above
 *   it, one row each, carrying that conversation's latest message whatever it is (a note included);
 * - `get-new-messages` answers a conversation's messages whose time is after `datetime` or whose id is
 *   above `last_id`; a `last_id` of 0 counts as none, so from 0 the time must do it (from before
 *   every message), and above 0 the time is set past every message so that only the id counts;
 * - `get-conversations` reports, for a conversation whose latest message is a note (an assignment),
 *   the latest message with text: it is no measure of the newest message id, only a start.
 * Ids only grow, so the marks are the highest user, message and conversation ids, and the product's
 * clock never decides. A conversation is new when its id is above the conversation mark taken when the
 * workflow was published; the ids a jump of that mark passes over (conversations still empty then) are
 * kept, so each is new when its first message comes. An agent's archive posts a message whose payload's
 * event is `conversation-status-update-3`: that message is the Conversation Closed event.
 */

/** Past every message's creation_time, so get-new-messages selects by `last_id` alone. */
const AFTER_EVERY_MESSAGE = '9999-12-31 23:59:59';
/** Before every message's creation_time (MariaDB's first DATETIME), for a `last_id` of 0, which the product ignores. */
const BEFORE_EVERY_MESSAGE = '1000-01-01 00:00:00';

async function newUsers(client: FinderClient, marks: SbMarks, found: Found[]): Promise<number> {
	let userId = marks.userId;
	for (const user of rows(await client.read('get-new-users', { datetime: String(marks.userId) }))) {
		const id = idOf(user.id);
		if (id === undefined || id <= marks.userId) continue;
		const event = userFound(user, id);
		if (event) found.push(event);
		userId = Math.max(userId, id);
	}
	return userId;
}

interface MessageReading {
	client: FinderClient;
	settings: PollSettings;
	loop: LoopOptions;
	marks: SbMarks;
	found: Found[];
}

/** One conversation's messages above the mark, as events; answers the highest id read. */
async function newMessages(
	{ client, settings, loop, marks, found }: MessageReading,
	conversation: IDataObject,
): Promise<number> {
	let messageId = marks.messageId;
	const messages = rows(
		await client.read('get-new-messages', {
			user_id: text(conversation.conversation_user_id),
			conversation_id: text(conversation.conversation_id),
			datetime: marks.messageId > 0 ? AFTER_EVERY_MESSAGE : BEFORE_EVERY_MESSAGE,
			last_id: marks.messageId,
		}),
	);
	for (const message of messages) {
		const id = idOf(message.id);
		if (id === undefined || id <= marks.messageId) continue;
		messageId = Math.max(messageId, id);
		const event = messageFound(message, conversation, id);
		if (event === undefined || !settings.events.includes(event.event)) continue;
		// The workflow's own replies start nothing, by the webhook trigger's rule and options.
		if (
			event.event === 'messageCreated' &&
			isOwnMessage({ ...message, conversation_user_id: conversation.conversation_user_id }, loop)
				.own
		)
			continue;
		found.push(event);
	}
	return messageId;
}

async function baseline(client: FinderClient, settings: PollSettings, kept?: KeptMarks) {
	const marks = readMarks(kept?.marks ?? {});
	const had = (...events: readonly PolledEvent[]) =>
		kept !== undefined && events.some((e) => kept.events.includes(e));
	if (wants(settings, 'userCreated') && !had('userCreated'))
		marks.userId = (await usersNow(client)).userId;
	const newlyCreated =
		settings.events.includes('conversationCreated') && !had('conversationCreated');
	if ((wants(settings, ...MESSAGE_EVENTS) && !had(...MESSAGE_EVENTS)) || newlyCreated) {
		const now = await messagesNow(client);
		if (!had(...MESSAGE_EVENTS)) marks.messageId = now.messageId;
		// Every conversation there is now, empty ones too, is history.
		marks.conversationId = newlyCreated
			? await conversationsNow(client, now.conversationId)
			: now.conversationId;
		marks.pending = [];
	}
	return { found: [], marks: keep(marks, settings) };
}

async function since(client: FinderClient, settings: PollSettings, kept: Marks, loop: LoopOptions) {
	const marks = readMarks(kept);
	const found: Found[] = [];
	const next: SbMarks = { ...marks };
	if (wants(settings, 'userCreated')) next.userId = await newUsers(client, marks, found);
	if (wants(settings, ...MESSAGE_EVENTS)) {
		if (marks.conversationId === undefined)
			marks.conversationId = await conversationsNow(
				client,
				(await messagesNow(client)).conversationId,
			);
		const conversations = rows(
			await client.read('get-new-conversations', { datetime: String(marks.messageId) }),
		);
		const pending = new Set(marks.pending);
		for (const conversation of conversations) {
			if (
				settings.events.includes('conversationCreated') &&
				isNewConversation(conversation, marks, pending)
			) {
				const event = conversationFound(conversation, idOf(conversation.conversation_id) ?? 0);
				if (event) found.push(event);
			}
			// Each row carries its conversation's latest message id: without message events, that is all the mark needs.
			const latest = wants(settings, 'messageCreated', 'conversationClosed')
				? await newMessages({ client, settings, loop, marks, found }, conversation)
				: highest([conversation], 'message_id', 0);
			next.messageId = Math.max(next.messageId, latest);
		}
		const ids = conversations
			.map((row) => idOf(row.conversation_id))
			.filter((id): id is number => id !== undefined);
		Object.assign(next, conversationMarks(marks, ids));
	}
	return { found, marks: keep(next, settings) };
}

/** The newest event of each kind selected, for Fetch Test Event. */
async function newest(client: FinderClient, settings: PollSettings): Promise<Found[]> {
	const found: Found[] = [];
	if (wants(settings, 'userCreated')) {
		const [user] = (await usersNow(client)).rows;
		const event = user && userFound(user, 0);
		if (event) found.push(event);
	}
	if (wants(settings, ...MESSAGE_EVENTS)) {
		const { rows: conversations } = await messagesNow(client);
		const [latest] = conversations;
		const event = latest && conversationFound(latest, 0);
		if (event && settings.events.includes('conversationCreated')) found.push(event);
		if (latest && settings.events.includes('messageCreated')) {
			const message = {
				id: latest.message_id,
				conversation_id: latest.conversation_id,
				user_id: latest.message_user_id,
				message: latest.message,
				creation_time: latest.last_update_time,
			};
			const event = messageFound(message, latest, 1);
			if (event) found.push(event);
		}
		const closed = conversations.find((row) => text(row.conversation_status_code) === '3');
		if (closed && settings.events.includes('conversationClosed')) {
			const message = {
				id: closed.message_id,
				conversation_id: closed.conversation_id,
				message: '',
				payload: { event: CLOSED_EVENT },
				creation_time: closed.last_update_time,
			};
			const event = messageFound(message, closed, 2);
			if (event) found.push(event);
		}
	}
	return found;
}

/** The finder for the poll trigger's Options: the workflow's own replies start nothing, by the webhook trigger's rule. */
export function supportBoardFinder(options: IDataObject): EventFinder {
	const loop = readLoopOptions(options);
	return {
		baseline,
		since: (client, settings, kept) => since(client, settings, kept, loop),
		newest,
	};
}
