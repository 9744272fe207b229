import type { PlainObject } from '../shared/json';
import { asText, fieldOf, isRecord } from '../shared/json';
import { WEBHOOK_ENVELOPES, WEBHOOK_JSON_FIELDS } from '../shared/vocabulary/envelopes';
import type { HeaderMap } from './util';
import { headerValue } from './util';

/**
 * Reading what a delivery carries. The service documents no payload shape (spec §6: "Payload shape of
 * each webhook event: not shown"), so everything here accepts the shapes chat services commonly send:
 * JSON, form fields (PHP `http_build_query` style included) and JSON inside a form field.
 */

export type ParsedBody = PlainObject | PlainObject[];

export type ParseResult = { ok: true; body: ParsedBody } | { ok: false; reason: string };

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const MAX_FORM_KEYS = 1000;

/**
 * Longest Content-Type read. Real ones are a few dozen characters; a longer one is cut before the
 * charset is looked for, so the search costs the same whatever the sender puts in the header.
 */
export const MAX_CONTENT_TYPE_LENGTH = 256;

function charsetOf(contentType: string | undefined): BufferEncoding {
	const text = (contentType ?? '').slice(0, MAX_CONTENT_TYPE_LENGTH);
	const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(text)?.[1]?.toLowerCase();
	if (charset === 'iso-8859-1' || charset === 'latin1' || charset === 'windows-1252') return 'latin1';
	if (charset === 'utf-16le' || charset === 'utf16le') return 'utf16le';
	if (charset === 'us-ascii' || charset === 'ascii') return 'ascii';
	return 'utf8';
}

function mimeOf(contentType: string | undefined): string {
	return (contentType ?? '').slice(0, MAX_CONTENT_TYPE_LENGTH).split(';')[0].trim().toLowerCase();
}

function isJsonMime(mime: string): boolean {
	return mime === 'application/json' || mime === 'text/json' || mime.endsWith('+json');
}

/**
 * Percent-decoding that never throws: invalid escapes stay as they are (as Node's querystring does).
 * Escaped bytes are read in the body's charset (`%E9` is `é` in a latin1 form).
 */
function decodeFormComponent(text: string, encoding: BufferEncoding): string {
	const plus = text.replace(/\+/g, ' ');
	if (!plus.includes('%')) return plus;
	const bytes: number[] = [];
	for (let index = 0; index < plus.length; index++) {
		const char = plus[index];
		if (char === '%' && /^[\da-f]{2}$/i.test(plus.slice(index + 1, index + 3))) {
			bytes.push(parseInt(plus.slice(index + 1, index + 3), 16));
			index += 2;
		} else {
			bytes.push(...Buffer.from(char, encoding));
		}
	}
	return Buffer.from(bytes).toString(encoding);
}

/** `a[b][]` → `['a', 'b', '']`; a plain key → `[key]`; malformed brackets keep the key whole. */
function splitFormKey(key: string): string[] {
	const match = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(key);
	if (!match) return [key];
	const parts = [match[1]];
	for (const segment of match[2].matchAll(/\[([^[\]]*)\]/g)) parts.push(segment[1]);
	return parts;
}

function appendValue(target: PlainObject, key: string, value: string): void {
	const existing = fieldOf(target, key);
	if (existing === undefined) target[key] = value;
	else if (Array.isArray(existing)) existing.push(value);
	else target[key] = [existing, value];
}

/** Places one form field, nesting PHP-style bracket keys; a key that conflicts stays flat. */
function placeFormField(result: PlainObject, rawKey: string, value: string, lengths: WeakMap<PlainObject, number>): void {
	const parts = splitFormKey(rawKey);
	if (parts.some((part) => FORBIDDEN_KEYS.has(part))) return;
	if (parts.length === 1) {
		appendValue(result, rawKey, value);
		return;
	}
	let node: PlainObject = result;
	for (let index = 0; index < parts.length - 1; index++) {
		const part = parts[index];
		const next = fieldOf(node, part);
		if (next === undefined) {
			const child: PlainObject = {};
			node[part] = child;
			node = child;
		} else if (isRecord(next)) {
			node = next;
		} else {
			appendValue(result, rawKey, value);
			return;
		}
	}
	const last = parts[parts.length - 1];
	if (last === '') {
		// Counted, not recounted: `a[]=` a thousand times must not cost a million steps.
		let index = lengths.get(node) ?? Object.keys(node).length;
		while (Object.hasOwn(node, String(index))) index++;
		node[String(index)] = value;
		lengths.set(node, index + 1);
	} else {
		appendValue(node, last, value);
	}
}

