import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../shared/json';
import type { Found, Marks } from './types';

/**
 * The poll's memory in the node's static data: the marks, and the keys of the events emitted most
 * recently. n8n saves a poller's static data only when a poll emits (the engine may also keep it in
 * memory between polls), so after a restart a poll may read again what an earlier one read: the keys
 * make it emit nothing twice. Bounded: the keys are needed only for events at or after the marks.
 */
const RECENT_KEYS = 2_000;

/** Changed when the shape of what is kept changes: an older shape is read as no state, not misread. */
const VERSION = 1;

interface PollState {
	/** Which API the marks belong to: marks of another are meaningless. */
	api: string;
	marks: Marks;
	recent: string[];
}

export function readState(staticData: IDataObject, api: string): PollState | undefined {
	const kept = staticData.supportChatPoll;
	if (!isRecord(kept) || kept.version !== VERSION || kept.api !== api || !isRecord(kept.marks)) return undefined;
	const recent = Array.isArray(kept.recent) ? kept.recent.filter((key): key is string => typeof key === 'string') : [];
	return { api, marks: kept.marks as Marks, recent: recent.slice(-RECENT_KEYS) };
}

export function writeState(staticData: IDataObject, state: PollState): void {
	staticData.supportChatPoll = {
		version: VERSION,
		api: state.api,
		marks: state.marks as IDataObject,
		recent: state.recent.slice(-RECENT_KEYS),
	};
}

/** Within one instant, the order things happen in: a user, then a conversation, its messages, its closing. */
const RANK: Readonly<Record<Found['event'], number>> = { userCreated: 0, conversationCreated: 1, messageCreated: 2, conversationClosed: 3 };

/** Numbers by value (negative and fractional ones too), text by its characters. */
function compareAt(a: number | string, b: number | string): number {
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	const [x, y] = [String(a), String(b)];
	return x < y ? -1 : x > y ? 1 : 0;
}

/** The events not emitted before, oldest first, each once. */
export function fresh(found: Found[], recent: readonly string[]): Found[] {
	const seen = new Set(recent);
	const ordered = [...found].sort((a, b) => compareAt(a.at, b.at) || RANK[a.event] - RANK[b.event] || a.seq - b.seq);
	return ordered.filter((event) => {
		if (seen.has(event.key)) return false;
		seen.add(event.key);
		return true;
	});
}
