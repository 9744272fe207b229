/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { createHmac, randomBytes } from 'crypto';

import {
	verifyBodyField,
	verifyHeaderToken,
	verifyHmac,
	verifyQueryToken,
	verifyStandardWebhooks,
} from '../../../nodes/SupportChat/trigger/verify';
import type { VerifyResult } from '../../../nodes/SupportChat/trigger/verify';

const KEY = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'utf8');
const SECRET = `whsec_${KEY.toString('base64')}`;
const NOW = 1_750_000_000_000;
const TS = String(Math.floor(NOW / 1000));
const ID = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
const BODY = Buffer.from('{"event":"message.created","data":{"conversation_id":5,"message":"Hi"}}');

function sign(key: Buffer, id: string, timestamp: string, body: Buffer): string {
	const digest = createHmac('sha256', key)
		.update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]))
		.digest('base64');
	return `v1,${digest}`;
}

function standardHeaders(
	overrides: Record<string, string | undefined> = {},
): Record<string, string> {
	const headers: Record<string, string | undefined> = {
		'webhook-id': ID,
		'webhook-timestamp': TS,
		'webhook-signature': sign(KEY, ID, TS, BODY),
		...overrides,
	};
	return Object.fromEntries(
		Object.entries(headers).filter(([, value]) => value !== undefined),
	) as Record<string, string>;
}

function expectNoSecret(result: VerifyResult, ...secrets: string[]): void {
	if (result.ok) return;
	for (const secret of secrets) expect(result.reason).not.toContain(secret);
}

describe('the constant-time comparison, through the checks that use it', () => {
	/** A token given in the query compared with the secret; a digest in a header compared with the body's. */
	const matches = (given: Buffer | string, secret: string) =>
		typeof given === 'string'
			? verifyQueryToken({ token: given }, 'token', secret).ok
			: verifyHmac(BODY, { 'x-signature': given.toString('hex') }, secret, {
					header: 'X-Signature',
					algorithm: 'sha256',
					encoding: 'hex',
				}).ok;

	test.each<[string, Buffer | string, string, boolean]>([
		['same', 'abc', 'abc', true],
		['different', 'abc', 'abd', false],
		['different lengths', 'abc', 'abcd', false],
		// An empty token in the query is refused before any comparison: here the secret is the empty side.
		['empty and non-empty', 'a', '', false],
		['buffers', createHmac('sha256', 'k').update(BODY).digest(), 'k', true],
	])('%s', (_label, given, secret, expected) => {
		expect(matches(given, secret)).toBe(expected);
	});
});

