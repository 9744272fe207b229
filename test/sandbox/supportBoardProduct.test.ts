/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { Reply } from './reply';
import { readReply } from './reply';

// The sandbox's Support Board mode against what Support Board 3.8.7 answers (its Web API at
// include/api.php and its webhooks). Every expectation here was also checked call by call against the
// real product; where the two differ on purpose, sandbox/README.md › Support Board mode says so.

const TOKEN = 'sb-admin-token';
const KEY = 'sb-webhook-key';
const USERS = 150;
const CONVERSATIONS = 120;
let sb: Sandbox;
let mode: NonNullable<Sandbox['supportBoard']>;

beforeAll(async () => {
	sb = await startSandbox({
		api: 'support-board',
		token: TOKEN,
		seed: { users: USERS, conversations: CONVERSATIONS },
	});
	mode = sb.supportBoard!;
});
afterAll(async () => await sb.close());
beforeEach(() => sb.reset());

async function send(
	body: string | undefined,
	options: {
		contentType?: string;
		headers?: Record<string, string>;
		url?: string;
		method?: string;
	} = {},
): Promise<Reply> {
	const headers: Record<string, string> = { ...(options.headers ?? {}) };
	if (options.contentType) headers['content-type'] = options.contentType;
	const res = await fetch(options.url ?? mode.apiUrl, {
		method: options.method ?? 'POST',
		headers,
		body,
	});
	return await readReply(res);
}

/** A JSON body as is (no token added). */
const raw = (body: Record<string, unknown>, headers?: Record<string, string>) =>
	send(JSON.stringify(body), { contentType: 'application/json', headers });
/** A Web API call as the node makes it: function, the admin token and the arguments in one JSON body. */
const api = (fn: string, args: Record<string, unknown> = {}, headers?: Record<string, string>) =>
	raw({ function: fn, token: TOKEN, ...args }, headers);
/** The same call form-encoded (`a[]=1` for lists). */
const form = (text: string) => send(text, { contentType: 'application/x-www-form-urlencoded' });
const ok = (r: Reply) => {
	expect(r.status).toBe(200);
	expect(r.body).toMatchObject({ success: true });
	return r.body.response;
};

const staff = () => ({
	admin: Number(mode.data.admin.id.slice(2)),
	agent: Number(mode.data.staff!.agent.id.slice(2)),
	bot: Number(mode.data.staff!.bot.id.slice(2)),
});

async function newUser(args: Record<string, unknown> = {}): Promise<number> {
	return ok(
		await api('add-user', {
			first_name: 'Probe',
			last_name: 'Person',
			email: `probe-${Math.random().toString(36).slice(2)}@example.test`,
			...args,
		}),
	);
}

/** A user, a conversation and the user's first message (a conversation without one is not listed). */
async function chat(
	text = 'Hi from probe',
): Promise<{ userId: number; conversationId: string; messageId: number }> {
	const userId = await newUser();
	const conversationId = ok(await api('new-conversation', { user_id: userId, title: 'probe chat' }))
		.details.id;
	const messageId = ok(
		await api('send-message', { user_id: userId, conversation_id: conversationId, message: text }),
	).id;
	return { userId, conversationId, messageId };
}

// ---------------------------------------------------------------- api.php before the function runs

