import { createHash } from 'crypto';

import { changeOf, eventRow } from '../shared/eventFacts';
import type { EventKeyParts } from '../shared/eventKey';
import { eventKey } from '../shared/eventKey';
import type { PlainObject } from '../shared/json';
import { asText, fieldOf, isRecord, getObjectPath } from '../shared/json';
import { maskSecretFields, REDACTED, SecretMask } from '../shared/secrets';
import type { SupportBoardEvent } from '../shared/supportBoardEvents';
import { parseBody } from './body';
import type { DetectedEvent } from './detect';
import { recogniseEvent } from './detect';
import { unwrapEventData, isEnvelope } from '../shared/vocabulary/envelopes';
import type { ExtractedIds } from './ids';
import { extractIds } from './ids';
import type { OwnMessage } from '../shared/ownMessages';
import { isOwnMessage } from '../shared/ownMessages';
import type { TriggerSettings } from './triggerSettings';
import type { HeaderMap } from './deliveryHeaders';
import { headerValue, lowerCaseHeaders } from './deliveryHeaders';
import {
	DELIVERY_ID_FIELDS,
	DELIVERY_ID_HEADERS,
	DELIVERY_META_OBJECTS,
	PER_ATTEMPT_ID_HEADERS,
} from './payloadStyles';
import type { VerifyResult } from './verify';
import {
	verifyBodyField,
	verifyHeaderToken,
	verifyHmac,
	verifyQueryToken,
	verifyStandardWebhooks,
} from './verify';

/**
 * A delivery read once, at the door (STYLE 18): verified, parsed, and each of its events read into one
 * value. Everything handle.ts decides (selection, own message, duplicate, claim) and the item it
 * builds read this value; nothing goes back to the raw entry.
 */

export interface DeliveryRequest {
	/** The body exactly as received (express `req.rawBody`). */
	rawBody?: Buffer | string | null;
	/** What n8n parsed, used only when there are no raw bytes (multipart). */
	body?: unknown;
	headers: HeaderMap;
	query?: unknown;
}

/** One event of a delivery, as read: the answer to every question asked of it. */
export interface DeliveryEntry {
	/** The entry as received, the secret's field and secret fields masked: the item's `body`. */
	body: PlainObject;
	/** The event's own data inside its envelope, unwrapped once. */
	data: PlainObject;
	detected: DetectedEvent;
	/** A message's sender: the workflow's own or not, and why (../shared/ownMessages.ts); undefined for other events. */
	sender?: OwnMessage;
	ids: ExtractedIds;
	/** The delivery's own id, which a retry keeps; a batch's entries told apart by position. */
	deliveryId?: DeliveryId;
	/** The event's key, the same as the poll trigger gives it (shared/eventKey.ts). */
	key: string | null;
	/** Support Board's own event (`detected.productEvent`), its ids and key, for a workflow that selects it. */
	product?: { event: SupportBoardEvent; ids: ExtractedIds; key: string | null };
}

export interface Delivery {
	/** By lower-case name. */
	headers: HeaderMap;
	entries: DeliveryEntry[];
}

export type ReadDelivery =
	| { ok: true; delivery: Delivery }
	| { ok: false; status: 400 | 401; error: string };

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

function dataDigest(data: unknown): string | undefined {
	try {
		return createHash('sha256')
			.update(JSON.stringify(data) ?? '')
			.digest('hex')
			.slice(0, 16);
	} catch {
		return undefined;
	}
}

/** The delivery's eventKey: the same as the poll trigger gives the same event (shared/eventKey). */
function deliveryKey(
	event: string,
	ids: Omit<EventKeyParts, 'event' | 'change'>,
	data: unknown,
): string | null {
	// What tells this change from another of the same kind on the same record (the event table's
	// `change`): a field of the record, or for an event that names no record of its own, its data.
	const change = changeOf(event);
	if (change === 'data') return eventKey({ event, ...ids, change: dataDigest(data) });
	return eventKey({ event, ...ids, change: change === null ? undefined : firstOf(data, change) });
}

function rawBytes(raw: DeliveryRequest['rawBody']): Buffer {
	if (Buffer.isBuffer(raw)) return raw;
	if (typeof raw === 'string') return Buffer.from(raw, 'utf8');
	return Buffer.alloc(0);
}

/** Everything the decisions need of one entry, each read once and in the order they depend on each other. */
function readEntry(
	received: PlainObject,
	index: number,
	batch: boolean,
	headers: HeaderMap,
	settings: TriggerSettings,
): DeliveryEntry {
	if (settings.verification === 'bodyField') maskField(received, settings.keyField);
	// A visitor's password, its hash and login token have no value known in advance: masked by name.
	const body = maskSecretFields(received);
	const data = unwrapEventData(body);
	const { detected, about, formId } = recogniseEvent(body, headers, data);
	const loop = {
		ignoreOwnTypes: settings.ignoreOwnMessages,
		ignoredSenderIds: settings.ignoredSenderIds,
	};
	const sender = detected.event === 'messageCreated' ? isOwnMessage(body, loop, data) : undefined;
	const ids = extractIds(body, about, { formId, message: sender?.message, data });
	const entry: DeliveryEntry = {
		body,
		data,
		detected,
		sender,
		ids,
		deliveryId: entryDeliveryId(body, index, batch, headers),
		key: deliveryKey(detected.event, ids, data),
	};
	const product = detected.productEvent;
	const row = product === undefined ? undefined : eventRow(product);
	if (product !== undefined && row !== undefined) {
		const options = {
			formId: row.formId || formId,
			message: sender?.message,
			data,
			userKeys: row.userKeys,
		};
		const productIds = extractIds(body, row.about ?? about, options);
		entry.product = {
			event: product,
			ids: productIds,
			key: deliveryKey(product, productIds, data),
		};
	}
	return entry;
}