describe('verifyStandardWebhooks', () => {
	test.each<[string, Buffer, Record<string, string>, string, boolean, string]>([
		['valid', BODY, standardHeaders(), SECRET, true, ''],
		[
			'secret without whsec_ prefix (base64)',
			BODY,
			standardHeaders(),
			KEY.toString('base64'),
			true,
			'',
		],
		[
			'raw secret used as the key',
			BODY,
			standardHeaders({ 'webhook-signature': sign(Buffer.from('plain secret'), ID, TS, BODY) }),
			'plain secret',
			true,
			'',
		],
		[
			'tampered body',
			Buffer.from(BODY.toString().replace('Hi', 'Ho')),
			standardHeaders(),
			SECRET,
			false,
			'Invalid signature',
		],
		[
			'wrong secret',
			BODY,
			standardHeaders(),
			`whsec_${randomBytes(24).toString('base64')}`,
			false,
			'Invalid signature',
		],
		[
			'tampered id',
			BODY,
			standardHeaders({ 'webhook-id': 'msg_other' }),
			SECRET,
			false,
			'Invalid signature',
		],
		[
			'stale timestamp (6 minutes old)',
			BODY,
			standardHeaders({
				'webhook-timestamp': String(Number(TS) - 360),
				'webhook-signature': sign(KEY, ID, String(Number(TS) - 360), BODY),
			}),
			SECRET,
			false,
			'Timestamp outside the allowed tolerance',
		],
		[
			'timestamp from the future',
			BODY,
			standardHeaders({
				'webhook-timestamp': String(Number(TS) + 3600),
				'webhook-signature': sign(KEY, ID, String(Number(TS) + 3600), BODY),
			}),
			SECRET,
			false,
			'Timestamp outside the allowed tolerance',
		],
		[
			'4 minutes old is within the default tolerance',
			BODY,
			standardHeaders({
				'webhook-timestamp': String(Number(TS) - 240),
				'webhook-signature': sign(KEY, ID, String(Number(TS) - 240), BODY),
			}),
			SECRET,
			true,
			'',
		],
		[
			'several signatures, one valid',
			BODY,
			standardHeaders({
				'webhook-signature': `v1,${randomBytes(32).toString('base64')} v1a,${randomBytes(64).toString('base64')} ${sign(KEY, ID, TS, BODY)}`,
			}),
			SECRET,
			true,
			'',
		],
		[
			'several signatures, none valid',
			BODY,
			standardHeaders({
				'webhook-signature': `v1,${randomBytes(32).toString('base64')} v1,${randomBytes(32).toString('base64')}`,
			}),
			SECRET,
			false,
			'Invalid signature',
		],
		[
			'only other versions',
			BODY,
			standardHeaders({ 'webhook-signature': `v2,${sign(KEY, ID, TS, BODY).slice(3)}` }),
			SECRET,
			false,
			'No v1 signature in webhook-signature header',
		],
		[
			'missing webhook-id',
			BODY,
			standardHeaders({ 'webhook-id': undefined }),
			SECRET,
			false,
			'Missing webhook-id, webhook-timestamp or webhook-signature header',
		],
		[
			'missing timestamp',
			BODY,
			standardHeaders({ 'webhook-timestamp': undefined }),
			SECRET,
			false,
			'Missing webhook-id, webhook-timestamp or webhook-signature header',
		],
		[
			'missing signature',
			BODY,
			standardHeaders({ 'webhook-signature': undefined }),
			SECRET,
			false,
			'Missing webhook-id, webhook-timestamp or webhook-signature header',
		],
		[
			'no headers at all',
			BODY,
			{},
			SECRET,
			false,
			'Missing webhook-id, webhook-timestamp or webhook-signature header',
		],
		[
			'non-numeric timestamp',
			BODY,
			standardHeaders({ 'webhook-timestamp': '2025-01-01T00:00:00Z' }),
			SECRET,
			false,
			'Invalid webhook-timestamp header',
		],
		[
			'garbage signature',
			BODY,
			standardHeaders({ 'webhook-signature': 'v1,***' }),
			SECRET,
			false,
			'No v1 signature in webhook-signature header',
		],
	])('%s', (_label, body, headers, secret, ok, reason) => {
		const result = verifyStandardWebhooks(body, headers, secret, NOW);
		expect(result.ok).toBe(ok);
		if (!result.ok) expect(result.reason).toBe(reason);
		expectNoSecret(result, secret, KEY.toString('base64'));
	});

	test('svix-* header names are accepted', () => {
		const headers = {
			'svix-id': ID,
			'svix-timestamp': TS,
			'svix-signature': sign(KEY, ID, TS, BODY),
		};
		expect(verifyStandardWebhooks(BODY, headers, SECRET, NOW)).toEqual({ ok: true });
	});

	test('a custom tolerance', () => {
		const old = String(Number(TS) - 100);
		const headers = standardHeaders({
			'webhook-timestamp': old,
			'webhook-signature': sign(KEY, ID, old, BODY),
		});
		expect(verifyStandardWebhooks(BODY, headers, SECRET, NOW, 60).ok).toBe(false);
		expect(verifyStandardWebhooks(BODY, headers, SECRET, NOW, 120).ok).toBe(true);
	});

	test('repeated signature headers (as a list) are all read', () => {
		const headers = {
			...standardHeaders(),
			'webhook-signature': [`v1,${randomBytes(32).toString('base64')}`, sign(KEY, ID, TS, BODY)],
		};
		expect(verifyStandardWebhooks(BODY, headers, SECRET, NOW)).toEqual({ ok: true });
	});
});