describe('api.php: the checks before a function runs', () => {
	const ERRORS = {
		missingFunction: {
			status: 'error',
			response: 'missing-function-name',
			message: 'Function name is required. Get it from the docs.',
		},
		noToken: {
			status: 'error',
			response: 'token-not-found',
			message: 'Admin token is required. Get it from Users > Your admin user profile box.',
		},
		badToken: {
			status: 'error',
			response: 'invalid-token',
			message: 'Use a token of an administrator.',
		},
	};

	it('answers each refusal with its status and exact body, as text/html', async () => {
		const cases: [Reply, number, unknown][] = [
			[await raw({ token: TOKEN }), 400, ERRORS.missingFunction],
			[
				await raw({ function: 'nope', token: TOKEN }),
				404,
				{
					status: 'error',
					response: 'function-not-found',
					message: 'Function nope not found. Check the function name.',
				},
			],
			[await raw({ function: 'get-users' }), 401, ERRORS.noToken],
			[await raw({ function: 'get-users', token: '' }), 401, ERRORS.noToken],
			[await raw({ function: 'get-users', token: 'wrong' }), 401, ERRORS.badToken],
			[
				await raw({ function: 'get-user', token: TOKEN }),
				400,
				{ status: 'error', response: 'missing-argument', message: 'Missing argument: user_id' },
			],
			[
				await raw({ function: 'get-user', token: TOKEN, user_id: null }),
				400,
				{ status: 'error', response: 'missing-argument', message: 'Missing argument: user_id' },
			],
		];
		for (const [reply, status, body] of cases) {
			expect(reply.status).toBe(status);
			expect(reply.body).toEqual(body);
			expect(reply.headers.get('content-type')).toBe('text/html; charset=UTF-8');
		}
		// The raw bytes, as PHP's json_encode writes them.
		expect((await raw({ function: 'get-users' })).text).toBe(
			'{"status":"error","response":"token-not-found","message":"Admin token is required. Get it from Users > Your admin user profile box."}',
		);
	});

	it('checks in the product order: function missing, function unknown (before the token), token, arguments', async () => {
		expect((await raw({})).status).toBe(400);
		expect((await raw({ function: 'nope' })).status).toBe(404);
		expect((await raw({ function: 'nope', token: 'wrong' })).status).toBe(404);
		expect((await raw({ function: '', token: 'wrong' })).body.message).toBe(
			'Function  not found. Check the function name.',
		);
		expect((await raw({ function: 'get-user' })).body.response).toBe('token-not-found');
		expect((await raw({ function: 'get-user', token: 'wrong' })).body.response).toBe(
			'invalid-token',
		);
		// A function the sandbox does not imitate still passes the product's checks first.
		expect((await raw({ function: 'get-articles' })).status).toBe(401);
		// An argument given but empty is no missing argument: the function answers.
		expect(await api('get-user', { user_id: '' })).toMatchObject({
			status: 200,
			body: { success: true, response: false },
		});
	});

	it('reads the token from the body only, JSON or form-encoded, never from Authorization', async () => {
		expect(
			(await raw({ function: 'count-users' }, { authorization: `Bearer ${TOKEN}` })).body.response,
		).toBe('token-not-found');
		// A `token` header is found, then checked against the body: invalid.
		expect((await raw({ function: 'count-users' }, { token: TOKEN })).body.response).toBe(
			'invalid-token',
		);
		expect(ok(await api('count-users'))).toEqual({
			all: String(USERS + 2),
			lead: '0',
			user: String(USERS),
			visitor: '0',
		});
		expect(ok(await form(`function=count-users&token=${TOKEN}`)).all).toBe(String(USERS + 2));
		// A query string is not read.
		const viaGet = await send(undefined, {
			method: 'GET',
			url: `${mode.apiUrl}?function=count-users&token=${TOKEN}`,
		});
		expect(viaGet.status).toBe(400);
		expect(viaGet.body.response).toBe('missing-function-name');
		// JSON sent without a JSON content type is still read; a JSON body sent as a form is not a form.
		expect(
			ok(
				await send(JSON.stringify({ function: 'get-bot-id', token: TOKEN }), {
					contentType: 'text/plain',
				}),
			),
		).toBe(String(staff().bot));
	});

	it('answers at the install paths only; the REST paths are a 404 page', async () => {
		for (const p of [
			'/script/include/api.php',
			'/supportboard/include/api.php',
			'/include/api.php',
		]) {
			expect(
				ok(
					await send(JSON.stringify({ function: 'get-bot-id', token: TOKEN }), {
						url: `${sb.origin}${p}`,
						contentType: 'application/json',
					}),
				),
			).toBe(String(staff().bot));
		}
		expect(mode.installUrl).toBe(`${sb.origin}/script`);
		expect(mode.apiUrl).toBe(`${sb.origin}/script/include/api.php`);
		for (const target of [
			`${sb.baseUrl}/users`,
			`${sb.origin}/script/include/api/conversations`,
			`${sb.origin}/script/admin.php`,
		]) {
			const r = await send(undefined, {
				method: 'GET',
				url: target,
				headers: { authorization: `Bearer ${TOKEN}` },
			});
			expect(r.status).toBe(404);
			expect(r.headers.get('content-type')).toMatch(/^text\/html/);
			expect(r.text).toMatch(/<title>404 Not Found<\/title>/);
		}
	});

	it('logs each call with its function, the token masked as ***', async () => {
		await api('get-user', { user_id: 1 });
		await form(`function=get-users&token=${TOKEN}&pagination=1`);
		await raw({ function: 'get-users', token: 'wrong' });
		const [first, second, third] = sb.requests;
		expect(first).toMatchObject({
			method: 'POST',
			path: '/script/include/api.php',
			function: 'get-user',
			status: 200,
			body: { function: 'get-user', token: '***', user_id: 1 },
		});
		expect(second).toMatchObject({
			function: 'get-users',
			body: { token: '***', pagination: '1' },
		});
		expect(third).toMatchObject({ function: 'get-users', status: 401, body: { token: 'wrong' } });
		expect(JSON.stringify(sb.requests)).not.toContain(TOKEN);
	});
});

// ---------------------------------------------------------------- users

