import type { PlainObject } from '../json';
import { isRecord } from '../json';

/**
 * The envelopes around the service's answers: an answer wraps a record or a page (`{success, response:
 * {...}}`, `{data: [...]}`). A delivery to the webhook is wrapped differently, in words of the event
 * (`object`, `item`, `entity`, `event`), with its `id` beside them naming the delivery
 * (`WEBHOOK_ENVELOPES`, below: part of a payload style, trigger/payloadStyles.ts, but read by the poll
 * trigger too, through unwrapEventData, below).
 */

/**
 * Keys under which an answer wraps one record or a page of them, most likely first. Read when a record
 * is unwrapped (actions/helpers.ts) and when a page's list is looked for (transport/pagination/locate.ts).
 */
export const ANSWER_ENVELOPES: readonly string[] = [
	'response',
	'data',
	'result',
	'record',
	'payload',
	'body',
];

/** Keys beside an answer's wrapper that say nothing about the record: a wrapper is only taken among these. */
export const ENVELOPE_NOISE: ReadonlySet<string> = new Set([
	'success',
	'ok',
	'status',
	'message',
	'meta',
	'links',
	'_links',
	'code',
	'error',
]);

/**
 * Keys under which a delivery puts the event's own data, outermost first (unwrapEventData): the webhook
 * trigger unwraps every delivery with them, and both triggers a message before judging its sender.
 */
export const WEBHOOK_ENVELOPES: readonly string[] = [
	'data',
	'payload',
	'object',
	'resource',
	'record',
	'event_data',
	'eventData',
	'item',
	'entity',
	'body',
	'event',
];

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