describe('verifyHmac', () => {
	const secret = 'hmac-shared-secret';
	const hex = createHmac('sha256', secret).update(BODY).digest('hex');
	const b64 = createHmac('sha256', secret).update(BODY).digest('base64');
	const sha1 = createHmac('sha1', secret).update(BODY).digest('hex');
	const sha512 = createHmac('sha512', secret).update(BODY).digest('base64');
	const base = { header: 'X-Signature', algorithm: 'sha256' as const, encoding: 'hex' as const };

	test.each<
		[string, Buffer, Record<string, string>, Parameters<typeof verifyHmac>[3], boolean, string]
	>([
		['hex', BODY, { 'x-signature': hex }, base, true, ''],
		['upper-case hex', BODY, { 'x-signature': hex.toUpperCase() }, base, true, ''],
		[
			'prefixed',
			BODY,
			{ 'x-hub-signature-256': `sha256=${hex}` },
			{ ...base, header: 'X-Hub-Signature-256', prefix: 'sha256=' },
			true,
			'',
		],
		[
			'prefix configured but absent',
			BODY,
			{ 'x-signature': hex },
			{ ...base, prefix: 'sha256=' },
			true,
			'',
		],
		['base64', BODY, { 'x-signature': b64 }, { ...base, encoding: 'base64' }, true, ''],
		['sha1', BODY, { 'x-signature': sha1 }, { ...base, algorithm: 'sha1' }, true, ''],
		[
			'sha512 base64',
			BODY,
			{ 'x-signature': sha512 },
			{ ...base, algorithm: 'sha512', encoding: 'base64' },
			true,
			'',
		],
		['several, one valid', BODY, { 'x-signature': `deadbeef, ${hex}` }, base, true, ''],
		[
			'tampered body',
			Buffer.from(`${BODY.toString()} `),
			{ 'x-signature': hex },
			base,
			false,
			'Invalid signature',
		],
		[
			'wrong algorithm',
			BODY,
			{ 'x-signature': hex },
			{ ...base, algorithm: 'sha1' },
			false,
			'Invalid signature',
		],
		[
			'hex read as base64',
			BODY,
			{ 'x-signature': hex },
			{ ...base, encoding: 'base64' },
			false,
			'Invalid signature',
		],
		[
			'valid prefix of a longer value',
			BODY,
			{ 'x-signature': `${hex}zz` },
			base,
			false,
			'Invalid signature',
		],
		['missing header', BODY, {}, base, false, 'Missing X-Signature header'],
		[
			'unsupported algorithm',
			BODY,
			{ 'x-signature': hex },
			{ ...base, algorithm: 'md4x' },
			false,
			'Unsupported HMAC algorithm',
		],
		// Node's crypto knows md5; an expression giving it must not weaken verification to it.
		[
			'md5 given by expression, though a valid md5 signature',
			BODY,
			{ 'x-signature': createHmac('md5', SECRET).update(BODY).digest('hex') },
			{ ...base, algorithm: 'md5' },
			false,
			'Unsupported HMAC algorithm',
		],
	])('%s', (_label, body, headers, options, ok, reason) => {
		const result = verifyHmac(body, headers, secret, options);
		expect(result.ok).toBe(ok);
		if (!result.ok) expect(result.reason).toBe(reason);
		expectNoSecret(result, secret);
	});

	test('wrong secret', () => {
		expect(verifyHmac(BODY, { 'x-signature': hex }, 'another-secret', base)).toEqual({
			ok: false,
			reason: 'Invalid signature',
		});
	});
});

describe('shared token', () => {
	const secret = 'tok_9f8e7d6c5b4a';
	test.each<[string, VerifyResult]>([
		['query: valid', verifyQueryToken({ token: secret }, 'token', secret)],
		['query: list, first string', verifyQueryToken({ token: [secret, 'x'] }, 'token', secret)],
		['query: custom name', verifyQueryToken({ key: secret }, 'key', secret)],
		['header: valid', verifyHeaderToken({ 'x-webhook-token': secret }, 'X-Webhook-Token', secret)],
		[
			'header: bearer',
			verifyHeaderToken({ authorization: `Bearer ${secret}` }, 'Authorization', secret),
		],
	])('%s', (_label, result) => {
		expect(result).toEqual({ ok: true });
	});

	test.each<[string, VerifyResult, string]>([
		['query: wrong', verifyQueryToken({ token: 'nope' }, 'token', secret), 'Invalid token'],
		['query: longer', verifyQueryToken({ token: `${secret}x` }, 'token', secret), 'Invalid token'],
		['query: missing', verifyQueryToken({}, 'token', secret), 'Missing "token" query parameter'],
		[
			'query: object',
			verifyQueryToken({ token: { a: 1 } }, 'token', secret),
			'Missing "token" query parameter',
		],
		[
			'header: wrong',
			verifyHeaderToken({ 'x-webhook-token': 'nope' }, 'X-Webhook-Token', secret),
			'Invalid token',
		],
		[
			'header: missing',
			verifyHeaderToken({}, 'X-Webhook-Token', secret),
			'Missing X-Webhook-Token header',
		],
	])('%s', (_label, result, reason) => {
		expect(result).toEqual({ ok: false, reason });
		expectNoSecret(result, secret);
	});
});

describe('verifyBodyField', () => {
	const secret = 'sb-secret-key';
	test.each<[string, Record<string, unknown>, string, VerifyResult]>([
		['top-level key', { function: 'message-sent', key: secret }, 'key', { ok: true }],
		['dot path', { auth: { key: secret } }, 'auth.key', { ok: true }],
		['literal dotted key', { 'auth.key': secret }, 'auth.key', { ok: true }],
		['numeric secret', { key: 12345 }, 'key', { ok: true }],
		['wrong', { key: 'nope' }, 'key', { ok: false, reason: 'Invalid secret key' }],
		['missing', { function: 'message-sent' }, 'key', { ok: false, reason: 'Missing "key" field' }],
		['empty', { key: '' }, 'key', { ok: false, reason: 'Missing "key" field' }],
		['object', { key: { value: secret } }, 'key', { ok: false, reason: 'Missing "key" field' }],
	])('%s', (_label, body, field, expected) => {
		const expectedSecret = field === 'key' && typeof body.key === 'number' ? '12345' : secret;
		const result = verifyBodyField(body, field, expectedSecret);
		expect(result).toEqual(expected);
		expectNoSecret(result, expectedSecret);
	});
});