describe('user functions', () => {
	it('get-users: 100 rows a page by pagination (0-based), [] past the end, newest first', async () => {
		const pages = [];
		for (let p = 0; p < 4; p++) pages.push(ok(await api('get-users', { pagination: p })));
		// The seeded users, the admin and the agent; the bot is never listed.
		expect(pages.map((p) => p.length)).toEqual([100, USERS + 2 - 100, 0, 0]);
		expect(pages[2]).toEqual([]);
		const ids = pages.flat().map((u: any) => u.id);
		expect(new Set(ids).size).toBe(USERS + 2);
		expect(ids).not.toContain(String(staff().bot));
		expect(pages[0][0].id).toBe(String(USERS));
		expect(Object.keys(pages[0][0])).toEqual([
			'id',
			'first_name',
			'last_name',
			'email',
			'profile_image',
			'user_type',
			'creation_time',
			'last_activity',
			'department',
			'token',
		]);
		expect(pages[0][0]).toMatchObject({
			user_type: 'user',
			department: null,
			profile_image: `${mode.installUrl}/media/user.svg`,
		});
		expect(pages[0][0].creation_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
		// No pagination, or one that is no number: page 0. A form value is read the same.
		expect(ok(await api('get-users')).map((u: any) => u.id)).toEqual(
			pages[0].map((u: any) => u.id),
		);
		expect(ok(await api('get-users', { pagination: 'x' }))).toHaveLength(100);
		expect(ok(await form(`function=get-users&token=${TOKEN}&pagination=1`))).toHaveLength(
			USERS + 2 - 100,
		);
	});

	it('get-users: user_types (a list, JSON text or form list), search and extra', async () => {
		const admins = ok(await api('get-users', { user_types: ['admin', 'agent'] }));
		expect(admins.map((u: any) => u.user_type).sort()).toEqual(['admin', 'agent']);
		// Every user's token is in the answer, the admin's (the API token) included.
		expect(admins.find((u: any) => u.user_type === 'admin').token).toBe(TOKEN);
		expect(ok(await api('get-users', { user_types: '["agent"]' }))).toHaveLength(1);
		expect(ok(await form(`function=get-users&token=${TOKEN}&user_types[]=agent`))).toHaveLength(1);
		const id = await newUser({
			email: 'grace@example.test',
			extra: { company: ['ACME', 'Company'] },
		});
		const found = ok(await api('get-users', { search: 'grace@example.test', extra: true }));
		expect(found).toEqual([
			expect.objectContaining({ id: String(id), extra: { company: 'ACME' } }),
		]);
		expect(ok(await api('get-users', { search: 'zzz-nobody' }))).toEqual([]);
	});

	it('get-user: the user with its password hash; false for a missing user; details with extra', async () => {
		const id = await newUser({
			first_name: 'Grace Hopper',
			last_name: '',
			password: 'Secret-123',
			extra: { phone: ['+15550001111', 'Phone'], company: ['ACME', 'Company'] },
		});
		const user = ok(await api('get-user', { user_id: id }));
		expect(user).toMatchObject({
			id: String(id),
			first_name: 'Grace',
			last_name: 'Hopper',
			user_type: 'user',
		});
		expect(user.password).toMatch(/^\$2y\$10\$.{53}$/);
		expect(ok(await api('get-user', { user_id: id, extra: true })).details).toEqual([
			{ slug: 'company', name: 'Company', value: 'ACME' },
			{ slug: 'phone', name: 'Phone', value: '+15550001111' },
		]);
		expect(await api('get-user', { user_id: 999999 })).toMatchObject({
			status: 200,
			text: '{"success":true,"response":false}',
		});
		// A non-numeric id is a PHP fatal error: 500, empty body.
		expect(await api('get-user', { user_id: 'abc' })).toMatchObject({ status: 500, text: '' });
	});

	it('add-user: the new id as a number; defaults; duplicate e-mail, phone and a wrong type refused', async () => {
		const added = await api('add-user', {
			first_name: 'Ada',
			last_name: 'Lovelace',
			email: 'ada@example.test',
		});
		expect(added.text).toBe(`{"success":true,"response":${USERS + 4}}`);
		expect(await api('add-user', { email: 'ADA@example.test' })).toMatchObject({
			status: 200,
			body: { success: false, response: 'duplicate-email' },
		});
		await newUser({ extra: { phone: ['+15559990000', 'Phone'] } });
		expect((await api('add-user', { extra: { phone: ['+15559990000', 'Phone'] } })).body).toEqual({
			success: false,
			response: 'duplicate-phone',
		});
		expect((await api('add-user', { email: 'x@example.test', user_type: 'nope' })).body).toEqual({
			success: false,
			response: 'invalid-user-type',
		});
		const visitor = ok(await api('get-user', { user_id: ok(await api('add-user', {})) }));
		expect(visitor).toMatchObject({ first_name: 'User', user_type: 'visitor', email: null });
		expect(visitor.last_name).toMatch(/^#\d+$/);
	});

	it('update-user: true for a main field, false for settings_extra alone (written anyway); an empty value deletes', async () => {
		const id = await newUser({ extra: { company: ['ACME', 'Company'] } });
		expect(
			ok(
				await api('update-user', {
					user_id: id,
					settings_extra: { company: ['Initech', 'Company'], phone: ['+15551234567', 'Phone'] },
				}),
			),
		).toBe(false);
		expect(ok(await api('get-user', { user_id: id, extra: true })).details).toEqual([
			{ slug: 'company', name: 'Company', value: 'Initech' },
			{ slug: 'phone', name: 'Phone', value: '+15551234567' },
		]);
		expect(ok(await api('update-user', { user_id: id, first_name: 'ada lovelace' }))).toBe(true);
		expect(ok(await api('get-user', { user_id: id }))).toMatchObject({
			first_name: 'Ada',
			last_name: 'Lovelace',
		});
		expect(
			ok(await api('update-user', { user_id: id, settings_extra: { company: ['', 'Company'] } })),
		).toBe(false);
		expect(
			ok(await api('get-user', { user_id: id, extra: true })).details.map((d: any) => d.slug),
		).toEqual(['phone']);
		// An unknown user: true, and nothing happens.
		expect(ok(await api('update-user', { user_id: 999999, first_name: 'X' }))).toBe(true);
		const other = await newUser({ email: 'taken@example.test' });
		expect((await api('update-user', { user_id: id, email: 'taken@example.test' })).body).toEqual({
			success: false,
			response: 'duplicate-email',
		});
		expect(other).toBeGreaterThan(id);
	});

	it('delete-user: true (an unknown id too); its conversations go with it; a non-numeric id is a 500', async () => {
		const { userId, conversationId } = await chat();
		expect(ok(await api('delete-user', { user_id: userId }))).toBe(true);
		expect(ok(await api('get-user', { user_id: userId }))).toBe(false);
		expect(ok(await api('get-conversation', { conversation_id: conversationId }))).toBe(false);
		expect(ok(await api('delete-user', { user_id: userId }))).toBe(true);
		expect(await api('delete-user', { user_id: 'abc' })).toMatchObject({ status: 500, text: '' });
	});

	it('get-new-users by id (newest first, no bots), count-users, get-bot-id, get-user-by', async () => {
		const a = await newUser();
		const b = await newUser({ email: 'b@example.test' });
		expect(ok(await api('get-new-users', { datetime: a - 1 })).map((u: any) => u.id)).toEqual([
			String(b),
			String(a),
		]);
		expect(ok(await api('get-new-users', { datetime: b }))).toEqual([]);
		expect(ok(await api('count-users'))).toEqual({
			all: String(USERS + 4),
			lead: '0',
			user: String(USERS + 2),
			visitor: '0',
		});
		expect((await api('get-bot-id')).text).toBe(`{"success":true,"response":"${staff().bot}"}`);
		expect(ok(await api('get-user-by', { by: 'email', value: 'b@example.test' })).id).toBe(
			String(b),
		);
		expect(ok(await api('get-user-by', { by: 'email', value: 'nobody@example.test' }))).toBe('');
	});
});

// ---------------------------------------------------------------- conversations and messages

describe('conversation functions', () => {
	const listed = async (args: Record<string, unknown>) => {
		const rows = [];
		for (let p = 0; p < 10; p++) {
			const page = ok(await api('get-conversations', { ...args, pagination: p }));
			rows.push(...page);
			if (page.length < 100) break;
		}
		return rows;
	};

	it('get-conversations: 100 a page; default leaves archived out, all, 3; waiting for an agent first', async () => {
		const all = await listed({ status_code: 'all' });
		expect(all).toHaveLength(CONVERSATIONS);
		expect(ok(await api('get-conversations', { status_code: 'all', pagination: 0 }))).toHaveLength(
			100,
		);
		expect(ok(await api('get-conversations', { status_code: 'all', pagination: 2 }))).toEqual([]);
		const byDefault = await listed({});
		expect(byDefault.every((r: any) => ['0', '1', '2'].includes(r.conversation_status_code))).toBe(
			true,
		);
		expect(byDefault).toHaveLength(
			all.filter((r: any) => r.conversation_status_code !== '3').length,
		);
		const archived = await listed({ status_code: 3 });
		expect(archived.length).toBeGreaterThan(0);
		expect(archived.every((r: any) => r.conversation_status_code === '3')).toBe(true);
		expect(archived.length + byDefault.length).toBe(CONVERSATIONS);
		const firstOther = byDefault.findIndex((r: any) => r.conversation_status_code !== '2');
		expect(byDefault.slice(firstOther).some((r: any) => r.conversation_status_code === '2')).toBe(
			false,
		);
		expect(Object.keys(all[0])).toEqual([
			'message',
			'message_id',
			'attachments',
			'payload',
			'message_status_code',
			'last_update_time',
			'message_user_id',
			'message_first_name',
			'message_last_name',
			'message_profile_image',
			'message_user_type',
			'conversation_id',
			'conversation_user_id',
			'conversation_status_code',
			'conversation_creation_time',
			'department',
			'agent_id',
			'title',
			'source',
			'extra',
			'tags',
			'conversation_first_name',
			'conversation_last_name',
			'conversation_profile_image',
			'conversation_user_type',
		]);
	});

	it('lists a conversation only once it has a message, with the row the product gives', async () => {
		const userId = await newUser();
		const conversationId = ok(
			await api('new-conversation', { user_id: userId, title: 'probe chat' }),
		).details.id;
		const has = async () =>
			(await listed({})).find((r: any) => r.conversation_id === conversationId);
		expect(await has()).toBeUndefined();
		const messageId = ok(
			await api('send-message', {
				user_id: userId,
				conversation_id: conversationId,
				message: 'Hi from probe',
			}),
		).id;
		expect(await has()).toMatchObject({
			message: 'Hi from probe',
			message_id: String(messageId),
			attachments: '',
			payload: null,
			message_status_code: '0',
			message_user_id: String(userId),
			message_user_type: 'user',
			conversation_id: conversationId,
			conversation_user_id: String(userId),
			conversation_status_code: '2',
			agent_id: null,
			title: 'Probe chat',
			source: '',
			extra: null,
			tags: null,
		});
		// Waiting for an agent: on top of the default list.
		expect(ok(await api('get-conversations'))[0].conversation_id).toBe(conversationId);
	});

	it('new-conversation and get-conversation: { messages, details }; false or 500 for what is missing', async () => {
		const userId = await newUser();
		const created = await api('new-conversation', { user_id: userId, title: 'probe chat' });
		const { details } = ok(created);
		expect(ok(created).messages).toEqual([]);
		expect(details).toMatchObject({
			user_id: String(userId),
			id: expect.stringMatching(/^\d+$/),
			title: 'Probe chat',
			status_code: '2',
			agent_id: null,
			source: '',
			tags: [],
			busy: false,
			notes: [],
		});
		expect(Object.keys(details)).toEqual([
			'user_id',
			'first_name',
			'last_name',
			'profile_image',
			'user_type',
			'id',
			'title',
			'creation_time',
			'status_code',
			'department',
			'agent_id',
			'source',
			'extra',
			'extra_2',
			'extra_3',
			'tags',
			'busy',
			'notes',
		]);
		const tagged = ok(
			await api('new-conversation', {
				user_id: userId,
				tags: 'a,b',
				agent_id: staff().admin,
				status_code: 1,
				source: 'em',
			}),
		).details;
		expect(tagged).toMatchObject({
			tags: ['a', 'b'],
			agent_id: String(staff().admin),
			status_code: '1',
			source: 'em',
		});
		expect(await api('new-conversation', { user_id: 999999 })).toMatchObject({
			status: 500,
			text: '',
		});
		await api('send-message', { user_id: userId, conversation_id: details.id, message: 'Hello' });
		const got = ok(await api('get-conversation', { conversation_id: details.id }));
		expect(got.details).toEqual({ ...details, status_code: '2' });
		expect(got.messages).toEqual([
			expect.objectContaining({
				user_id: String(userId),
				message: 'Hello',
				status_code: '0',
				attachments: '',
				payload: '',
				conversation_id: details.id,
				user_type: 'user',
			}),
		]);
		expect(ok(await api('get-conversation', { conversation_id: 999999 }))).toBe(false);
	});

	it('send-message: user_id -1 is the admin; the status follows the sender; a missing conversation answers true', async () => {
		const { userId, conversationId, messageId } = await chat();
		const reply = await api('send-message', {
			user_id: -1,
			conversation_id: conversationId,
			message: 'Agent reply',
		});
		expect(reply.text).toBe(
			`{"success":true,"response":{"id":${messageId + 1},"queue":false,"human_takeover_active":false,"notifications":[],"message":"Agent reply"}}`,
		);
		const got = ok(await api('get-conversation', { conversation_id: conversationId }));
		expect(got.messages[1]).toMatchObject({
			user_id: String(staff().admin),
			user_type: 'admin',
			message: 'Agent reply',
		});
		expect(got.details.status_code).toBe('1');
		ok(
			await api('send-message', {
				user_id: userId,
				conversation_id: conversationId,
				message: 'again',
			}),
		);
		expect(
			ok(await api('get-conversation', { conversation_id: conversationId })).details.status_code,
		).toBe('2');
		ok(
			await api('send-message', {
				user_id: staff().bot,
				conversation_id: conversationId,
				message: 'bot',
			}),
		);
		expect(
			ok(await api('get-conversation', { conversation_id: conversationId })).details.status_code,
		).toBe('2');
		expect(
			(await api('send-message', { user_id: -1, conversation_id: 999999, message: 'x' })).text,
		).toBe('{"success":true,"response":true}');
	});

	it('update-conversation-agent: true, status 2, an event message; not-an-agent; unassign; 500 when missing', async () => {
		const { userId, conversationId } = await chat();
		await api('send-message', { user_id: -1, conversation_id: conversationId, message: 'reply' });
		expect(
			ok(
				await api('update-conversation-agent', {
					conversation_id: conversationId,
					agent_id: staff().agent,
				}),
			),
		).toBe(true);
		const got = ok(await api('get-conversation', { conversation_id: conversationId }));
		expect(got.details).toMatchObject({ agent_id: String(staff().agent), status_code: '2' });
		expect(got.messages.at(-1)).toMatchObject({
			user_id: String(staff().admin),
			message: '',
			payload: JSON.stringify({
				event: `conversation-agent-update-${staff().agent}`,
				agent_name: 'Sam Admin',
				agent_name_assigned: 'Alex Agent',
			}),
		});
		// The list shows the latest message with text through the event message.
		const row = ok(await api('get-conversations')).find(
			(r: any) => r.conversation_id === conversationId,
		);
		expect(row).toMatchObject({ message: 'reply', agent_id: String(staff().agent), payload: null });
		expect(
			await api('update-conversation-agent', { conversation_id: conversationId, agent_id: userId }),
		).toMatchObject({ status: 200, text: '{"status":"error","response":"not-an-agent"}' });
		expect(
			ok(await api('update-conversation-agent', { conversation_id: conversationId, agent_id: '' })),
		).toBe(true);
		expect(
			ok(await api('get-conversation', { conversation_id: conversationId })).details.agent_id,
		).toBeNull();
		expect(
			await api('update-conversation-agent', { conversation_id: 999999, agent_id: staff().agent }),
		).toMatchObject({ status: 500, text: '' });
	});

	it('update-conversation-status: 3 archives with an event message; invalid code refused; 500 for a missing one', async () => {
		const { conversationId } = await chat();
		expect(
			ok(
				await api('update-conversation-status', {
					conversation_id: conversationId,
					status_code: 3,
				}),
			),
		).toBe(true);
		const got = ok(await api('get-conversation', { conversation_id: conversationId }));
		expect(got.details.status_code).toBe('3');
		expect(got.messages.at(-1)).toMatchObject({
			user_id: String(staff().admin),
			message: '',
			payload: '{"event":"conversation-status-update-3","agent_name":"Sam Admin"}',
		});
		expect((await listed({})).some((r: any) => r.conversation_id === conversationId)).toBe(false);
		expect(
			(await listed({ status_code: 'all' })).some((r: any) => r.conversation_id === conversationId),
		).toBe(true);
		expect(
			(await listed({ status_code: 3 })).find((r: any) => r.conversation_id === conversationId),
		).toMatchObject({ message: 'Hi from probe', conversation_status_code: '3' });
		expect(
			(await api('update-conversation-status', { conversation_id: conversationId, status_code: 9 }))
				.body,
		).toEqual({ success: false, response: 'invalid-status-code' });
		expect(
			await api('update-conversation-status', { conversation_id: 999999, status_code: 3 }),
		).toMatchObject({ status: 500, text: '' });
		expect(
			ok(await api('update-conversation-status', { conversation_id: 999999, status_code: 1 })),
		).toBe(true);
	});

	it('archived conversations of visitors are left out of status 3', async () => {
		const visitor = ok(await api('add-user', { first_name: 'Vis' }));
		const conversationId = ok(await api('new-conversation', { user_id: visitor })).details.id;
		await api('send-message', {
			user_id: visitor,
			conversation_id: conversationId,
			message: 'hello',
			conversation_status_code: 3,
		});
		expect(
			ok(await api('get-conversation', { conversation_id: conversationId })).details.status_code,
		).toBe('3');
		expect(
			(await listed({ status_code: 3 })).some((r: any) => r.conversation_id === conversationId),
		).toBe(false);
		expect(
			(await listed({ status_code: 'all' })).some((r: any) => r.conversation_id === conversationId),
		).toBe(true);
	});

	it('get-new-conversations, get-new-messages and get-user-from-conversation', async () => {
		const { userId, conversationId, messageId } = await chat();
		await api('update-conversation-status', { conversation_id: conversationId, status_code: 3 });
		const fresh = ok(await api('get-new-conversations', { datetime: messageId - 1 }));
		// One row per conversation; the event message is the latest, its payload raw text here.
		expect(fresh).toEqual([
			expect.objectContaining({
				conversation_id: conversationId,
				message: '',
				message_id: String(messageId + 1),
				payload: '{"event":"conversation-status-update-3","agent_name":"Sam Admin"}',
			}),
		]);
		expect(ok(await api('get-new-conversations', { datetime: messageId + 1 }))).toEqual([]);
		const messages = ok(
			await api('get-new-messages', {
				user_id: userId,
				conversation_id: conversationId,
				datetime: '2000-01-01 00:00:00',
			}),
		);
		expect(messages.map((m: any) => [m.id, m.message])).toEqual([
			[String(messageId), 'Hi from probe'],
			[String(messageId + 1), ''],
		]);
		expect(
			ok(
				await api('get-new-messages', {
					user_id: staff().admin,
					conversation_id: conversationId,
					datetime: '2000-01-01 00:00:00',
				}),
			),
		).toEqual([]);
		const owner = ok(await api('get-user-from-conversation', { conversation_id: conversationId }));
		expect(owner).toMatchObject({ id: String(userId), password: '' });
		expect(ok(await api('get-user-from-conversation', { conversation_id: 999999 }))).toBe(false);
	});
});

// ---------------------------------------------------------------- faults

describe('faults, matched by function name', () => {
	it('applies a fault to the named function only, after the product checks', async () => {
		sb.fault({ path: 'get-users', kind: '429', retryAfter: 7 });
		expect((await api('count-users')).status).toBe(200);
		expect((await raw({ function: 'get-users' })).status).toBe(401);
		const limited = await api('get-users');
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('7');
		expect(sb.requests.at(-1)).toMatchObject({ function: 'get-users', fault: '429' });
		expect((await api('get-users')).status).toBe(200);
	});

	it('serves the other kinds in the product manner', async () => {
		sb.fault({ path: 'get-users', kind: '500' });
		expect(await api('get-users')).toMatchObject({ status: 500, text: '' });
		sb.fault({ path: 'get-users', kind: 'html' });
		const html = await api('get-users');
		expect(html.status).toBe(502);
		expect(html.headers.get('content-type')).toMatch(/^text\/html/);
		sb.fault({ path: 'get-users', kind: 'malformed' });
		const broken = (await api('get-users')).text;
		expect(() => JSON.parse(broken)).toThrow();
		sb.fault({ path: 'get-users', kind: 'success-false', message: 'nope' });
		expect((await api('get-users')).body).toEqual({ success: false, response: 'nope' });
		sb.fault({ path: 'get-users', kind: 'reset' });
		await expect(api('get-users')).rejects.toThrow();
	});

	it('drop-after-write: the write happens, the answer is lost', async () => {
		const before = ok(await api('count-users')).all;
		sb.fault({ path: 'add-user', kind: 'drop-after-write' });
		expect(await api('add-user', { email: 'lost@example.test' })).toMatchObject({
			status: 500,
			text: '',
		});
		expect(Number(ok(await api('count-users')).all)).toBe(Number(before) + 1);
		expect((await api('add-user', { email: 'lost@example.test' })).body.response).toBe(
			'duplicate-email',
		);
	});
});

// ---------------------------------------------------------------- webhooks

interface Received {
	headers: http.IncomingHttpHeaders;
	body: string;
	json: any;
}

const receivers: http.Server[] = [];
afterEach(async () => {
	await mode.settled();
	await Promise.all(
		receivers.splice(0).map(
			(s) =>
				new Promise<void>((resolve) => {
					s.closeAllConnections();
					s.close(() => resolve());
				}),
		),
	);
});

/** A local receiver set as the product's webhook URL; `status` is what it answers. */
async function receiver(
	status = 200,
): Promise<{ url: string; got: Received[]; fns: () => string[] }> {
	const got: Received[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8');
			got.push({ headers: req.headers, body, json: JSON.parse(body) });
			res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
		});
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	receivers.push(server);
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/support-board`;
	mode.configureWebhooks({ url, key: KEY });
	return { url, got, fns: () => got.map((g) => g.json.function) };
}

describe('webhooks fired by Web API calls', () => {
	it('new-conversation-created, then message-sent; sent once, inside the call, with the key', async () => {
		const r = await receiver();
		const userId = await newUser();
		expect(r.got).toEqual([]);
		const { details } = ok(await api('new-conversation', { user_id: userId, title: 'probe chat' }));
		// Already there when the call answers: the product sends inline.
		expect(r.fns()).toEqual(['new-conversation-created']);
		expect(r.got[0].json).toEqual({
			function: 'new-conversation-created',
			key: KEY,
			data: { messages: [], details },
			'sender-url': '',
		});
		const sent = ok(
			await api('send-message', {
				user_id: userId,
				conversation_id: Number(details.id),
				message: 'Hi ünï / x',
			}),
		);
		expect(r.got[1].json.data).toEqual({
			user_id: userId,
			message_id: sent.id,
			message: 'Hi ünï / x',
			attachments: [],
			conversation_user_id: String(userId),
			conversation_id: Number(details.id),
			conversation_status_code: 2,
			conversation_source: '',
		});
		// Slashes escaped, unicode raw; the product's curl headers.
		expect(r.got[1].body).toContain('"message":"Hi ünï \\/ x"');
		expect(r.got[1].headers).toMatchObject({
			'content-type': 'application/json',
			'user-agent':
				'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/114.0.0.0 Safari/537.36',
		});
		expect(r.got[1].headers).not.toHaveProperty('webhook-signature');
		await mode.settled();
		expect(r.got).toHaveLength(2);
		expect(mode.deliveries.map((d) => [d.function, d.status, d.url])).toEqual([
			['new-conversation-created', 200, r.url],
			['message-sent', 200, r.url],
		]);
	});

	it('an agent reply: conversation-status-updated (changed to 1) before message-sent, the admin id as a string', async () => {
		const { conversationId } = await chat();
		const r = await receiver();
		const sent = ok(
			await api(
				'send-message',
				{ user_id: -1, conversation_id: conversationId, message: 'Agent reply' },
				{ referer: 'http://shop.test/page' },
			),
		);
		expect(r.got.map((g) => g.json)).toEqual([
			{
				function: 'conversation-status-updated',
				key: KEY,
				data: { conversation_id: conversationId, status_code: 1 },
				'sender-url': 'http://shop.test/page',
			},
			{
				function: 'message-sent',
				key: KEY,
				'sender-url': 'http://shop.test/page',
				data: expect.objectContaining({
					user_id: String(staff().admin),
					message_id: sent.id,
					conversation_id: conversationId,
					conversation_status_code: 1,
				}),
			},
		]);
		// No change of status, no status webhook.
		await api('send-message', { user_id: -1, conversation_id: conversationId, message: 'again' });
		expect(r.fns()).toEqual(['conversation-status-updated', 'message-sent', 'message-sent']);
	});

	it('update-conversation-status fires conversation-status-updated with the values as sent, even when refused', async () => {
		const { conversationId } = await chat();
		const r = await receiver();
		await api('update-conversation-status', { conversation_id: conversationId, status_code: '3' });
		await api('update-conversation-status', { conversation_id: conversationId, status_code: 9 });
		expect(r.got.map((g) => g.json.data)).toEqual([
			{ conversation_id: conversationId, status_code: '3' },
			{ conversation_id: conversationId, status_code: 9 },
		]);
	});

	it('add-user, update-user, delete-user and update-conversation-agent fire nothing', async () => {
		const { userId, conversationId } = await chat();
		const r = await receiver();
		await api('add-user', { email: 'quiet@example.test' });
		await api('update-user', { user_id: userId, last_name: 'Changed' });
		await api('update-conversation-agent', {
			conversation_id: conversationId,
			agent_id: staff().agent,
		});
		await api('delete-user', { user_id: userId });
		await mode.settled();
		expect(r.got).toEqual([]);
	});

	it('none when inactive, without a URL, or not in allowed; a failing receiver is not retried', async () => {
		const { userId, conversationId } = await chat();
		const r = await receiver(500);
		mode.configureWebhooks({ active: false });
		await api('send-message', { user_id: userId, conversation_id: conversationId, message: 'a' });
		expect(r.got).toEqual([]);
		mode.configureWebhooks({ active: true, allowed: 'conversation-status-updated, login' });
		await api('send-message', { user_id: -1, conversation_id: conversationId, message: 'b' });
		expect(r.fns()).toEqual(['conversation-status-updated']);
		mode.configureWebhooks({ allowed: null, url: null });
		await api('send-message', { user_id: userId, conversation_id: conversationId, message: 'c' });
		await mode.settled();
		expect(r.got).toHaveLength(1);
		expect(mode.deliveries.map((d) => [d.function, d.status])).toEqual([
			['conversation-status-updated', 500],
		]);
		// reset() returns to the start-up settings (no URL) and empties the log.
		sb.reset();
		expect(mode.webhooks).toMatchObject({ active: true, url: null, allowed: null });
		expect(mode.deliveries).toEqual([]);
	});
});

describe('webhooks fired in the browser (visitor and agent levers)', () => {
	const page = () => `${sb.origin}/`;

	it('visitor.start: new-conversation-created (the widget view) then message-sent, from the page', async () => {
		const r = await receiver();
		const started = await mode.visitor.start({
			message: 'Hello there',
			first_name: 'Ana',
			last_name: 'Diaz',
			email: 'ana@example.test',
			title: 'order question',
		});
		expect(r.fns()).toEqual(['new-conversation-created', 'message-sent']);
		const [created, sent] = r.got.map((g) => g.json);
		expect(created['sender-url']).toBe(page());
		expect(created.data.messages).toEqual([]);
		expect(created.data.details).toMatchObject({
			user_id: started.user.id,
			first_name: 'Ana',
			user_type: 'user',
			id: started.conversation.id,
			title: 'Order question',
			status_code: '2',
			tags: null,
		});
		expect(created.data.details).not.toHaveProperty('notes');
		expect(sent.data).toEqual({
			user_id: started.user.id,
			message_id: started.message.id,
			message: 'Hello there',
			attachments: [],
			conversation_user_id: started.user.id,
			conversation_id: started.conversation.id,
			conversation_status_code: 2,
			conversation_source: '',
		});
	});

	it('visitor.say after a reply: conversation-status-updated to 2 then message-sent', async () => {
		const started = await mode.visitor.start({ message: 'Hi' });
		await api('send-message', {
			user_id: -1,
			conversation_id: started.conversation.id,
			message: 'reply',
		});
		const r = await receiver();
		await mode.visitor.say(started.conversation.id, 'thanks');
		expect(
			r.got.map((g) => [g.json.function, g.json.data.status_code ?? g.json.data.message]),
		).toEqual([
			['conversation-status-updated', 2],
			['message-sent', 'thanks'],
		]);
	});

	it('visitor.receiveMessages: new-messages with the reply as the widget serialised it; the chat set live as form strings', async () => {
		const started = await mode.visitor.start({
			message: 'Hi',
			first_name: 'Ana',
			last_name: 'Diaz',
			email: 'ana@example.test',
		});
		const reply = ok(
			await api('send-message', {
				user_id: -1,
				conversation_id: started.conversation.id,
				message: 'Hi Ana, let me check.',
			}),
		);
		const r = await receiver();
		await mode.visitor.receiveMessages(started.conversation.id);
		expect(r.fns()).toEqual(['new-messages', 'conversation-status-updated']);
		const details = r.got[0].json.data.messages[0].details;
		expect(r.got[0].json.data.conversation_id).toBe(started.conversation.id);
		expect(Object.keys(details)).toEqual([
			'id',
			'user_id',
			'message',
			'creation_time',
			'status_code',
			'attachments',
			'first_name',
			'last_name',
			'profile_image',
			'user_type',
			'full_name',
		]);
		expect(details).toMatchObject({
			id: String(reply.id),
			user_id: String(staff().admin),
			message: 'Hi Ana, let me check.',
			status_code: '0',
			user_type: 'admin',
			full_name: 'Sam Admin',
		});
		expect(r.got[1].json.data).toEqual({
			conversation_id: started.conversation.id,
			status_code: '0',
		});
		expect(r.got[1].json['sender-url']).toBe(page());
		// Nothing new: nothing sent.
		await mode.visitor.receiveMessages(started.conversation.id);
		expect(r.got).toHaveLength(2);
	});

	it('visitor.receiveConversation: new-conversation with form strings', async () => {
		const userId = await newUser();
		const { details } = ok(
			await api('new-conversation', { user_id: userId, title: 'from an agent' }),
		);
		await api('send-message', {
			user_id: -1,
			conversation_id: details.id,
			message: 'We wrote first',
		});
		const r = await receiver();
		await mode.visitor.receiveConversation(details.id);
		const data = r.got[0].json.data;
		expect(r.fns()).toEqual(['new-conversation']);
		expect(data.details).toMatchObject({
			id: details.id,
			status_code: '1',
			department: '',
			agent_id: '',
			extra: '',
			tags: '',
			busy: 'false',
		});
		expect(data.messages.map((m: any) => m.details.message)).toEqual(['We wrote first']);
	});

	it('visitor.register: registration with the password in plain text; login: the hash and the token', async () => {
		const r = await receiver();
		const registered = await mode.visitor.register({
			first_name: 'Ana',
			last_name: 'Diaz',
			email: 'ana@example.test',
			password: 'Visitor-Pass-123',
		});
		expect(r.got[0].json).toEqual({
			function: 'registration',
			key: KEY,
			'sender-url': page(),
			data: {
				id: 'registration',
				conversation_id: 'false',
				user: {
					first_name: 'Ana',
					last_name: 'Diaz',
					email: 'ana@example.test',
					password: 'Visitor-Pass-123',
					'password-check': 'Visitor-Pass-123',
					id: registered.user.id,
				},
			},
		});
		expect(await mode.visitor.register({ email: 'ana@example.test', password: 'x' })).toEqual({
			refused: 'duplicate-email',
		});
		await mode.visitor.login({
			email: 'ana@example.test',
			password: 'Visitor-Pass-123',
			conversationId: 4,
		});
		const login = r.got[1].json;
		expect(login.function).toBe('login');
		expect(login.data.details).toMatchObject({
			id: registered.user.id,
			email: 'ana@example.test',
			user_type: 'user',
			token: registered.user.token,
			url: mode.installUrl,
			conversation_id: '4',
		});
		expect(login.data.details.password).toMatch(/^\$2y\$10\$/);
		// A wrong password fires nothing.
		expect(await mode.visitor.login({ email: 'ana@example.test', password: 'wrong' })).toEqual({
			refused: 'invalid-login',
		});
		expect(r.got).toHaveLength(2);
	});

	it('visitor.followUp: new-email-address with id sb-follow-up; agent.deleteUser: user-deleted with the id alone', async () => {
		const started = await mode.visitor.start({ message: 'Hi' });
		const r = await receiver();
		await mode.visitor.followUp({
			conversationId: started.conversation.id,
			email: 'lead@example.test',
			name: 'Ana Diaz',
		});
		expect(r.got[0].json).toEqual({
			function: 'new-email-address',
			key: KEY,
			data: { id: 'sb-follow-up', name: 'Ana Diaz', email: 'lead@example.test' },
			'sender-url': page(),
		});
		expect(ok(await api('get-user', { user_id: started.user.id }))).toMatchObject({
			email: 'lead@example.test',
			user_type: 'user',
		});
		await mode.agent.deleteUser(started.user.id);
		expect(r.got[1].json).toEqual({
			function: 'user-deleted',
			key: KEY,
			data: started.user.id,
			'sender-url': `${mode.installUrl}/admin.php`,
		});
		expect(ok(await api('get-user', { user_id: started.user.id }))).toBe(false);
	});
});

// ---------------------------------------------------------------- control routes and CLI

describe('control routes under /_sandbox/support-board', () => {
	const control = async (method: string, route: string, body?: unknown) => {
		const res = await fetch(`${sb.controlUrl}/support-board${route}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return { status: res.status, body: (await res.json()) as any };
	};

	it('configures webhooks (key masked), drives the visitor and reads the delivery log', async () => {
		const r = await receiver();
		expect((await control('GET', '')).body).toMatchObject({
			installUrl: mode.installUrl,
			apiUrl: mode.apiUrl,
			webhooks: { url: r.url, key: '***' },
		});
		expect((await control('POST', '/webhooks', { allowed: 'message-sent' })).body).toMatchObject({
			allowed: ['message-sent'],
			key: '***',
		});
		expect((await control('POST', '/webhooks', { url: 'ftp://x' })).status).toBe(400);
		const started = await control('POST', '/visitor/start', { message: 'Hi', first_name: 'Ana' });
		expect(started.status).toBe(200);
		const said = await control(
			'POST',
			`/visitor/conversations/${started.body.conversation.id}/messages`,
			{ message: 'more' },
		);
		expect(said.body.message).toBe('more');
		expect((await control('POST', '/visitor/conversations/1/messages', {})).status).toBe(422);
		const deliveries = await control('GET', '/deliveries?settled=1');
		expect(deliveries.body.map((d: any) => d.function)).toEqual(['message-sent', 'message-sent']);
		expect((await control('GET', '/deliveries?since=1')).body).toHaveLength(1);
		expect((await control('DELETE', '/deliveries')).body).toEqual({ ok: true });
		expect(mode.deliveries).toEqual([]);
		expect(
			(await control('POST', '/visitor/register', { email: 'ana@example.test', password: 'pw' }))
				.status,
		).toBe(200);
		expect(
			(await control('POST', '/visitor/register', { email: 'ana@example.test', password: 'pw' }))
				.status,
		).toBe(409);
		expect((await control('GET', '/nope')).status).toBe(404);
		expect((await control('DELETE', '/webhooks')).status).toBe(405);
	});
});

