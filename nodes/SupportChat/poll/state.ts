import type { IDataObject } from 'n8n-workflow';

import { isPolledEvent } from '../shared/eventFacts';
import { isRecord } from '../shared/json';
import type { Found, Marks, PolledEvent } from '../apis/types';

/**
 * The poll's memory in the node's static data: where each stream stands. n8n 2.41 saves a poller's
 * static data after the poll that runs when the workflow is published and after each poll that emits;
 * not after a poll that emits nothing or fails, and never after Fetch Test Event. After a restart a poll
 * therefore reads again from the last save; the marks hold what each stream needs to emit nothing twice
 * (the keys at the mark itself), so what is read again is dropped, and what it did not emit then (own
 * messages, the product's notes) is dropped again by the same rules.
 */

/** Changed when the shape of what is kept changes. */
const VERSION = 2;

interface PollState {
	/** Which API the marks belong to: marks of another are meaningless. */
	api: string;
	/** The events the marks were taken for: one added later is baselined first, never read from history. */
	events: readonly PolledEvent[];
	marks: Marks;
}

/**
 * Version 1 kept the keys of the last events emitted beside the marks: they become the keys at each
 * REST mark, and Support Board's marks carry over as they are. It did not say which events its marks
 * were taken for: those with a mark count, and any other is baselined afresh.
 */
function fromVersion1(kept: IDataObject & { marks: IDataObject }, api: string): PollState {
	const recent = Array.isArray(kept.recent)
		? kept.recent.filter((key): key is string => typeof key === 'string')
		: [];
	const marks: Marks = { ...kept.marks };
	const events: PolledEvent[] = [];
	for (const [event, mark] of Object.entries(marks)) {
		if (!isRecord(mark) || typeof mark.field !== 'string' || !isPolledEvent(event)) continue;
		marks[event] = { ...mark, tie: recent.filter((key) => key.startsWith(`${event}:`)) };
		events.push(event);
	}
	if (Number(marks.userId) > 0) events.push('userCreated');
	if (Number(marks.messageId) > 0)
		events.push('conversationCreated', 'messageCreated', 'conversationClosed');
	return { api, events, marks };
}

export function readState(staticData: IDataObject, api: string): PollState | undefined {
	const kept = staticData.supportChatPoll;
	if (!isRecord(kept) || kept.api !== api || !isRecord(kept.marks)) return undefined;
	if (kept.version === 1) return fromVersion1(kept as IDataObject & { marks: IDataObject }, api);
	if (kept.version !== VERSION) return undefined;
	const events = Array.isArray(kept.events) ? kept.events.filter(isPolledEvent) : [];
	return { api, events, marks: kept.marks as Marks };
}

export function writeState(staticData: IDataObject, state: PollState): void {
	staticData.supportChatPoll = {
		version: VERSION,
		api: state.api,
		events: [...state.events],
		marks: state.marks as IDataObject,
	};
}

/** Within one instant, the order things happen in: a user, then a conversation, its messages, its closing. */
const RANK: Readonly<Record<Found['event'], number>> = {
	userCreated: 0,
	conversationCreated: 1,
	messageCreated: 2,
	conversationClosed: 3,
};

/** Numbers by value (negative and fractional ones too), text by its characters. */
function compareAt(a: number | string, b: number | string): number {
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	const [x, y] = [String(a), String(b)];
	return x < y ? -1 : x > y ? 1 : 0;
}

/** The events of one poll oldest first, each key once. */
export function inOrder(found: Found[]): Found[] {
	const seen = new Set<string>();
	const ordered = [...found].sort(
		(a, b) => compareAt(a.at, b.at) || RANK[a.event] - RANK[b.event] || a.seq - b.seq,
	);
	return ordered.filter((event) => {
		if (seen.has(event.key)) return false;
		seen.add(event.key);
		return true;
	});
}
