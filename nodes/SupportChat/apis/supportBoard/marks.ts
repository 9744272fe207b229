import type { IDataObject } from 'n8n-workflow';

import type { Marks, PolledEvent, PollSettings } from '../types';
import { idOf, text } from './pollEvents';

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
export const MESSAGE_EVENTS: readonly PolledEvent[] = [
	'messageCreated',
	'conversationCreated',
	'conversationClosed',
];

export const wants = (settings: PollSettings, ...events: readonly PolledEvent[]) =>
	events.some((e) => settings.events.includes(e));

export function readMarks(marks: Marks): SbMarks {
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
export function keep(marks: SbMarks, settings: PollSettings): Marks {
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
export function conversationMarks(
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
export function isNewConversation(
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
