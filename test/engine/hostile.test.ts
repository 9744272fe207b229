/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * A hostile or broken service, met by the node in the real engine (issue 8): redirects that would carry
 * the token away or send a write twice, answers that trickle or inflate, 2xx answers that are not
 * successes, a service that echoes the token, and malformed Retry-After headers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { SecretMask } from '../../nodes/SupportChat/shared/secrets';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { EngineRun } from '../helpers/engine';
import { byId, jsonOf, runAction, TOKEN } from '../helpers/supportChat';

/** Another origin: records what reaches it, answers every request with a user. */
interface Elsewhere {
	url: string;
	received: Array<{ method: string; url: string; authorization?: string; body: string }>;
	close(): Promise<void>;
}

async function startElsewhere(host = '127.0.0.1'): Promise<Elsewhere> {
	const received: Elsewhere['received'] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			received.push({
				method: req.method ?? '',
				url: req.url ?? '',
				authorization: req.headers.authorization,
				body: Buffer.concat(chunks).toString(),
			});
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ id: 'u_elsewhere', name: 'Not the service' }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://${host}:${port}`,
		received,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

let sandbox: Sandbox;
let elsewhere: Elsewhere;

beforeAll(async () => {
	sandbox = await startSandbox({
		token: TOKEN,
		pagination: 'page',
		pageSize: 20,
		seed: { users: 5, conversations: 3 },
	});
	elsewhere = await startElsewhere();
});
afterAll(async () => {
	await sandbox.close();
	await elsewhere.close();
});
beforeEach(() => {
	sandbox.reset();
	elsewhere.received.length = 0;
});

const fast = { maxRetryWait: 5 };
const userId = () => sandbox.state.users[0].id;
const conversationId = () => sandbox.state.conversations[0].id;
const getUser = (options: Record<string, unknown> = {}) =>
	runAction(sandbox, {
		resource: 'user',
		operation: 'get',
		userId: byId(userId()),
		options: { ...fast, ...options },
	});
const sendMessage = (options: Record<string, unknown> = {}) =>
	runAction(sandbox, {
		resource: 'message',
		operation: 'send',
		conversationId: byId(conversationId()),
		message: 'hello',
		messageType: 'agent',
		options: { ...fast, ...options },
	});
const closeConversation = () =>
	runAction(sandbox, {
		resource: 'conversation',
		operation: 'close',
		conversationId: byId(conversationId()),
		options: fast,
	});

/** Everything the run kept (items, errors, descriptions), as n8n would store it. */
const stored = (run: EngineRun) => JSON.stringify(run.run.data);

function expectNoToken(run: EngineRun): void {
	const text = stored(run);
	// No form of the token the mask knows (raw, URL-encoded, base64) is in what the run kept.
	expect(new SecretMask([TOKEN]).found(text)).toBe(false);
}

