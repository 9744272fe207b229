import type { PlainObject } from '../shared/json';
import { isRecord } from '../shared/json';
import { parseForm } from './form';
import { WEBHOOK_JSON_FIELDS } from './payloadStyles';

/**
 * Reading a delivery's body. The service documents no payload shape (spec §6: "Payload shape of each
 * webhook event: not shown"), so this accepts the formats chat services commonly send: JSON, form
 * fields (PHP `http_build_query` style included, ./form.ts) and JSON inside a form field.
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
