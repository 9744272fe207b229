/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The sandbox's Support Board mode answers as Support Board 3.8.7 does (its include/api.php, checked
 * call by call against the product): the checks before a function runs and their order, the token in
 * the body only, the envelopes, 100-row pages, and its webhooks in the product's shape, sent once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';

const TOKEN = 'sb-sandbox-admin-token-0a1b';
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		api: 'support-board',
		token: TOKEN,
		seed: { users: 150, conversations: 5 },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

async function post(
	body: string,
	contentType = 'application/json',
	headers: Record<string, string> = {},
) {
	const response = await fetch(sandbox.supportBoard!.apiUrl, {
		method: 'POST',
		headers: { 'content-type': contentType, ...headers },
		body,
	});
	return {
		status: response.status,
		type: response.headers.get('content-type'),
		body: JSON.parse((await response.text()) || 'null'),
	};
}
const call = async (args: Record<string, unknown>) =>
	await post(JSON.stringify({ token: TOKEN, ...args }));

describe("before the function runs, in the product's order", () => {
	it.each([
		['no function', { token: TOKEN }, 400, 'missing-function-name'],
		['an unknown function, even without a token', { function: 'nope' }, 404, 'function-not-found'],
		['no token', { function: 'get-users' }, 401, 'token-not-found'],
		["a token that is no admin's", { function: 'get-users', token: 'wrong' }, 401, 'invalid-token'],
		['a missing argument', { function: 'get-user', token: TOKEN }, 400, 'missing-argument'],
	])('%s', async (_name, body, status, code) => {
		const answer = await post(JSON.stringify(body));
		expect(answer).toMatchObject({ status, body: { status: 'error', response: code } });
		expect(answer.type).toMatch(/^text\/html/);
	});

	it('reads the token from the body, form-encoded too, and never from Authorization', async () => {
		expect(
			(await post(`function=count-users&token=${TOKEN}`, 'application/x-www-form-urlencoded')).body,
		).toMatchObject({ success: true });
		expect(
			(
				await post(JSON.stringify({ function: 'count-users' }), 'application/json', {
					authorization: `Bearer ${TOKEN}`,
				})
			).body,
		).toMatchObject({ response: 'token-not-found' });
	});
});

describe('functions', () => {
	it('get-users pages by index, 100 rows each, and answers [] past the end; the log masks the token', async () => {
		const pages = await Promise.all(
			[0, 1, 2].map((pagination) => call({ function: 'get-users', pagination })),
		);
		// 150 seeded, plus the admin and the agent of a fresh install; the bot is never listed.
		expect(pages.map((page) => page.body.response.length)).toEqual([100, 52, 0]);
		expect(sandbox.requests[0]).toMatchObject({
			function: 'get-users',
			body: expect.objectContaining({ token: '***' }),
		});
	});

	it('get-user answers false for a missing user; add-user refuses an e-mail in use with 200', async () => {
		expect((await call({ function: 'get-user', user_id: 9999 })).body).toEqual({
			success: true,
			response: false,
		});
		const first = await call({
			function: 'add-user',
			first_name: 'Ada',
			email: 'ada.new@example.com',
		});
		expect(first.body).toEqual({ success: true, response: expect.any(Number) });
		expect(
			await call({ function: 'add-user', first_name: 'Ada', email: 'ada.new@example.com' }),
		).toMatchObject({ status: 200, body: { success: false, response: 'duplicate-email' } });
	});

	it('an archive posts its event message; closing a conversation that does not exist dies with an empty 500', async () => {
		await call({ function: 'update-conversation-status', conversation_id: 1, status_code: 3 });
		const { body } = await call({ function: 'get-conversation', conversation_id: 1 });
		expect(body.response.details.status_code).toBe('3');
		expect(body.response.messages.at(-1)).toMatchObject({
			message: '',
			payload: expect.stringContaining('conversation-status-update-3'),
		});
		const missing = await fetch(sandbox.supportBoard!.apiUrl, {
			method: 'POST',
			body: JSON.stringify({
				function: 'update-conversation-status',
				token: TOKEN,
				conversation_id: 999,
				status_code: 3,
			}),
		});
		expect(missing.status).toBe(500);
		expect(await missing.text()).toBe('');
	});

	it('serves no REST path: a 404 page, as a PHP server does', async () => {
		const response = await fetch(`${sandbox.origin}/script/include/api/users`);
		expect(response.status).toBe(404);
		expect(await response.text()).toMatch(/^</);
	});
});