describe('redirects never carry the token to another origin, nor send a write twice', () => {
	it.each([301, 302, 307, 308])(
		'GET answered %i to another port: nothing reaches it, the error says where',
		async (status) => {
			sandbox.fault({
				kind: 'redirect',
				status,
				location: `${elsewhere.url}/script/include/api/users/u_x`,
			});
			const run = await getUser();
			expect(elsewhere.received).toEqual([]);
			expect(run.error('Support Chat')).toMatchObject({
				name: 'NodeApiError',
				// Where, by its origin: a URL the service chose is quoted by the rule for URLs (shared/quotedUrls).
				message: expect.stringContaining(`redirect (${status}) to ${elsewhere.url}/… `),
				description: expect.stringContaining('Base URL'),
			});
			expect(sandbox.requests).toHaveLength(1);
		},
	);

	it('Timeout covers the whole answer, redirects included: each hop does not start the clock again', async () => {
		const here = `${sandbox.baseUrl}/users/${userId()}`;
		sandbox.fault({ kind: 'redirect', delayMs: 600, location: `${here}?hop=1` });
		sandbox.fault({ kind: 'redirect', delayMs: 600, location: `${here}?hop=2` });
		const run = await getUser({ timeout: 1, maxAttempts: 1 });
		expect(run.status).toBe('error');
		expect(run.error('Support Chat')?.message).toContain('Could not reach the service');
		// Two hops of 600 ms each fit a 1 s Timeout one by one, not together: the answer is never asked for.
		expect(sandbox.requests.map((r) => r.query.hop)).toEqual([undefined, '1']);
	});

	it('GET answered with a redirect to another host name of the same machine: refused too', async () => {
		const port = new URL(sandbox.origin).port;
		sandbox.fault({
			kind: 'redirect',
			status: 301,
			location: `http://localhost:${port}/script/include/api/users/${userId()}`,
		});
		const run = await getUser();
		expect(run.error('Support Chat')?.message).toContain('another address');
		expect(sandbox.requests).toHaveLength(1);
	});

	it('GET answered with a redirect on the service itself is followed', async () => {
		sandbox.fault({
			kind: 'redirect',
			status: 301,
			location: `/script/include/api/users/${userId()}/`,
		});
		const run = await getUser();
		expect(run.status).toBe('success');
		expect(jsonOf(run)[0]).toMatchObject({ id: userId() });
		expect(sandbox.requests.map((r) => r.status)).toEqual([301, 200]);
	});

	it('redirects in a circle stop at once, with few requests', async () => {
		sandbox.fault({
			kind: 'redirect',
			status: 302,
			location: `/script/include/api/users/${userId()}`,
			times: null as unknown as number,
		});
		const run = await getUser();
		expect(run.error('Support Chat')?.message).toContain('in a circle');
		expect(sandbox.requests.length).toBeLessThanOrEqual(2);
	});

	it('a POST answered 307 to itself is sent once and fails, saying nothing is sent twice', async () => {
		const before = sandbox.state.messages.length;
		sandbox.fault({
			method: 'POST',
			kind: 'redirect',
			status: 307,
			location: '/script/include/api/messages',
			times: null as unknown as number,
		});
		const run = await sendMessage();
		expect(run.error('Support Chat')).toMatchObject({
			message: expect.stringContaining('does not send a POST again'),
		});
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.state.messages).toHaveLength(before);
	});

	it('a POST answered 307 to another origin: neither body nor token goes there', async () => {
		sandbox.fault({
			method: 'POST',
			kind: 'redirect',
			status: 307,
			location: `${elsewhere.url}/collect`,
		});
		const run = await sendMessage();
		expect(run.status).toBe('error');
		expect(elsewhere.received).toEqual([]);
	});
});

describe('answers are bounded in time and size', () => {
	it('a body trickled one byte at a time fails at the Timeout, and a read is retried within Max Attempts', async () => {
		sandbox.fault({ kind: 'trickle', intervalMs: 200, bytes: 400, times: 5 });
		const run = await getUser({ timeout: 1, maxAttempts: 2 });
		expect(run.error('Support Chat')).toMatchObject({
			message: expect.stringContaining(
				'did not arrive in full within Timeout (1 s) (gave up after 2 attempts)',
			),
		});
		expect(sandbox.requests).toHaveLength(2);
	});

	it('a gzip bomb (600 KB inflating to 600 MB) fails at Max Response Size, once, without holding it', async () => {
		sandbox.fault({ kind: 'gzip-bomb', times: 5 });
		const before = process.memoryUsage().rss;
		const run = await getUser();
		const grown = process.memoryUsage().rss - before;
		expect(run.error('Support Chat')).toMatchObject({
			message: expect.stringContaining('larger than Max Response Size (32 MB)'),
			description: expect.stringContaining('Max Response Size'),
		});
		expect(sandbox.requests).toHaveLength(1);
		expect(grown).toBeLessThan(300 * 1024 * 1024);
	}, 60_000);

	it('Max Response Size is the user’s to set', async () => {
		sandbox.fault({ kind: 'gzip-bomb', inflatedBytes: 3 * 1024 * 1024 });
		const run = await getUser({ maxResponseSize: 2 });
		expect(run.error('Support Chat')?.message).toContain('larger than Max Response Size (2 MB)');
	});
});