/**
 * Reads a delivery: the checks that need only the raw bytes, headers and query first (nothing is parsed
 * for a request that fails them), then the body, then the secret field in every event, then each event.
 * `settings.secret` is the secret as it is compared (trimmed); without one, no scheme but `none` passes.
 *
 * @param now the current time in milliseconds (Standard Webhooks' timestamp window)
 */
export function readDelivery(
	request: DeliveryRequest,
	settings: TriggerSettings,
	now: number,
): ReadDelivery {
	const headers = lowerCaseHeaders(request.headers);
	if (settings.verification !== 'none' && settings.secret === '') {
		// Fail closed: a check that cannot be made must not let deliveries through.
		return { ok: false, status: 401, error: 'Webhook secret not configured' };
	}
	const early = checkBeforeParsing(
		{ rawBody: rawBytes(request.rawBody), headers, query: request.query },
		settings,
		now,
	);
	if (!early.ok) return { ok: false, status: 401, error: early.reason };

	const parsed = parseBody(request.rawBody, headerValue(headers, 'content-type'), request.body);
	if (!parsed.ok) return { ok: false, status: 400, error: parsed.reason };

	const batch = Array.isArray(parsed.body);
	const received = Array.isArray(parsed.body) ? parsed.body : [parsed.body];
	const inBody = checkBodyFields(received, settings);
	if (!inBody.ok) return { ok: false, status: 401, error: inBody.reason };
	const entries = received.map((entry, index) => readEntry(entry, index, batch, headers, settings));
	return { ok: true, delivery: { headers, entries } };
}

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

/**
 * Which check of ./verify.ts each verification scheme (triggerSettings.ts) makes with the node's settings.
 * Two steps, because a secret field can only be read once the body is parsed, and
 * every other scheme must pass before the body is read at all.
 */

/** What a check before parsing reads: the raw bytes, the headers and the query string. */
interface UnparsedDelivery {
	rawBody: Buffer;
	headers: HeaderMap;
	query: unknown;
}

/** Checks the schemes that read only headers, query and raw bytes; `checkBodyFields` runs after parsing. */
function checkBeforeParsing(
	delivery: UnparsedDelivery,
	settings: TriggerSettings,
	now: number,
): VerifyResult {
	const { rawBody, headers } = delivery;
	const { secret } = settings;
	switch (settings.verification) {
		case 'standardWebhooks':
			return verifyStandardWebhooks(rawBody, headers, secret, now, settings.timestampTolerance);
		case 'token':
			return settings.tokenLocation === 'header'
				? verifyHeaderToken(headers, settings.headerName, secret)
				: verifyQueryToken(
						isRecord(delivery.query) ? delivery.query : {},
						settings.queryParameterName,
						secret,
					);
		case 'hmac':
			return verifyHmac(rawBody, headers, secret, {
				header: settings.hmacHeader,
				algorithm: settings.hmacAlgorithm,
				encoding: settings.hmacEncoding,
				prefix: settings.hmacPrefix,
			});
		default:
			return { ok: true };
	}
}

/** The secret field scheme: every event of a batch must carry the secret, or none starts. */
function checkBodyFields(entries: PlainObject[], settings: TriggerSettings): VerifyResult {
	if (settings.verification !== 'bodyField') return { ok: true };
	for (const entry of entries) {
		const result = verifyBodyField(entry, settings.keyField, settings.secret);
		if (!result.ok) return result;
	}
	return { ok: true };
}

/** What of a delivery is masked by value or by place: the webhook secret, its body field, credential headers. */

/** Headers that carry credentials of some kind; masked when headers are included in the output. */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key'];

/**
 * The forms of the webhook secret to mask: as configured, trimmed, and a Standard Webhooks secret's
 * base64 part on its own (a sender may echo the key without its `whsec_` prefix); and every other
 * secret the credentials hold, as they hold it.
 */
export function secretMask(secret: unknown, others: readonly string[] = []): SecretMask {
	const raw = typeof secret === 'string' ? secret : '';
	const trimmed = raw.trim();
	const key = trimmed.startsWith('whsec_') ? trimmed.slice('whsec_'.length) : undefined;
	return new SecretMask([raw, trimmed, key, ...others, ...others.map((other) => other.trim())]);
}

/** Masks the body field that carried the secret, whatever its type. */
function maskField(entry: PlainObject, field: string): void {
	const path = field.trim();
	if (Object.hasOwn(entry, path)) {
		entry[path] = REDACTED;
		return;
	}
	const keys = path.split('.');
	const node = getObjectPath(entry, keys.slice(0, -1).join('.'));
	const last = keys[keys.length - 1];
	if (isRecord(node) && Object.hasOwn(node, last)) node[last] = REDACTED;
}

/** The headers for an item: credential headers, and any header holding the secret in any form, masked whole. */
export function maskHeaders(
	headers: HeaderMap,
	settings: TriggerSettings,
	mask: SecretMask,
): PlainObject {
	const secretHeaders = new Set(SECRET_HEADERS);
	if (settings.verification === 'token' && settings.tokenLocation === 'header') {
		secretHeaders.add(settings.headerName.toLowerCase());
	}
	const masked: PlainObject = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		const texts = Array.isArray(value) ? value : [value];
		const leaks = texts.some((text) => mask.found(text));
		// defineProperty: a header named `__proto__` stays a plain field of the item.
		Object.defineProperty(masked, name, {
			value: secretHeaders.has(name) || leaks ? REDACTED : value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return masked;
}
