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
import { isDataObject } from '../../shared/json';
import { SUPPORT_BOARD_PAGE_SIZE } from './product';

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

/**
 * Where Support Board stands now, for the poll trigger's first poll: the true highest user, message and
 * conversation ids, not a guess from a list. get-users and get-conversations give a start; the
 * get-new-* functions above it, asked until they answer nothing newer, give the rest.
 */

/** Asks `next(mark)` for what is above the mark until nothing is: the true highest id, however the first guess fell short. */
async function chase(mark: number, next: (mark: number) => Promise<number>): Promise<number> {
	for (;;) {
		const found = await next(mark);
		if (found <= mark) return mark;
		mark = found;
	}
}

/**
 * Where the conversations and messages stand now. get-conversations puts conversations waiting for an
 * agent (status 2) first unless the product orders by date: its pages are read until the first row of
 * another status, for a first guess; get-new-conversations above that guess then finds the rest.
 */
async function messagesNow(
	client: FinderClient,
): Promise<{ messageId: number; conversationId: number; rows: IDataObject[] }> {
	const seen: IDataObject[] = [];
	for (let page = 0; ; page++) {
		const list = rows(
			await client.read('get-conversations', { status_code: 'all', pagination: page }),
		);
		seen.push(...list);
		if (
			list.some((row) => text(row.conversation_status_code) !== '2') ||
			list.length < SUPPORT_BOARD_PAGE_SIZE
		)
			break;
	}
	let conversationId = highest(seen, 'conversation_id', 0);
	const messageId = await chase(highest(seen, 'message_id', 0), async (mark) => {
		const newer = rows(await client.read('get-new-conversations', { datetime: String(mark) }));
		conversationId = highest(newer, 'conversation_id', conversationId);
		return highest(newer, 'message_id', mark);
	});
	return { messageId, conversationId, rows: seen };
}

/** Conversations above the highest one seen that exist with no message yet: get-conversation finds them, one id at a time. */
async function conversationsNow(client: FinderClient, seen: number): Promise<number> {
	return await chase(seen, async (mark) =>
		isDataObject(await client.read('get-conversation', { conversation_id: mark + 1 }))
			? mark + 1
			: mark,
	);
}

async function usersNow(client: FinderClient): Promise<{ userId: number; rows: IDataObject[] }> {
	const list = rows(await client.read('get-users', { pagination: 0 }));
	const userId = await chase(highest(list, 'id', 0), async (mark) =>
		highest(rows(await client.read('get-new-users', { datetime: String(mark) })), 'id', mark),
	);
	return { userId, rows: list };
}

/**
 * The Support Board poll's marks: the highest ids read, the conversation ids a jump passed over, and
 * which conversation rows are new by them.
 */

export interface SbMarks {
	/** The highest user id read; kept while New User Created is selected. */
	userId: number;
	/** The highest message id read; kept while an event found in messages is selected. */
	messageId: number;
	/** The highest conversation id known; undefined in marks kept by version 1. */
	conversationId?: number;
	/** Conversation ids below `conversationId` seen with no message yet, created after the baseline. */
	pending: number[];
	/** Version 1's mark: the time of the message at `messageId`. */
	messageTime?: string;
}

/** Pending conversation ids kept, the lowest (oldest) forgotten first: a crafted jump of ids costs no more. */
const MAX_PENDING = 1_000;
const MESSAGE_EVENTS: readonly PolledEvent[] = [
	'messageCreated',
	'conversationCreated',
	'conversationClosed',
];

const wants = (settings: PollSettings, ...events: readonly PolledEvent[]) =>
	events.some((e) => settings.events.includes(e));

function readMarks(marks: Marks): SbMarks {
	const pending = Array.isArray(marks.pending)
		? marks.pending.map(idOf).filter((id): id is number => id !== undefined)
		: [];
	return {
		userId: idOf(marks.userId) ?? 0,
		messageId: idOf(marks.messageId) ?? 0,
		conversationId: idOf(marks.conversationId),
		pending: pending.slice(-MAX_PENDING),
		messageTime: typeof marks.messageTime === 'string' ? marks.messageTime : undefined,
	};
}

/** The marks the selected events need: one left out is taken afresh when its event is selected again. */
function keep(marks: SbMarks, settings: PollSettings): Marks {
	const kept: Marks = {};
	if (wants(settings, 'userCreated')) kept.userId = marks.userId;
	if (wants(settings, ...MESSAGE_EVENTS))
		Object.assign(kept, {
			messageId: marks.messageId,
			conversationId: marks.conversationId ?? 0,
			pending: marks.pending,
		});
	return kept;
}

/** The conversation mark after this poll's rows, and the ids it passed over that are still to come. */
function conversationMarks(
	marks: SbMarks,
	conversationIds: number[],
): Pick<SbMarks, 'conversationId' | 'pending'> {
	const before = marks.conversationId ?? 0;
	const after = conversationIds.reduce((top, id) => Math.max(top, id), before);
	const seen = new Set(conversationIds);
	const pending = marks.pending.filter((id) => !seen.has(id));
	for (let id = Math.max(before + 1, after - MAX_PENDING); id < after; id++)
		if (!seen.has(id)) pending.push(id);
	return { conversationId: after, pending: pending.slice(-MAX_PENDING) };
}

/**
 * Whether a conversation row is one created after the baseline, seen with a message for the first
 * time. `pending` is `marks.pending` as a Set, made once a poll: a poll reads any number of rows.
 */
function isNewConversation(
	row: IDataObject,
	marks: SbMarks,
	pending: ReadonlySet<number>,
): boolean {
	const id = idOf(row.conversation_id);
	if (id === undefined) return false;
	if (id > (marks.conversationId ?? Infinity) || pending.has(id)) return true;
	// The first poll after marks of version 1, which knew only a time: by it too, strictly, so that a
	// conversation opened since the last poll of the earlier version is not missed.
	return (
		marks.messageTime !== undefined && text(row.conversation_creation_time) > marks.messageTime
	);
}
