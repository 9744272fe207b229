import { asText, fieldOf, isRecord } from '../shared/json';
import type { EventKeyParts } from '../shared/eventKey';
import { eventKey } from '../shared/eventKey';
import { CLOSED_AT_KEYS } from '../shared/vocabulary/times';

/** Where a delivery's data may keep the record whose change it reports, nearest first. */
const RECORD_PLACES = ['', 'conversation', 'details'] as const;

function firstOf(data: unknown, keys: readonly string[]): string | undefined {
	for (const place of RECORD_PLACES) {
		const record = place === '' ? data : isRecord(data) ? fieldOf(data, place) : undefined;
		if (!isRecord(record)) continue;
		for (const key of keys) {
			const value = asText(fieldOf(record, key));
			if (value !== undefined) return value;
		}
	}
	return undefined;
}

/**
 * What tells this change from another of the same kind on the same record, as far as the delivery says:
 * a closing's time (the poll trigger reads the same field of the record), the tag applied, the contact
 * left. Support Board's archive delivery carries none of these (only the conversation and its status).
 */
const CHANGES: Readonly<Record<string, readonly string[]>> = {
	conversationClosed: CLOSED_AT_KEYS,
	tagApplied: ['tag', 'tag_name', 'name'],
	leadCaptured: ['email', 'phone'],
};

/** The delivery's eventKey: the same as the poll trigger gives the same event (shared/eventKey). */
export function deliveryKey(event: string, ids: Omit<EventKeyParts, 'event' | 'change'>, data: unknown): string | null {
	const keys = Object.hasOwn(CHANGES, event) ? CHANGES[event] : undefined;
	return eventKey({ event, ...ids, change: keys === undefined ? undefined : firstOf(data, keys) });
}