/** Form fields like n8n's body parser reads them (repeated keys become lists), with `a[b]=` nesting. */
export function parseForm(text: string, encoding: BufferEncoding = 'utf8'): PlainObject {
	const result: PlainObject = {};
	const lengths = new WeakMap<PlainObject, number>();
	let count = 0;
	for (const piece of text.split('&')) {
		if (piece === '') continue;
		if (++count > MAX_FORM_KEYS) break;
		const equals = piece.indexOf('=');
		const key = decodeFormComponent(equals === -1 ? piece : piece.slice(0, equals), encoding);
		const value = equals === -1 ? '' : decodeFormComponent(piece.slice(equals + 1), encoding);
		if (key !== '') placeFormField(result, key, value, lengths);
	}
	return result;
}

/** `strict`: opening a bracket is enough to claim JSON; otherwise the text must also close it. */
function looksLikeJson(text: string, strict: boolean): boolean {
	const trimmed = text.trim();
	if (strict) return trimmed.startsWith('{') || trimmed.startsWith('[');
	return (
		(trimmed.startsWith('{') && trimmed.endsWith('}')) || (trimmed.startsWith('[') && trimmed.endsWith(']'))
	);
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch {
		return { ok: false };
	}
}

/**
 * Replaces JSON text in the known carrier fields (`payload`, `data`, `json`, ...) by its value.
 * `strict`: a carrier field that looks like JSON but does not parse makes the body malformed.
 */
function expandJsonFields(body: PlainObject, strict: boolean): { ok: true } | { ok: false; reason: string } {
	for (const field of WEBHOOK_JSON_FIELDS) {
		const value = body[field];
		if (typeof value !== 'string' || !looksLikeJson(value, strict)) continue;
		const parsed = tryJson(value);
		if (parsed.ok) body[field] = parsed.value;
		else if (strict) return { ok: false, reason: `Field "${field}" is not valid JSON` };
	}
	return { ok: true };
}

function asParsedBody(value: unknown): ParseResult {
	if (isRecord(value)) return { ok: true, body: value };
	if (Array.isArray(value) && value.every(isRecord)) return { ok: true, body: value };
	return { ok: false, reason: 'Body must be a JSON object' };
}

function parseJsonText(text: string): ParseResult {
	const parsed = tryJson(text);
	if (!parsed.ok) return { ok: false, reason: 'Malformed JSON body' };
	const result = asParsedBody(parsed.value);
	if (result.ok) {
		for (const entry of Array.isArray(result.body) ? result.body : [result.body]) expandJsonFields(entry, false);
	}
	return result;
}

function parseFormText(text: string, encoding: BufferEncoding): ParseResult {
	const body = parseForm(text, encoding);
	if (Object.keys(body).length === 0) return { ok: false, reason: 'Empty form body' };
	const expanded = expandJsonFields(body, true);
	return expanded.ok ? { ok: true, body } : expanded;
}

function fromPreParsed(fallback: unknown): ParseResult | undefined {
	if (!isRecord(fallback) || Object.keys(fallback).length === 0) return undefined;
	const body = structuredCloneJson(fallback);
	if (!isRecord(body)) return undefined;
	const expanded = expandJsonFields(body, true);
	return expanded.ok ? { ok: true, body } : expanded;
}

/** A JSON-safe deep copy (drops functions, Buffers become plain objects); undefined when it cannot be copied. */
function structuredCloneJson(value: unknown): unknown {
	try {
		return JSON.parse(JSON.stringify(value)) as unknown;
	} catch {
		return undefined;
	}
}

/**
 * Parses a delivery's body from its raw bytes and content type.
 *
 * JSON (`application/json`, `+json`), form fields (`application/x-www-form-urlencoded`, with JSON inside
 * a carrier field), and bodies sent with a wrong or missing content type when they clearly are JSON or
 * form fields. `preParsed` (what n8n parsed, e.g. multipart fields) is used only when there are no raw
 * bytes. Never throws: a body that cannot be read gives a short reason for a 400 answer.
 */
