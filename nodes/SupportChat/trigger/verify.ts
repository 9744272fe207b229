import { createHash, createHmac, timingSafeEqual } from 'crypto';

import type { PlainObject } from '../shared/json';
import { asText, getObjectPath } from '../shared/json';
import type { HeaderMap } from './deliveryHeaders';
import { headerValue, headerValues } from './deliveryHeaders';

/**
 * Delivery verification. The service documents no signature (spec §6: "Signature of deliveries ...:
 * not shown"), so the trigger offers the schemes senders commonly use and the user picks the one the
 * service is set up with. Every check compares in constant time and no reason ever contains a secret.
 */

export type VerifyResult = { ok: true } | { ok: false; reason: string };

const OK: VerifyResult = { ok: true };

function fail(reason: string): VerifyResult {
	return { ok: false, reason };
}

/**
 * Constant-time equality of two secrets or digests of any lengths.
 *
 * `timingSafeEqual` throws on buffers of different lengths, and checking the lengths first tells an
 * attacker the secret's length; comparing SHA-256 digests of both sides avoids both.
 */
function safeEqual(a: Buffer | string, b: Buffer | string): boolean {
	const left = createHash('sha256').update(a).digest();
	const right = createHash('sha256').update(b).digest();
	return timingSafeEqual(left, right);
}

/** Default tolerance of the Standard Webhooks timestamp, as the specification recommends. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The HMAC keys a Standard Webhooks secret stands for: `whsec_` + base64, or (without prefix) base64 or raw. */
function standardWebhooksKeys(secret: string): Buffer[] {
	const trimmed = secret.trim();
	if (trimmed.startsWith('whsec_')) return [Buffer.from(trimmed.slice('whsec_'.length), 'base64')];
	const keys: Buffer[] = [];
	if (/^[\d+/a-z]+={0,2}$/i.test(trimmed) && trimmed.length % 4 === 0) {
		keys.push(Buffer.from(trimmed, 'base64'));
	}
	keys.push(Buffer.from(trimmed, 'utf8'));
	return keys;
}

function firstHeader(headers: HeaderMap, names: string[]): string | undefined {
	for (const name of names) {
		const value = asText(headerValue(headers, name));
		if (value !== undefined) return value;
	}
	return undefined;
}

/**
 * Standard Webhooks (https://www.standardwebhooks.com/): the headers `webhook-id`, `webhook-timestamp`
 * (Unix seconds) and `webhook-signature`, a space-separated list of `v1,<base64 HMAC-SHA256>` over
 * `"<id>.<timestamp>.<raw body>"`, keyed with the secret (`whsec_` + base64). Svix's `svix-*` header
 * names are accepted too. Any one valid `v1` signature passes; signatures of other versions are skipped.
 * A timestamp further than `toleranceSeconds` from `now` (either way) fails, which stops replays.
 *
 * @param rawBody the body exactly as received; a re-serialised body does not verify
 * @param now the current time in milliseconds
 */
export function verifyStandardWebhooks(
	rawBody: Buffer,
	headers: HeaderMap,
	secret: string,
	now: number,
	toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): VerifyResult {
	const id = firstHeader(headers, ['webhook-id', 'svix-id']);
	const timestamp = firstHeader(headers, ['webhook-timestamp', 'svix-timestamp']);
	const signatureHeader = [
		...headerValues(headers, 'webhook-signature'),
		...headerValues(headers, 'svix-signature'),
	].join(' ');
	if (id === undefined || timestamp === undefined || signatureHeader.trim() === '') {
		return fail('Missing webhook-id, webhook-timestamp or webhook-signature header');
	}
	if (!/^\d{1,16}$/.test(timestamp)) return fail('Invalid webhook-timestamp header');
	const seconds = Number(timestamp);
	const tolerance =
		Number.isFinite(toleranceSeconds) && toleranceSeconds >= 0
			? toleranceSeconds
			: DEFAULT_TOLERANCE_SECONDS;
	if (Math.abs(now / 1000 - seconds) > tolerance)
		return fail('Timestamp outside the allowed tolerance');

	const signatures = signatureHeader
		.split(/\s+/)
		.map((entry) => entry.replace(/,$/, ''))
		.filter((entry) => entry.startsWith('v1,'))
		.map((entry) => entry.slice('v1,'.length))
		.filter((value) => /^[\w+/-]+={0,2}$/.test(value));
	if (signatures.length === 0) return fail('No v1 signature in webhook-signature header');

	const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), rawBody]);
	let valid = false;
	for (const key of standardWebhooksKeys(secret)) {
		if (key.length === 0) continue;
		const expected = createHmac('sha256', key).update(signed).digest();
		for (const signature of signatures) {
			// Every candidate is compared, so the time taken does not tell which one matched.
			if (safeEqual(expected, Buffer.from(signature, 'base64'))) valid = true;
		}
	}
	return valid ? OK : fail('Invalid signature');
}