describe('a 2xx counts as a success only by the rule of docs/errors-and-limits.md', () => {
	const loginPage =
		'<!doctype html><html><head><title>Sign in</title></head><body><form>…</form></body></html>';

	it.each([
		['send message', sendMessage],
		['close conversation', closeConversation],
	])('%s answered 200 with an HTML login page is a failure', async (_label, act) => {
		sandbox.fault({
			method: 'POST',
			kind: 'raw',
			contentType: 'text/html; charset=utf-8',
			body: loginPage,
		});
		const run = await act();
		expect(run.error('Support Chat')).toMatchObject({
			message: expect.stringContaining('with an HTML page instead of JSON ("Sign in")'),
			description: expect.stringContaining('check before running again'),
		});
	});

	it.each([
		['an empty body', { body: '' }, 'an empty body'],
		['null', { body: 'null', contentType: 'application/json' }, 'null'],
		['a bare string', { body: '"42"', contentType: 'application/json' }, 'a bare value (42)'],
		['plain text', { body: 'OK', contentType: 'text/plain' }, 'text instead of JSON ("OK")'],
		['HTML without a content type', { body: '<p>Maintenance</p>' }, 'HTML page'],
		[
			'an empty envelope',
			{ body: '{"success":true,"response":{}}', contentType: 'application/json' },
			'without a user record',
		],
	])('a read answered with %s fails, and no record is made up', async (_label, raw, expected) => {
		sandbox.fault({ method: 'GET', kind: 'raw', ...raw });
		const run = await getUser();
		expect(run.status).toBe('error');
		expect(run.error('Support Chat')?.message).toContain(expected);
	});

	it('broken JSON labelled text/plain is malformed, not text', async () => {
		sandbox.fault({ kind: 'raw', contentType: 'text/plain', body: '{"id":"u_1","name":"Ada' });
		const run = await getUser();
		expect(run.error('Support Chat')?.message).toContain('malformed JSON');
	});

	it('a write answered 204 says what was done and that there was no response body', async () => {
		sandbox.fault({ method: 'POST', kind: 'raw', status: 204 });
		const run = await closeConversation();
		expect(jsonOf(run)).toEqual([{ id: conversationId(), closed: true, noResponseBody: true }]);
	});

	it('a write answered with plain text hands the text on', async () => {
		sandbox.fault({ method: 'POST', kind: 'raw', contentType: 'text/plain', body: 'OK' });
		const run = await closeConversation();
		expect(jsonOf(run)).toEqual([{ id: conversationId(), closed: true, response: 'OK' }]);
	});

	it('a write answered false is a failure', async () => {
		sandbox.fault({ method: 'POST', kind: 'raw', contentType: 'application/json', body: 'false' });
		const run = await closeConversation();
		expect(run.error('Support Chat')?.message).toContain('with false');
	});
});