describe('command line', () => {
	it('--api support-board prints the install URL, serves the Web API with --token and sends to --sb-webhook-url', async () => {
		const got: any[] = [];
		const hook = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				got.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
				res.end('ok');
			});
		});
		hook.listen(0, '127.0.0.1');
		await once(hook, 'listening');
		receivers.push(hook);
		const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
		const args = [
			'--api',
			'support-board',
			'--port',
			'0',
			'--token',
			'cli-token',
			'--seed-users',
			'3',
			'--sb-webhook-url',
			hookUrl,
			'--sb-webhook-key',
			'cli-key',
			'--sb-webhook-allowed',
			'new-conversation-created',
		];
		const child = spawn(process.execPath, [path.join(__dirname, '../../sandbox/cli.js'), ...args], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		try {
			const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
			const installUrl = chunk.toString().split('\n')[0];
			expect(installUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/script$/);
			const call = async (body: Record<string, unknown>) =>
				(await (
					await fetch(`${installUrl}/include/api.php`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ token: 'cli-token', ...body }),
					})
				).json()) as any;
			expect((await call({ function: 'get-users' })).response).toHaveLength(5);
			const { details } = (await call({ function: 'new-conversation', user_id: 1 })).response;
			await call({
				function: 'send-message',
				user_id: 1,
				conversation_id: details.id,
				message: 'not allowed',
			});
			expect(got).toEqual([
				{
					function: 'new-conversation-created',
					key: 'cli-key',
					data: expect.objectContaining({ details: expect.objectContaining({ id: details.id }) }),
					'sender-url': '',
				},
			]);
		} finally {
			child.kill('SIGTERM');
			await once(child, 'exit');
		}
	});
});
