/**
 * The envelopes around the service's answers: an answer wraps a record or a page (`{success, response:
 * {...}}`, `{data: [...]}`). A delivery to the webhook is wrapped differently, in words of the event
 * (`object`, `item`, `entity`, `event`), with its `id` beside them naming the delivery
 * (`WEBHOOK_ENVELOPES`, below: part of a payload style, trigger/payloadStyles.ts, but read by the poll
 * trigger too, through ../eventData.ts).
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
 * Keys under which a delivery puts the event's own data, outermost first (../eventData.ts): the webhook
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