export function parseBody(
	raw: Buffer | string | undefined | null,
	contentType: string | undefined,
	preParsed?: unknown,
): ParseResult {
	const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
	if (!bytes || bytes.length === 0) {
		return fromPreParsed(preParsed) ?? { ok: false, reason: 'Empty body' };
	}
	const encoding = charsetOf(contentType);
	const text = bytes.toString(encoding).replace(/^\uFEFF/, '');
	if (text.trim() === '') return { ok: false, reason: 'Empty body' };
	const mime = mimeOf(contentType);

	if (isJsonMime(mime)) return parseJsonText(text);
	if (mime === 'application/x-www-form-urlencoded') {
		// PHP's curl labels a JSON string posted without a content type as form data.
		const trimmed = text.trim();
		if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJsonText(trimmed);
		return parseFormText(trimmed, encoding);
	}
	if (mime === 'multipart/form-data' || mime.endsWith('/xml') || mime.endsWith('+xml')) {
		return fromPreParsed(preParsed) ?? { ok: false, reason: `Unsupported content type ${mime}` };
	}
	// No or a generic content type (text/plain, application/octet-stream, ...): some senders label JSON so.
	const trimmed = text.trim();
	if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJsonText(trimmed);
	if (/^[^=&\s]+=/.test(trimmed) && !/\s/.test(trimmed)) return parseFormText(trimmed, encoding);
	return fromPreParsed(preParsed) ?? { ok: false, reason: 'Body is neither JSON nor form fields' };
}

/**
 * The event's own data inside its envelope: follows `data`, `payload`, `object`, `resource`, `item`,
 * ... down to three levels (`{ data: { object: {...} } }`, `{ data: { item: {...} } }`); the body itself
 * when it has no envelope.
 */
export function unwrapEventData(body: PlainObject): PlainObject {
	let current = body;
	for (let depth = 0; depth < 3; depth++) {
		const key = WEBHOOK_ENVELOPES.find((candidate) => isRecord(current[candidate]));
		if (key === undefined) break;
		current = current[key] as PlainObject;
	}
	return current;
}

/** Whether the body is an envelope: its event data sits under a wrapper key, so its own `id` is the envelope's. */
export function isEnvelope(body: PlainObject): boolean {
	return WEBHOOK_ENVELOPES.some((key) => key !== 'event' && isRecord(body[key]));
}

export type { ExtractedIds } from './ids';
export { extractIds } from './ids';

const DELIVERY_HEADERS_STABLE = [
	'webhook-id',
	'svix-id',
	'x-webhook-id',
	'x-event-id',
	'idempotency-key',
	'x-idempotency-key',
];
/** Some senders change these on every attempt: used last, they still catch a sender that keeps them. */
const DELIVERY_HEADERS_PER_ATTEMPT = ['x-delivery-id', 'x-webhook-delivery', 'x-delivery'];
const DELIVERY_BODY_KEYS = [
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
const DELIVERY_META_OBJECTS = ['webhook', 'event', 'meta', 'metadata', '_meta', 'envelope', 'delivery'];

export interface DeliveryId {
	id: string;
	/** Where it was found: `header webhook-id`, `body.event_id`, `body.id`. */
	source: string;
}

/**
 * The id of the delivery itself, which a sender keeps when it retries: the Standard Webhooks
 * `webhook-id` and similar headers, an event id in the body, the envelope's own `id`
 * (`{ id, event, data: {...} }`), or an id in the envelope's delivery metadata (`webhook.event_id`). A flat body's `id` names the resource, not the delivery, so it is
 * not used: two events about the same conversation must not look like one delivery.
 */
export function deliveryId(body: PlainObject, headers: HeaderMap): DeliveryId | undefined {
	for (const name of DELIVERY_HEADERS_STABLE) {
		const value = asText(headerValue(headers, name));
		if (value !== undefined) return { id: value, source: `header ${name}` };
	}
	for (const key of DELIVERY_BODY_KEYS) {
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
		for (const key of [...DELIVERY_BODY_KEYS, 'id']) {
			const value = asText(meta[key]);
			if (value !== undefined) return { id: value, source: `body.${holder}.${key}` };
		}
	}
	for (const name of DELIVERY_HEADERS_PER_ATTEMPT) {
		const value = asText(headerValue(headers, name));
		if (value !== undefined) return { id: value, source: `header ${name}` };
	}
	return undefined;
}
