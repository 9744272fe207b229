import type { PlainObject } from '../shared/json';
import { asText, isRecord } from '../shared/json';
import { isEnvelope } from '../shared/eventData';
import {
	DELIVERY_ID_FIELDS,
	DELIVERY_ID_HEADERS,
	DELIVERY_META_OBJECTS,
	PER_ATTEMPT_ID_HEADERS,
} from './payloadStyles';
import type { HeaderMap } from './util';
import { headerValue } from './util';

export interface DeliveryId {
	id: string;
	/** Where it was found: `header webhook-id`, `body.event_id`, `body.id`. */
	source: string;
}

/**
 * The id of the delivery itself, which a sender keeps when it retries: the Standard Webhooks
 * `webhook-id` and similar headers, an event id in the body, the envelope's own `id`
 * (`{ id, event, data: {...} }`), or an id in the envelope's delivery metadata (`webhook.event_id`).
 * A flat body's `id` names the resource, not the delivery, so it is not used: two events about the
 * same conversation must not look like one delivery.
 */
function deliveryId(body: PlainObject, headers: HeaderMap): DeliveryId | undefined {
	for (const name of DELIVERY_ID_HEADERS) {
		const value = asText(headerValue(headers, name));
		if (value !== undefined) return { id: value, source: `header ${name}` };
	}
	for (const key of DELIVERY_ID_FIELDS) {
		const value = asText(body[key]);
		if (value !== undefined) return { id: value, source: `body.${key}` };
	}
	if (isEnvelope(body)) {
		const value = asText(body.id);
		if (value !== undefined) return { id: value, source: 'body.id' };
	}
	for (const holder of DELIVERY_META_OBJECTS) {
		const meta = body[holder];
		if (!isRecord(meta)) continue;
		for (const key of [...DELIVERY_ID_FIELDS, 'id']) {
			const value = asText(meta[key]);
			if (value !== undefined) return { id: value, source: `body.${holder}.${key}` };
		}
	}
	for (const name of PER_ATTEMPT_ID_HEADERS) {
		const value = asText(headerValue(headers, name));
		if (value !== undefined) return { id: value, source: `header ${name}` };
	}
	return undefined;
}

/** In a batch a header id names the whole request, so each entry is told apart by its position. */
export function entryDeliveryId(
	entry: PlainObject,
	index: number,
	batch: boolean,
	headers: HeaderMap,
): DeliveryId | undefined {
	const entryId = deliveryId(entry, batch ? {} : headers);
	const batchId = batch ? deliveryId({}, headers) : undefined;
	return (
		entryId ?? (batchId ? { id: `${batchId.id}#${index}`, source: batchId.source } : undefined)
	);
}