describe('the token never reaches an item or an error, in any form', () => {
	it('a record holding the token (raw, URL-encoded, inside base64) is masked in the output', async () => {
		sandbox.fault({ kind: 'echo-token' });
		const run = await getUser();
		expect(run.status).toBe('success');
		const [user] = jsonOf(run);
		expect(user).toMatchObject({ id: userId(), api_token: '[redacted]' });
		expectNoToken(run);
	});

	it('a list page holding the token is masked in every item', async () => {
		const page = JSON.stringify({
			data: [
				{ id: 'a', note: `token ${TOKEN}` },
				{ id: 'b', link: `?t=${encodeURIComponent(TOKEN)}` },
			],
		});
		sandbox.fault({ kind: 'raw', contentType: 'application/json', body: page });
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			options: { paginationStyle: 'none' },
		});
		expect(jsonOf(run)).toEqual([
			{ id: 'a', note: 'token [redacted]' },
			{ id: 'b', link: '?t=[redacted]' },
		]);
		expectNoToken(run);
	});

	it('a token written with JSON escapes is masked too', async () => {
		const escaped = [...TOKEN]
			.map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
			.join('');
		const page = `{"data":[{"id":"a","secret":"${escaped}"},{"id":"b","path":"a\\/b"}]}`;
		sandbox.fault({ kind: 'raw', contentType: 'application/json', body: page });
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			options: { paginationStyle: 'none' },
		});
		expect(jsonOf(run)).toEqual([
			{ id: 'a', secret: '[redacted]' },
			{ id: 'b', path: 'a/b' },
		]);
		expectNoToken(run);
	});

	it('a token where the message is cut (its 300th character) is masked first, so no part of it shows', async () => {
		const message = `${'x'.repeat(295)}${TOKEN} was refused`;
		sandbox.fault({
			kind: 'raw',
			status: 403,
			contentType: 'application/json',
			body: JSON.stringify({ message }),
		});
		const failed = await getUser();
		const shown = failed.error('Support Chat')?.message ?? '';
		expect(shown).toContain('x'.repeat(295));
		expect(shown).not.toContain(TOKEN.slice(0, 4));
		expectNoToken(failed);
	});

	it.each([
		[
			'an HTML page (200) whose title holds it',
			'text/html',
			`<html><head><title>${'x'.repeat(295)}${TOKEN} denied</title></head></html>`,
		],
		[
			'a 200 that says it failed',
			'application/json',
			JSON.stringify({ success: false, message: `${'x'.repeat(295)}${TOKEN} denied` }),
		],
	])(
		'a token where the message is cut, in %s, is masked first, so no part of it shows',
		async (_label, contentType, body) => {
			sandbox.fault({ kind: 'raw', status: 200, contentType, body });
			const failed = await getUser();
			const shown = failed.error('Support Chat')?.message ?? '';
			expect(shown).toContain('x'.repeat(295));
			expect(stored(failed)).not.toContain(TOKEN.slice(0, 4));
			expectNoToken(failed);
		},
	);

	it('a redirect to an address longer than 2,048 characters is refused whole, and names no part of it past the origin', async () => {
		const long = `/users/${'a'.repeat(2100)}${TOKEN}`;
		sandbox.fault({ kind: 'redirect', location: `${sandbox.origin}${long}` });
		const failed = await getUser();
		expect(failed.error('Support Chat')?.message).toContain(
			'to an address longer than 2048 characters',
		);
		expect(sandbox.requests).toHaveLength(1);
		expectNoToken(failed);
	});

	it('an error body quoting the token is masked in the message and the stored answer, also with continue-on-fail', async () => {
		const body = JSON.stringify({
			message: `Token ${TOKEN} lacks scope; ${Buffer.from(`Bearer ${TOKEN}`).toString('base64')}`,
		});
		sandbox.fault({ kind: 'raw', status: 403, contentType: 'application/json', body, times: 2 });
		const failed = await getUser();
		expect(failed.error('Support Chat')?.message).toContain('Token [redacted] lacks scope');
		expectNoToken(failed);
		const continued = await runAction(
			sandbox,
			{ resource: 'user', operation: 'get', userId: byId(userId()), options: fast },
			{ continueOnFail: true },
		);
		expect(jsonOf(continued)[0]).toMatchObject({
			error: expect.stringContaining('[redacted]'),
			httpCode: '403',
		});
		expectNoToken(continued);
	});
});

describe('Retry-After counts only as delay-seconds or an HTTP-date', () => {
	it.each(['-5', '+5', '2.', '1,2'])(
		'"%s" falls back to the backoff instead of retrying at once',
		async (retryAfter) => {
			sandbox.fault({ kind: '429', retryAfter });
			const run = await getUser();
			expect(run.status).toBe('success');
			const [first, second] = sandbox.requests;
			// The first backoff step waits at least half of 500 ms (equal jitter).
			expect(second.time - first.time).toBeGreaterThanOrEqual(240);
		},
	);
});