/** Removes an auth scheme word (`Bearer abc` → `abc`) from a token header's value. */
function stripScheme(value: string): string {
	return value.replace(/^(bearer|token|basic)\s+/i, '').trim();
}

/**
 * A shared token in the URL's query string (`https://.../webhook?token=<secret>`), for senders that can
 * only be given a URL. The token travels in the URL, so it can show up in proxy and server logs.
 */
export function verifyQueryToken(
	query: Record<string, unknown>,
	parameter: string,
	secret: string,
): VerifyResult {
	// The parameter's name is the user's, the query the sender's: only the query's own fields count.
	const raw = Object.hasOwn(query, parameter) ? query[parameter] : undefined;
	const value = Array.isArray(raw) ? raw.find((entry) => typeof entry === 'string') : raw;
	if (typeof value !== 'string' || value === '')
		return fail(`Missing "${parameter}" query parameter`);
	return safeEqual(value, secret) ? OK : fail('Invalid token');
}

/** A shared token in a request header (`X-Webhook-Token: <secret>`, or `Authorization: Bearer <secret>`). */
export function verifyHeaderToken(
	headers: HeaderMap,
	header: string,
	secret: string,
): VerifyResult {
	const raw = headerValue(headers, header);
	if (raw === undefined || raw.trim() === '') return fail(`Missing ${header} header`);
	const value = stripScheme(raw.trim());
	return safeEqual(value, secret) || safeEqual(raw.trim(), secret) ? OK : fail('Invalid token');
}

/** The HMAC algorithms the trigger offers; anything else (an expression's `md5`) is refused. */
const HMAC_ALGORITHMS = ['sha1', 'sha256', 'sha512'] as const;
export type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number];
export type HmacEncoding = 'hex' | 'base64';

interface HmacOptions {
	/** Header carrying the signature, e.g. `X-Signature` or `X-Hub-Signature-256`. */
	header: string;
	/** As the node's parameter gives it: an expression may give one the trigger does not offer. */
	algorithm: string;
	encoding: HmacEncoding;
	/** Text before the digest, e.g. `sha256=`; optional on the wire. */
	prefix?: string;
}

function decodeDigest(value: string, encoding: HmacEncoding): Buffer | undefined {
	if (encoding === 'hex') {
		return /^(?:[\da-f]{2})+$/i.test(value) ? Buffer.from(value, 'hex') : undefined;
	}
	return /^[\w+/-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64') : undefined;
}

/**
 * An HMAC of the raw body keyed with the secret, in a header: `X-Signature: sha256=<hex>` and the like.
 * The header may list several signatures separated by commas or spaces; one valid is enough.
 *
 * @param rawBody the body exactly as received
 */
export function verifyHmac(
	rawBody: Buffer,
	headers: HeaderMap,
	secret: string,
	options: HmacOptions,
): VerifyResult {
	const raw = headerValues(headers, options.header).join(',');
	if (raw.trim() === '') return fail(`Missing ${options.header} header`);
	// Looked up, not cast: Node's crypto would take `md5` as readily as `sha256`.
	const algorithm = HMAC_ALGORITHMS.find((offered) => offered === options.algorithm);
	if (algorithm === undefined) return fail('Unsupported HMAC algorithm');
	const expected = createHmac(algorithm, secret).update(rawBody).digest();
	const prefix = (options.prefix ?? '').trim().toLowerCase();
	let valid = false;
	for (const part of raw.split(/[\s,]+/)) {
		const value =
			prefix !== '' && part.toLowerCase().startsWith(prefix) ? part.slice(prefix.length) : part;
		const provided = decodeDigest(value, options.encoding);
		if (provided !== undefined && safeEqual(expected, provided)) valid = true;
	}
	return valid ? OK : fail('Invalid signature');
}

/**
 * A secret sent inside the body itself, as some PHP chat services do (`key=<secret>` among the form
 * fields, or `"key": "<secret>"` in JSON). `field` is a name or a dot path (`auth.key`).
 */
export function verifyBodyField(body: PlainObject, field: string, secret: string): VerifyResult {
	const path = field.trim();
	const raw = Object.prototype.hasOwnProperty.call(body, path)
		? body[path]
		: getObjectPath(body, path);
	const value = typeof raw === 'string' ? raw : asText(raw);
	if (value === undefined || value === '') return fail(`Missing "${path}" field`);
	return safeEqual(value, secret) ? OK : fail('Invalid secret key');
}
