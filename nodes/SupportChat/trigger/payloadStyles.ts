/**
 * Payload styles: where the senders the trigger knows put a delivery's event name, the event's data,
 * JSON text and the delivery's own id. The one home of that knowledge: a new payload style is its keys
 * added to the lists below, or to WEBHOOK_ENVELOPES (../shared/vocabulary/envelopes.ts: the envelopes
 * of its data, which the poll trigger reads too) (CONTRIBUTING.md › How to add a payload style). Each
 * list is read in its order, the first key present winning; the order in which the lists themselves
 * are read is that of `detectEvent` (detect.ts) and `deliveryId` (delivery.ts).
 *
 * The styles, as the sandbox sends them (sandbox/webhooks.js) and Support Board does:
 * - `{ event, data }` and its spellings: `event_type`, `eventName`, `webhook_event`, `{ event: { type } }`;
 * - dotted: `{ id, object: 'event', type: 'conversation.created', data: { object: {...} } }`;
 * - nested: `{ webhook: { event, event_id }, payload: {...} }`;
 * - event in a header: `X-Webhook-Event: NewConversation`, the id in `X-Webhook-Id`;
 * - human: `{ event: 'New Conversation', eventId, conversation, contact, message }`;
 * - PHP form fields: `function=new-conversation-created&data=<JSON>&delivery_id=…`;
 * - Support Board: `{ function, key, data, sender-url }`, JSON, the secret in `key`;
 * - Standard Webhooks and Svix: the id in `webhook-id` or `svix-id`.
 * The body's format (JSON, form fields, a batch) is read whatever the style (body.ts).
 */

/** Headers that name the event, in the order they are read. */
export const EVENT_HEADERS: readonly string[] = [
	'x-event',
	'x-webhook-event',
	'x-event-type',
	'x-event-name',
	'x-webhook-event-type',
	'x-webhook-topic',
	'x-topic',
];
/** Any vendor's event header: `x-supportchat-event`, `x-chat-event-type`, `x-shop-topic`, ... */
export const EVENT_HEADER_PATTERN = /^x-[a-z0-9-]*-(?:event|event-type|event-name|topic)$/;

/** Body fields that name the event, read after the headers; `function` is PHP services' and Support Board's. */
export const EVENT_FIELDS: readonly string[] = [
	'event',
	'event_type',
	'eventType',
	'event_name',
	'eventName',
	'webhook_event',
	'webhookEvent',
	'topic',
	'function',
];
/** Nested places of the event's name, read after every field of `EVENT_FIELDS`. */
export const NESTED_EVENT_FIELDS: readonly string[] = [
	'event.type',
	'event.name',
	'event.event',
	'data.event',
	'data.event_type',
	'data.eventType',
	'data.function',
	'payload.event',
	'payload.event_type',
	'meta.event',
	'webhook.event',
];
/**
 * Ambiguous fields (`type` is also a message's sender type, `name` a user's name): read only when no
 * place above names the event. The dotted style's `type` is found here.
 */
export const WEAK_EVENT_FIELDS: readonly string[] = ['type', 'action', 'name'];

/** Fields that carry the event as JSON text, when a sender posts form fields or double-encodes JSON. */
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

/** Headers with the delivery's id that the sender keeps when it retries; read first. */
export const DELIVERY_ID_HEADERS: readonly string[] = [
	'webhook-id',
	'svix-id',
	'x-webhook-id',
	'x-event-id',
	'idempotency-key',
	'x-idempotency-key',
];
/** Some senders change these on every attempt: read last, they still catch a sender that keeps them. */
export const PER_ATTEMPT_ID_HEADERS: readonly string[] = [
	'x-delivery-id',
	'x-webhook-delivery',
	'x-delivery',
];
/** Body fields with the delivery's id, at the top and inside `DELIVERY_META_OBJECTS`. */
export const DELIVERY_ID_FIELDS: readonly string[] = [
	'event_id',
	'eventId',
	'delivery_id',
	'deliveryId',
	'webhook_id',
	'webhookId',
	'idempotency_key',
	'notification_id',
	'message_uuid',
];
/** Envelope parts that describe the delivery rather than the record (`{ webhook: { event_id } }`). */
export const DELIVERY_META_OBJECTS: readonly string[] = [
	'webhook',
	'event',
	'meta',
	'metadata',
	'_meta',
	'envelope',
	'delivery',
];
