import type { PlainObject } from './json';
import { isRecord } from './json';
import { WEBHOOK_ENVELOPES } from './vocabulary/envelopes';

/**
 * The event's own data inside its envelope: follows `data`, `payload`, `object`, `resource`, `item`,
 * ... down to three levels (`{ data: { object: {...} } }`, `{ data: { item: {...} } }`); the body itself
 * when it has no envelope.
 */
export function unwrapEventData(body: PlainObject): PlainObject {
	let current = body;
	for (let depth = 0; depth < 3; depth++) {
		const inner = WEBHOOK_ENVELOPES.map((candidate) => current[candidate]).find(isRecord);
		if (inner === undefined) break;
		current = inner;
	}
	return current;
}

/** Whether the body is an envelope: its event data sits under a wrapper key, so its own `id` is the envelope's. */
export function isEnvelope(body: PlainObject): boolean {
	return WEBHOOK_ENVELOPES.some((key) => key !== 'event' && isRecord(body[key]));
}