describe('webhooks', () => {
	it('sends each once, as {function, key, data, sender-url}, only when active', async () => {
		const bodies: Array<Record<string, unknown>> = [];
		const receiver = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				bodies.push(JSON.parse(Buffer.concat(chunks).toString()));
				res.writeHead(500).end();
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
		try {
			const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
			sandbox.supportBoard!.configureWebhooks({ url, key: 'the-secret-key', active: true });
			await call({
				function: 'send-message',
				user_id: -1,
				conversation_id: 1,
				message: 'From an agent',
			});
			await sandbox.supportBoard!.settled();
			// An agent's reply changes the conversation's status first, as send-message does in the product.
			// Each answered 500, yet sent once: the product never retries.
			expect(bodies.map((b) => b.function)).toEqual([
				'conversation-status-updated',
				'message-sent',
			]);
			expect(bodies[1]).toEqual({
				function: 'message-sent',
				key: 'the-secret-key',
				data: expect.objectContaining({
					conversation_id: 1,
					message: 'From an agent',
					message_id: expect.any(Number),
				}),
				'sender-url': '',
			});
			sandbox.supportBoard!.configureWebhooks({ active: false });
			await call({ function: 'send-message', user_id: -1, conversation_id: 1, message: 'Again' });
			await sandbox.supportBoard!.settled();
			expect(bodies).toHaveLength(2);
		} finally {
			receiver.close();
		}
	});
});

describe('settings (get-settings, save-settings)', () => {
	const entry = (url: string, key: string, allowed = '') => [
		{
			'webhooks-active': [true, 'checkbox'],
			'webhooks-url': [url, 'text'],
			'webhooks-key': [key, 'password'],
			'webhooks-allowed': [allowed, 'text'],
		},
		'multi-input',
	];

	it('an install with none answers []; save-settings replaces the whole row, and get-settings answers it as saved', async () => {
		expect((await call({ function: 'get-settings' })).body).toEqual({
			success: true,
			response: [],
		});
		const row = {
			'bot-name': ['Bot', 'text'],
			webhooks: entry('http://127.0.0.1:9/a', 'k1', 'login'),
		};
		expect(
			(await call({ function: 'save-settings', setting: 'webhooks', settings: row })).body,
		).toEqual({ success: true, response: true });
		expect((await call({ function: 'get-settings' })).body.response).toEqual(row);
		// A row without the setting: gone, as the product's INSERT … ON DUPLICATE KEY UPDATE does.
		await call({
			function: 'save-settings',
			setting: 'webhooks',
			settings: { other: [1, 'text'] },
		});
		expect((await call({ function: 'get-settings' })).body.response).toEqual({
			other: [1, 'text'],
		});
		expect(sandbox.supportBoard!.describe().webhooks).toMatchObject({ url: null });
		expect((await call({ function: 'save-settings', settings: {} })).body).toMatchObject({
			response: 'missing-argument',
		});
	});

	it("the saved webhook entry is where the webhooks go, and the control route's settings show in get-settings", async () => {
		const bodies: Array<Record<string, unknown>> = [];
		const receiver = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				bodies.push(JSON.parse(Buffer.concat(chunks).toString()));
				res.writeHead(200).end();
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
		try {
			const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/saved`;
			const row = { webhooks: entry(url, 'saved-key', 'message-sent') };
			await call({ function: 'save-settings', setting: 'webhooks', settings: row });
			const send = { function: 'send-message', user_id: -1, conversation_id: 1, message: 'Hi' };
			await call(send);
			await sandbox.supportBoard!.settled();
			expect(bodies.map((b) => [b.function, b.key])).toEqual([['message-sent', 'saved-key']]);

			sandbox.supportBoard!.configureWebhooks({ key: 'changed-key', allowed: null });
			expect((await call({ function: 'get-settings' })).body.response).toEqual({
				webhooks: entry(url, 'changed-key'),
			});
		} finally {
			receiver.close();
		}
	});
});

describe("levers for a list's pages", () => {
	it('a fault with `pagination` hits that page of the list only', async () => {
		sandbox.fault({ path: 'get-users', pagination: 1, kind: 'status', status: 403 });
		expect((await call({ function: 'get-users', pagination: 0 })).status).toBe(200);
		expect((await call({ function: 'get-users', pagination: 2 })).status).toBe(200);
		expect((await call({ function: 'get-users', pagination: 1 })).status).toBe(403);
		expect(() => sandbox.fault({ path: 'get-users', pagination: -1, kind: '500' })).toThrow(
			'fault pagination must be a page number',
		);
	});

	it('logs when each call was answered, and answers late with latencyMs', async () => {
		const slow = await startSandbox({
			api: 'support-board',
			token: TOKEN,
			supportBoard: { latencyMs: 60 },
		});
		try {
			const answer = await fetch(slow.supportBoard!.apiUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ function: 'count-users', token: TOKEN }),
			});
			expect(answer.status).toBe(200);
			const [entry] = slow.requests;
			expect(entry.answered! - entry.time).toBeGreaterThanOrEqual(55);
		} finally {
			await slow.close();
		}
	});
});
