import type { PlainObject } from '../shared/json';
import { isRecord, fieldOf } from '../shared/json';
import { WEBHOOK_JSON_FIELDS } from './payloadStyles';

/**
 * Reading a delivery's body. The service documents no payload shape (spec §6: "Payload shape of each
 * webhook event: not shown"), so this accepts the formats chat services commonly send: JSON, form
 * fields (PHP `http_build_query` style included, below) and JSON inside a form field.
 */

type ParsedBody = PlainObject | PlainObject[];

type ParseResult = { ok: true; body: ParsedBody } | { ok: false; reason: string };

/**
 * Longest Content-Type read. Real ones are a few dozen characters; a longer one is cut before the
 * charset is looked for, so the search costs the same whatever the sender puts in the header.
 */
const MAX_CONTENT_TYPE_LENGTH = 256;

function charsetOf(contentType: string | undefined): BufferEncoding {
	const text = (contentType ?? '').slice(0, MAX_CONTENT_TYPE_LENGTH);
	const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(text)?.[1]?.toLowerCase();
	if (charset === 'iso-8859-1' || charset === 'latin1' || charset === 'windows-1252')
		return 'latin1';
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

/** `strict`: opening a bracket is enough to claim JSON; otherwise the text must also close it. */
function looksLikeJson(text: string, strict: boolean): boolean {
	const trimmed = text.trim();
	if (strict) return trimmed.startsWith('{') || trimmed.startsWith('[');
	return (
		(trimmed.startsWith('{') && trimmed.endsWith('}')) ||
		(trimmed.startsWith('[') && trimmed.endsWith(']'))
	);
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return { ok: false };
	}
}

/**
 * Replaces JSON text in the known carrier fields (`payload`, `data`, `json`, ...) by its value.
 * `strict`: a carrier field that looks like JSON but does not parse makes the body malformed.
 */
function expandJsonFields(
	body: PlainObject,
	strict: boolean,
): { ok: true } | { ok: false; reason: string } {
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
		for (const entry of Array.isArray(result.body) ? result.body : [result.body])
			expandJsonFields(entry, false);
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
		const copy: unknown = JSON.parse(JSON.stringify(value));
		return copy;
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
 * Form fields (`application/x-www-form-urlencoded`) as PHP senders post them: `http_build_query`
 * style, `a[b][]=` nesting included, in the body's charset.
 */

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const MAX_FORM_KEYS = 1000;

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
function placeFormField(
	result: PlainObject,
	rawKey: string,
	value: string,
	lengths: WeakMap<PlainObject, number>,
): void {
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
function parseForm(text: string, encoding: BufferEncoding = 'utf8'): PlainObject {
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
