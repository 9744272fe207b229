import { createHash } from 'crypto';

import { changeOf, eventRow } from '../shared/eventFacts';
import type { EventKeyParts } from '../shared/eventKey';
import { eventKey } from '../shared/eventKey';
import type { PlainObject } from '../shared/json';
import { asText, fieldOf, isRecord } from '../shared/json';
import { maskSecretFields } from '../shared/secretFields';
import type { SupportBoardEvent } from '../shared/supportBoardEvents';
import { parseBody } from './body';
import type { DeliveryId } from './deliveryId';
import { entryDeliveryId } from './deliveryId';
import type { DetectedEvent } from './detect';
import { recogniseEvent } from './recognise';
import { unwrapEventData } from '../shared/eventData';
import type { ExtractedIds } from './ids';
import { extractIds } from './ids';
import type { OwnMessage } from '../shared/ownMessages';
import { isOwnMessage } from '../shared/ownMessages';
import { maskField } from './mask';
import { checkBeforeParsing, checkBodyFields } from './schemes';
import type { TriggerSettings } from './settings';
import type { HeaderMap } from './util';
import { headerValue, lowerCaseHeaders } from './util';

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
