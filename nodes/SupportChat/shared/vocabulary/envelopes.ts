/**
 * The envelopes around what the service sends. Two lists, side by side, because an answer to our
 * request and a delivery to the webhook are wrapped differently: an answer wraps a record or a page
 * (`{success, response: {...}}`, `{data: [...]}`), a delivery wraps an event's record in words of the
 * event (`object`, `item`, `entity`, `event`), and its `id` beside them names the delivery.
 */

/**
 * Keys under which an answer wraps one record or a page of them, most likely first. Read when a record
 * is unwrapped (actions/helpers.ts) and when a page's list is looked for (transport/pagination/locate.ts).
 */
export const ANSWER_ENVELOPES: readonly string[] = ['response', 'data', 'result', 'record', 'payload', 'body'];

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

/** Keys under which a webhook delivery puts the event's own data, outermost first (trigger/payload.ts). */
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

/** Fields that carry a delivery's event as JSON text, when a sender posts form fields or double-encodes JSON. */
export const WEBHOOK_JSON_FIELDS: readonly string[] = [
	'payload',
	'data',
	'json',
	'body',
	'event_data',
	'eventData',
	'object',
	'resource',
	'record',
];
