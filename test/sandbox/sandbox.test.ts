/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';

import type { ChangeEvent, PaginationStyle, Sandbox } from '../../sandbox';
import { API_PREFIX, PAGINATION_STYLES, startSandbox } from '../../sandbox';
import type { Reply } from './reply';
import { readReply } from './reply';

const TOKEN = 'test-token';
const USERS = 45;
const CONVERSATIONS = 12;
let sb: Sandbox;

beforeAll(async () => {
	sb = await startSandbox({
		token: TOKEN,
		pageSize: 10,
		seed: { users: USERS, conversations: CONVERSATIONS, tags: ['vip', 'lead'] },
	});
});
afterAll(async () => await sb.close());
beforeEach(() => sb.reset());

async function call(
	method: string,
	target: string,
	options: { body?: unknown; raw?: string; token?: string | null } = {},
): Promise<Reply> {
	const url = /^https?:/.test(target) ? target : `${sb.baseUrl}${target}`;
	const headers: Record<string, string> = {};
	const token = options.token === undefined ? TOKEN : options.token;
	if (token !== null) headers.authorization = `Bearer ${token}`;
	let body: string | undefined = options.raw;
	if (options.body !== undefined) body = JSON.stringify(options.body);
	if (body !== undefined) headers['content-type'] = 'application/json';
	const res = await fetch(url, { method, headers, body });
	return await readReply(res);
}

const get = (target: string) => call('GET', target);
const post = (target: string, body?: unknown) => call('POST', target, { body });
const control = (method: string, route: string, body?: unknown) =>
	call(method, `${sb.controlUrl}${route}`, { body, token: null });

describe('auth', () => {
	it('answers 401 without a token or with a wrong one', async () => {
		const missing = await call('GET', '/users', { token: null });
		expect(missing.status).toBe(401);
		expect(missing.body).toEqual({ message: 'Missing bearer token' });
		expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
		expect((await call('GET', '/users', { token: 'wrong' })).status).toBe(401);
		expect((await call('GET', '/users', { token: `${TOKEN}x` })).status).toBe(401);
		expect((await get('/users')).status).toBe(200);
	});

	it('accepts a token changed at run time', async () => {
		sb.configure({ token: 'rotated' });
		expect((await get('/users')).status).toBe(401);
		expect((await call('GET', '/users', { token: 'rotated' })).status).toBe(200);
	});

	it('never writes the token into the request log', async () => {
		await call('POST', `/users?api_token=${TOKEN}`, { body: { name: `has ${TOKEN} inside` } });
		await call('GET', '/users', { token: 'wrong-one' });
		const log = JSON.stringify(sb.requests);
		expect(log).not.toContain(TOKEN);
		expect(log).not.toContain('wrong-one');
		expect(sb.requests[0].headers.authorization).toBe('Bearer ***');
		expect(sb.requests[0].query).toEqual({ api_token: '***' });
		expect(sb.requests[0].body).toEqual({ name: 'has *** inside' });
		const remote = await control('GET', '/log');
		expect(remote.text).not.toContain(TOKEN);
		expect((await control('GET', '/config')).body.token).toBe('***');
	});
});

/** One page as a client sees it, and where the next one is. */
interface Step {
	items: unknown[];
	next?: string;
}

/**
 * A plain loop per style, written from the style's rules only (no shared detection logic), so that
 * each test proves the style can be walked to the end and really needs several requests.
 */
function stepper(style: PaginationStyle, path: string, resource: string, size: number) {
	const first = `${path}${path.includes('?') ? '&' : '?'}per_page=${size}`;
	const withParam = (name: string, value: string | number) =>
		`${first}&${name}=${encodeURIComponent(String(value))}`;
	let page = 1;
	let offset = 0;
	return async (target: string): Promise<Step> => {
		const { status, body, headers } = await get(target);
		if (style === 'page-nototal-404' && status === 404) return { items: [] };
		expect(status).toBe(200);
		switch (style) {
			case 'none':
				return { items: body };
			case 'array':
				return { items: body, next: body.length > 0 ? withParam('page', ++page) : undefined };
			case 'header-total':
				return {
					items: body,
					next:
						page * size < Number(headers.get('x-total-count'))
							? withParam('page', ++page)
							: undefined,
				};
			case 'link': {
				const next = /<([^>]+)>;\s*rel="next"/.exec(headers.get('link') ?? '');
				return { items: body, next: next?.[1] };
			}
			case 'next-url':
				return { items: body.data, next: body.next_page_url ?? undefined };
			case 'links-next':
				return { items: body.data, next: body.links.next ?? undefined };
			case 'hal':
				return { items: body._embedded[resource], next: body._links.next?.href };
			case 'cursor':
				return {
					items: body.data,
					next: body.next_cursor ? withParam('cursor', body.next_cursor) : undefined,
				};
			case 'cursor-meta': {
				const cursor = body.meta.next_cursor;
				return { items: body[resource], next: cursor ? withParam('cursor', cursor) : undefined };
			}
			case 'has-more': {
				const last = body.data[body.data.length - 1];
				return {
					items: body.data,
					next: body.has_more ? withParam('starting_after', last.id) : undefined,
				};
			}
			case 'page':
				return {
					items: body[resource],
					next: body.page < body.total_pages ? withParam('page', body.page + 1) : undefined,
				};
			case 'page-nototal':
			case 'page-nototal-404':
				return {
					items: body.results,
					next: body.results.length === size ? withParam('page', body.page + 1) : undefined,
				};
			case 'offset':
				offset = body.offset + body.limit;
				return {
					items: body.items,
					next: offset < body.total ? withParam('offset', offset) : undefined,
				};
			case 'offset-nototal':
				offset = body.offset + body.limit;
				return {
					items: body.records,
					next: body.records.length === body.limit ? withParam('offset', offset) : undefined,
				};
		}
	};
}

async function walk(style: PaginationStyle, path: string, resource: string, size: number) {
	const step = stepper(style, path, resource, size);
	const items: unknown[] = [];
	let target: string | undefined = `${path}${path.includes('?') ? '&' : '?'}per_page=${size}`;
	let requests = 0;
	while (target !== undefined) {
		requests++;
		if (requests > 100) throw new Error('the walk does not end');
		const page = await step(target);
		items.push(...page.items);
		target = page.next;
	}
	return { items, requests };
}

describe('pagination', () => {
	const key = (item: unknown) => (typeof item === 'string' ? item : (item as { id: string }).id);

	describe.each(PAGINATION_STYLES.map((style) => [style]))('%s', (style) => {
		beforeEach(() => sb.configure({ pagination: style }));

		it.each([
			['/users', 'users', 10, USERS],
			['/conversations', 'conversations', 5, CONVERSATIONS],
			['/tags', 'tags', 1, 2],
		])('walks %s to the end', async (path, resource, size, total) => {
			const { items, requests } = await walk(style, path, resource, size);
			expect(items.map(key)).toEqual(sb.state[resource as 'users'].map(key));
			expect(items).toHaveLength(total);
			expect(new Set(items.map(key)).size).toBe(total);
			expect(sb.requests).toHaveLength(requests);
			if (style === 'none') expect(requests).toBe(1);
			else expect(requests).toBeGreaterThanOrEqual(Math.max(2, Math.ceil(total / size)));
		});

		it('walks a filtered list', async () => {
			const { items } = await walk(style, '/conversations?status=closed', 'conversations', 2);
			expect(items.map(key)).toEqual(
				sb.state.conversations.filter((c) => c.status === 'closed').map((c) => c.id),
			);
		});
	});

	it('pages bare tag names too', async () => {
		sb.configure({ pagination: 'cursor', tagShape: 'strings' });
		const { items, requests } = await walk('cursor', '/tags', 'tags', 1);
		expect(items).toEqual(['vip', 'lead']);
		expect(requests).toBe(2);
	});

	it('reads the page size from per_page, limit or page_size, capped by maxPageSize', async () => {
		sb.configure({ pagination: 'array', maxPageSize: 7 });
		expect((await get('/users')).body).toHaveLength(7);
		sb.configure({ maxPageSize: 100 });
		expect((await get('/users')).body).toHaveLength(10);
		expect((await get('/users?per_page=3')).body).toHaveLength(3);
		expect((await get('/users?limit=4')).body).toHaveLength(4);
		expect((await get('/users?page_size=5')).body).toHaveLength(5);
		expect((await get('/users?per_page=1000')).body).toHaveLength(USERS);
		expect((await get('/users?page=99')).body).toEqual([]);
	});

	it('answers 400 to a bad page parameter or cursor', async () => {
		sb.configure({ pagination: 'page', errorStyle: 'errors' });
		expect(await get('/users?per_page=0')).toMatchObject({
			status: 400,
			body: { errors: [{ field: 'per_page' }] },
		});
		expect((await get('/users?page=abc')).status).toBe(400);
		sb.configure({ pagination: 'cursor' });
		expect((await get('/users?cursor=bogus')).status).toBe(400);
		sb.configure({ pagination: 'has-more' });
		expect((await get('/users?starting_after=u_9999')).status).toBe(400);
	});

	it('writes absolute next links that keep the query', async () => {
		sb.configure({ pagination: 'next-url' });
		const { body } = await get('/conversations?status=active&per_page=2');
		expect(body).toMatchObject({
			current_page: 1,
			per_page: 2,
			total: 4,
			last_page: 2,
			prev_page_url: null,
		});
		expect(body.next_page_url).toBe(`${sb.baseUrl}/conversations?status=active&per_page=2&page=2`);
		sb.configure({ publicOrigin: 'http://host.example:8080' });
		expect((await get('/users')).body.next_page_url).toBe(
			`http://host.example:8080${API_PREFIX}/users?page=2`,
		);
	});

	it('gives GitHub-style Link relations', async () => {
		sb.configure({ pagination: 'link' });
		const link = (await get('/users?page=2')).headers.get('link') ?? '';
		expect(link).toContain(`<${sb.baseUrl}/users?page=3>; rel="next"`);
		expect(link).toContain(`<${sb.baseUrl}/users?page=5>; rel="last"`);
		expect(link).toContain('rel="prev"');
		expect((await get('/users?page=5')).headers.get('link')).not.toContain('rel="next"');
	});

	it('stays fast and exact at 100,000 users', async () => {
		const started = Date.now();
		sb.seed({ users: 100_000, conversations: 0 });
		expect(Date.now() - started).toBeLessThan(2000);
		sb.configure({ pagination: 'has-more' });
		const t0 = Date.now();
		const deep = await get('/users?starting_after=u_99990&limit=5');
		expect(deep.body.data.map((u: { id: string }) => u.id)).toEqual([
			'u_99991',
			'u_99992',
			'u_99993',
			'u_99994',
			'u_99995',
		]);
		sb.configure({ pagination: 'cursor' });
		let target = '/users?per_page=100';
		for (let i = 0; i < 20; i++)
			target = `/users?per_page=100&cursor=${(await get(target)).body.next_cursor}`;
		expect(Date.now() - t0).toBeLessThan(1500);
		expect((await get(target)).body.data[0].id).toBe('u_2001');
	});
});

describe('envelopes', () => {
	it('wraps records and pages as configured', async () => {
		const user = sb.state.users[0];
		sb.configure({ envelope: 'data', pagination: 'page' });
		expect((await get(`/users/${user.id}`)).body).toEqual({ data: user });
		expect((await get('/users')).body.data).toMatchObject({ page: 1, total_pages: 5 });
		sb.configure({ pagination: 'array' });
		expect((await get('/users')).body.data).toHaveLength(10);
		sb.configure({ pagination: 'next-url' });
		expect((await get('/users')).body).toMatchObject({ current_page: 1, data: expect.any(Array) });
		sb.configure({ envelope: 'success-response', pagination: 'cursor' });
		const page = (await get('/users')).body;
		expect(page).toMatchObject({
			success: true,
			response: { data: expect.any(Array), next_cursor: expect.any(String) },
		});
		expect((await post('/users', { name: 'E' })).body).toMatchObject({
			success: true,
			response: { name: 'E' },
		});
	});
});

describe('users', () => {
	it('lists, gets, creates, updates and deletes', async () => {
		const created = await post('/users', {
			name: 'Ada',
			email: 'ada@example.com',
			phone: '+4915112345678',
			tags: ['vip', 'new'],
			plan: 'pro',
		});
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({
			id: 'u_0046',
			name: 'Ada',
			email: 'ada@example.com',
			tags: ['vip', 'new'],
			plan: 'pro',
		});
		expect(created.body.created_at).toBe(created.body.updated_at);
		expect(sb.state.tags.map((t) => t.name)).toEqual(['vip', 'lead', 'new']);

		expect((await get('/users/u_0046')).body).toEqual(created.body);
		const updated = await call('PUT', '/users/u_0046', {
			body: { name: 'Ada L.', department: 'sales', id: 'hijack' },
		});
		expect(updated.status).toBe(200);
		expect(updated.body).toMatchObject({
			id: 'u_0046',
			name: 'Ada L.',
			email: 'ada@example.com',
			department: 'sales',
		});

		expect(await call('DELETE', '/users/u_0046')).toMatchObject({
			status: 200,
			body: { success: true },
		});
		expect((await get('/users/u_0046')).status).toBe(404);
		sb.configure({ deleteStatus: 204 });
		expect(await call('DELETE', '/users/u_0001')).toMatchObject({ status: 204, text: '' });
		expect(sb.state.users).toHaveLength(USERS - 1);
	});

	it('keeps cursors right after a delete', async () => {
		sb.configure({ pagination: 'cursor' });
		const first = await get('/users?per_page=5');
		await call('DELETE', '/users/u_0002');
		const second = await get(`/users?per_page=5&cursor=${first.body.next_cursor}`);
		expect(second.body.data[0].id).toBe('u_0006');
	});

	it('answers 404, 422, 400 and 405', async () => {
		expect(await get('/users/u_9999')).toMatchObject({
			status: 404,
			body: { message: 'User u_9999 not found' },
		});
		expect((await call('PUT', '/users/u_9999', { body: { name: 'x' } })).status).toBe(404);
		expect((await call('DELETE', '/users/u_9999')).status).toBe(404);
		sb.configure({ errorStyle: 'errors' });
		expect(await post('/users', { tags: 'vip' })).toMatchObject({
			status: 422,
			body: { errors: [{ field: 'tags' }] },
		});
		expect(await post('/users', { email: 42 })).toMatchObject({
			status: 422,
			body: { errors: [{ field: 'email' }] },
		});
		expect((await call('POST', '/users', { raw: '{"name": ' })).status).toBe(400);
		expect((await call('POST', '/users', { raw: '[1]' })).status).toBe(422);
		const wrong = await call('PATCH', '/users/u_0001', { body: {} });
		expect(wrong.status).toBe(405);
		expect(wrong.headers.get('allow')).toBe('GET, PUT, DELETE');
		expect((await get('/nothing')).status).toBe(404);
		expect((await call('GET', `${sb.origin}/elsewhere`)).status).toBe(404);
		expect(sb.state.users).toHaveLength(USERS);
	});
});

describe('conversations', () => {
	it('lists with a status filter and gets one', async () => {
		sb.configure({ pagination: 'none' });
		const all = (await get('/conversations')).body;
		expect(new Set(all.map((c: { status: string }) => c.status))).toEqual(
			new Set(['active', 'pending', 'closed']),
		);
		const pending = (await get('/conversations?status=pending')).body;
		expect(pending.length).toBe(4);
		expect((await get('/conversations?status=active,closed')).body).toHaveLength(8);
		expect(
			(await get('/conversations?user_id=u_0001')).body.map((c: { id: string }) => c.id),
		).toEqual(['c_0001']);
		expect((await get('/conversations?status=open')).status).toBe(422);
		expect((await get('/conversations/c_0003')).body).toEqual(sb.state.conversations[2]);
		expect((await get('/conversations/c_9999')).status).toBe(404);
	});

	it('creates one with a first message and extra fields', async () => {
		const res = await post('/conversations', {
			user_id: 'u_0003',
			message: 'Hello',
			subject: 'Help',
			channel: 'web',
		});
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({
			id: 'c_0013',
			user_id: 'u_0003',
			status: 'active',
			assignee_id: null,
			subject: 'Help',
			channel: 'web',
			closed_at: null,
		});
		expect(Object.keys(res.body)).toEqual([
			'id',
			'user_id',
			'status',
			'assignee_id',
			'subject',
			'channel',
			'created_at',
			'updated_at',
			'closed_at',
		]);
		expect(sb.state.messages.at(-1)).toMatchObject({
			conversation_id: 'c_0013',
			message: 'Hello',
			type: 'user',
		});
		expect(
			(await post('/conversations', { user_id: 'u_0003', status: 'pending' })).body.status,
		).toBe('pending');
		expect((await post('/conversations', {})).status).toBe(422);
		expect((await post('/conversations', { user_id: 'u_0003', status: 'weird' })).status).toBe(422);
		expect((await post('/conversations', { user_id: 'u_9999' })).status).toBe(404);
	});

	it.each(['agent_id', 'assignee_id', 'assignee'])(
		'assigns with %s and activates a pending one',
		async (field) => {
			const pending = sb.state.conversations.find((c) => c.status === 'pending')!;
			const res = await post(`/conversations/${pending.id}/assign`, { [field]: 'agent_9' });
			expect(res).toMatchObject({
				status: 200,
				body: { id: pending.id, assignee_id: 'agent_9', status: 'active' },
			});
		},
	);

	it('rejects an assignment without assignee, and unknown ids', async () => {
		sb.configure({ errorStyle: 'errors' });
		expect(await post('/conversations/c_0001/assign', {})).toMatchObject({
			status: 422,
			body: { errors: [{ field: 'assignee_id' }] },
		});
		expect((await post('/conversations/c_9999/assign', { agent_id: 'a' })).status).toBe(404);
	});

	it('closes, twice', async () => {
		const first = await post('/conversations/c_0001/close');
		expect(first).toMatchObject({
			status: 200,
			body: { status: 'closed', closed_at: expect.any(String) },
		});
		const second = await post('/conversations/c_0001/close');
		expect(second.status).toBe(200);
		expect(second.body.closed_at).toBe(first.body.closed_at);
		expect((await post('/conversations/c_9999/close')).status).toBe(404);
	});
});

describe('messages and tags', () => {
	it('sends a message', async () => {
		const res = await post('/messages', {
			conversation_id: 'c_0002',
			message: 'On it',
			type: 'agent',
		});
		expect(res).toMatchObject({
			status: 201,
			body: { conversation_id: 'c_0002', message: 'On it', type: 'agent' },
		});
		expect(sb.state.messages.at(-1)).toEqual(res.body);
	});

	it.each(['conversation_id', 'message', 'type'])('names the missing field %s', async (field) => {
		sb.configure({ errorStyle: 'errors' });
		const body: Record<string, string> = { conversation_id: 'c_0002', message: 'x', type: 'agent' };
		delete body[field];
		expect(await post('/messages', body)).toMatchObject({
			status: 422,
			body: { errors: [{ field }] },
		});
	});

	it('answers 404 for a message to an unknown conversation', async () => {
		expect(
			(await post('/messages', { conversation_id: 'c_9999', message: 'x', type: 'agent' })).status,
		).toBe(404);
	});

	it('tags a user once and lists tags in both shapes', async () => {
		const first = await post('/tags', { user_id: 'u_0001', tag: 'escalated' });
		expect(first.status).toBe(201);
		expect(first.body.tags).toEqual(['escalated']);
		const again = await post('/tags', { user_id: 'u_0001', tag: 'escalated' });
		expect(again.status).toBe(200);
		expect(again.body.tags).toEqual(['escalated']);
		sb.configure({ pagination: 'none' });
		expect((await get('/tags')).body).toEqual([
			{ id: 't_0001', name: 'vip' },
			{ id: 't_0002', name: 'lead' },
			{ id: 't_0003', name: 'escalated' },
		]);
		sb.configure({ tagShape: 'strings' });
		expect((await get('/tags')).body).toEqual(['vip', 'lead', 'escalated']);
		expect((await post('/tags', { user_id: 'u_9999', tag: 'x' })).status).toBe(404);
		expect((await post('/tags', { user_id: 'u_0001' })).status).toBe(422);
	});
});

describe('error styles', () => {
	it.each([
		[
			'message',
			/application\/json/,
			(r: Reply) => expect(r.body).toEqual({ message: 'User u_9 not found' }),
		],
		[
			'error',
			/application\/json/,
			(r: Reply) => expect(r.body).toEqual({ error: 'User u_9 not found' }),
		],
		[
			'errors',
			/application\/json/,
			(r: Reply) =>
				expect(r.body).toEqual({ errors: [{ message: 'User u_9 not found', field: null }] }),
		],
		[
			'detail',
			/application\/json/,
			(r: Reply) => expect(r.body).toEqual({ detail: 'User u_9 not found' }),
		],
		['text', /text\/plain/, (r: Reply) => expect(r.text).toBe('User u_9 not found')],
		[
			'html',
			/text\/html/,
			(r: Reply) =>
				expect(r.text).toMatch(/<title>404 Not Found<\/title>[\s\S]*User u_9 not found/),
		],
	] as const)('%s', async (errorStyle, contentType, check) => {
		sb.configure({ errorStyle });
		const res = await get('/users/u_9');
		expect(res.status).toBe(404);
		expect(res.headers.get('content-type')).toMatch(contentType);
		check(res);
	});
});

describe('faults', () => {
	it('429 with Retry-After in seconds or as an HTTP-date, once', async () => {
		sb.fault({ kind: '429', retryAfter: 3 });
		const limited = await get('/users');
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('3');
		expect((await get('/users')).status).toBe(200);
		const when = new Date('2030-01-01T00:00:00Z');
		sb.fault({ kind: '429', retryAfter: when });
		expect((await get('/users')).headers.get('retry-after')).toBe('Tue, 01 Jan 2030 00:00:00 GMT');
		expect(sb.requests.map((r) => [r.status, r.fault])).toEqual([
			[429, '429'],
			[200, undefined],
			[429, '429'],
		]);
	});

	it.each([
		['500', 500],
		['503', 503],
	] as const)('%s', async (kind, status) => {
		sb.fault({ kind, times: 2 });
		expect((await get('/users')).status).toBe(status);
		expect((await get('/users')).status).toBe(status);
		expect((await get('/users')).status).toBe(200);
	});

	it('any status', async () => {
		sb.fault({ kind: 'status', status: 409, message: 'conflict' });
		expect(await get('/users/u_0001')).toMatchObject({
			status: 409,
			body: { message: 'conflict' },
		});
	});

	it('slow', async () => {
		sb.fault({ kind: 'slow', delayMs: 150 });
		const started = Date.now();
		expect((await get('/users')).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});

	it('malformed JSON', async () => {
		sb.fault({ kind: 'malformed' });
		const res = await get('/users');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/application\/json/);
		expect(() => JSON.parse(res.text)).toThrow();
	});

	it('an HTML gateway page', async () => {
		sb.fault({ kind: 'html' });
		const res = await get('/users');
		expect(res.status).toBe(502);
		expect(res.headers.get('content-type')).toMatch(/text\/html/);
		expect(res.text).toContain('502 Bad Gateway');
	});

	it('success: false in a 200', async () => {
		sb.fault({ kind: 'success-false', message: 'Quota exceeded' });
		expect(await get('/users')).toMatchObject({
			status: 200,
			body: { success: false, error: 'Quota exceeded' },
		});
	});

	it('reset: the socket closes without an answer, and the request is logged', async () => {
		sb.fault({ kind: 'reset' });
		await expect(get('/users')).rejects.toThrow();
		expect(sb.requests).toEqual([
			expect.objectContaining({ path: '/users', status: 0, fault: 'reset' }),
		]);
		expect((await get('/users')).status).toBe(200);
	});

	it('drop-after-write: the write happens, the answer is a 500', async () => {
		sb.fault({ method: 'POST', path: '/users', kind: 'drop-after-write' });
		expect((await get('/users')).status).toBe(200);
		const res = await post('/users', { name: 'Once' });
		expect(res.status).toBe(500);
		expect(sb.state.users.filter((u) => u.name === 'Once')).toHaveLength(1);
		expect(sb.requests.at(-1)).toMatchObject({
			method: 'POST',
			status: 500,
			fault: 'drop-after-write',
		});
	});

	it('matches method and path (string or RegExp)', async () => {
		sb.fault({ method: 'GET', path: /^\/conversations/, kind: '503', times: 2 });
		expect((await get('/users')).status).toBe(200);
		expect((await post('/conversations/c_0001/close')).status).toBe(200);
		expect((await get('/conversations/c_0001')).status).toBe(503);
		expect(sb.faults()).toEqual([expect.objectContaining({ kind: '503', remaining: 1 })]);
		sb.clearFaults();
		expect((await get('/conversations')).status).toBe(200);
		expect(() => sb.fault({ kind: 'nope' as never })).toThrow(/fault kind/);
	});

	describe('repeat-cursor', () => {
		it('a cursor that points to its own page, forever', async () => {
			sb.configure({ pagination: 'cursor' });
			sb.fault({ path: '/users', kind: 'repeat-cursor' });
			const first = (await get('/users')).body;
			const second = (await get(`/users?cursor=${first.next_cursor}`)).body;
			const third = (await get(`/users?cursor=${second.next_cursor}`)).body;
			expect(second.data).toEqual(first.data);
			expect(third.next_cursor).toBe(second.next_cursor);
		});

		it('a next link to the same URL', async () => {
			sb.configure({ pagination: 'links-next' });
			sb.fault({ kind: 'repeat-cursor', times: 2 });
			const first = (await get('/users?page=2')).body;
			expect(first.links.next).toBe(first.links.self);
			const second = (await get(first.links.next)).body;
			expect(second.data).toEqual(first.data);
			expect((await get(second.links.next)).body.links.next).toBe(`${sb.baseUrl}/users?page=3`);
		});

		it('a page parameter that is ignored', async () => {
			sb.configure({ pagination: 'page' });
			sb.fault({ kind: 'repeat-cursor' });
			const one = (await get('/users?page=1')).body;
			const two = (await get('/users?page=2')).body;
			expect(two).toEqual(one);
			sb.configure({ pagination: 'offset' });
			expect((await get('/users?offset=30')).body.offset).toBe(0);
		});
	});
});

describe('events and the visitor', () => {
	it('emits one change event per state change, with copies', async () => {
		const seen: ChangeEvent[] = [];
		const listener = (event: ChangeEvent) => seen.push(event);
		sb.events.on('change', listener);
		try {
			await post('/users', { name: 'Eve', tags: ['vip'] });
			await call('PUT', '/users/u_0046', { body: { name: 'Eve 2' } });
			await post('/conversations', { user_id: 'u_0046', message: 'Hi' });
			await post('/conversations/c_0013/assign', { agent_id: 'a1' });
			await post('/messages', { conversation_id: 'c_0013', message: 'Hello Eve', type: 'agent' });
			await post('/tags', { user_id: 'u_0046', tag: 'lead' });
			await post('/conversations/c_0013/close');
			await call('DELETE', '/users/u_0046');
			await get('/users');
		} finally {
			sb.events.off('change', listener);
		}
		expect(seen.map((e) => e.kind)).toEqual([
			'userCreated',
			'userUpdated',
			'conversationCreated',
			'messageCreated',
			'conversationAssigned',
			'messageCreated',
			'tagApplied',
			'conversationClosed',
			'userDeleted',
		]);
		expect(seen.every((e) => e.source === 'api')).toBe(true);
		expect(seen[0]).toMatchObject({ id: 'e_0001', data: { user: { name: 'Eve', tags: ['vip'] } } });
		expect(seen[6]).toMatchObject({
			kind: 'tagApplied',
			data: { tag: 'lead', user: { id: 'u_0046', tags: ['vip', 'lead'] } },
		});
	});

	it('starts a conversation as a visitor, reusing a known e-mail', async () => {
		const kinds: string[] = [];
		const listener = (event: ChangeEvent) => kinds.push(`${event.source}:${event.kind}`);
		sb.events.on('change', listener);
		try {
			const anonymous = sb.visitor.startConversation({ message: 'Is anyone there?' });
			expect(anonymous).toMatchObject({
				userCreated: true,
				user: { name: 'Visitor 46', email: null },
				conversation: { status: 'pending' },
				message: { type: 'user', message: 'Is anyone there?' },
			});
			const known = sb.visitor.startConversation({
				email: sb.state.users[0].email!.toUpperCase(),
				message: 'Me again',
			});
			expect(known).toMatchObject({ userCreated: false, user: { id: 'u_0001' } });
			expect(sb.visitor.say(known.conversation.id, 'Hello?')).toMatchObject({
				type: 'user',
				conversation_id: known.conversation.id,
			});
			expect(() => sb.visitor.say('c_9999', 'x')).toThrow(/not found/);
			const lead = sb.visitor.captureLead({
				email: 'lead@example.com',
				name: 'Lena',
				conversationId: anonymous.conversation.id,
			});
			expect(lead).toMatchObject({
				created: false,
				user: { id: anonymous.user.id, email: 'lead@example.com', name: 'Lena' },
			});
		} finally {
			sb.events.off('change', listener);
		}
		expect(kinds).toEqual([
			'visitor:userCreated',
			'visitor:conversationCreated',
			'visitor:messageCreated',
			'visitor:conversationCreated',
			'visitor:messageCreated',
			'visitor:messageCreated',
			'visitor:userUpdated',
			'visitor:leadCaptured',
		]);
	});
});

describe('control API', () => {
	it('configures, queues faults, reads the log and state, seeds and resets', async () => {
		expect((await control('GET', '/health')).body).toEqual({ ok: true, baseUrl: sb.baseUrl });
		expect(
			(await control('POST', '/configure', { pagination: 'cursor', pageSize: 3 })).body,
		).toMatchObject({ pagination: 'cursor', pageSize: 3 });
		expect((await get('/users')).body.data).toHaveLength(3);
		expect((await control('POST', '/configure', { pagination: 'sideways' })).status).toBe(400);
		expect((await control('POST', '/configure', { nonsense: 1 })).status).toBe(400);

		expect(
			(
				await control('POST', '/faults', {
					kind: '429',
					pathRegex: '^/users',
					retryAfter: 2,
					times: null,
				})
			).body,
		).toMatchObject({
			kind: '429',
			pathRegex: new RegExp('^/users').source,
			remaining: null,
		});
		expect((await get('/users/u_0001')).status).toBe(429);
		expect((await control('GET', '/faults')).body).toHaveLength(1);
		await control('DELETE', '/faults');
		expect((await get('/users/u_0001')).status).toBe(200);
		expect((await control('POST', '/faults', { kind: 'wrong' })).status).toBe(400);

		const log = (await control('GET', '/log')).body;
		expect(log.map((r: { path: string; status: number }) => `${r.path} ${r.status}`)).toEqual([
			'/users 200',
			'/users/u_0001 429',
			'/users/u_0001 200',
		]);
		expect((await control('GET', '/log?since=2')).body).toHaveLength(1);
		await control('DELETE', '/log');
		expect(sb.requests).toHaveLength(0);

		expect((await control('GET', '/state?resource=tags')).body).toEqual(sb.state.tags);
		expect(
			(await control('POST', '/seed', { users: 3, conversations: 2, tags: ['x'] })).body,
		).toEqual({ users: 3, conversations: 2, messages: 2, tags: 1 });
		expect((await control('GET', '/state')).body.users).toHaveLength(3);
		await control('POST', '/reset');
		expect(sb.state.users).toHaveLength(USERS);
		expect(sb.config.pagination).toBe('page');
		expect((await control('GET', '/nowhere')).status).toBe(404);
	});

	it('drives the visitor', async () => {
		const started = await control('POST', '/visitor/conversations', {
			name: 'Vic',
			email: 'vic@example.com',
			message: 'Hi',
		});
		expect(started).toMatchObject({
			status: 201,
			body: { userCreated: true, conversation: { status: 'pending' } },
		});
		const said = await control(
			'POST',
			`/visitor/conversations/${started.body.conversation.id}/messages`,
			{ message: 'Still here' },
		);
		expect(said).toMatchObject({ status: 201, body: { message: 'Still here', type: 'user' } });
		expect(
			(await control('POST', '/visitor/conversations/c_9999/messages', { message: 'x' })).status,
		).toBe(404);
		expect((await control('POST', '/visitor/conversations', {})).status).toBe(422);
		expect((await control('POST', '/visitor/leads', { email: 'new@example.com' })).status).toBe(
			201,
		);
		expect(sb.requests).toHaveLength(0);
	});
});

describe('server', () => {
	it('keeps connections alive', async () => {
		const res = await fetch(`${sb.baseUrl}/users`, {
			headers: { authorization: `Bearer ${TOKEN}` },
		});
		await res.text();
		expect(res.headers.get('keep-alive')).toMatch(/timeout=/);
	});

	it('starts from the command line', async () => {
		const child = spawn(
			process.execPath,
			[
				path.join(__dirname, '../../sandbox/cli.js'),
				'--port',
				'0',
				'--seed-users',
				'3',
				'--pagination',
				'cursor',
			],
			{
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		try {
			const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
			const baseUrl = chunk.toString().split('\n')[0];
			expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/script\/include\/api$/);
			const res = await fetch(`${baseUrl}/users`, {
				headers: { authorization: 'Bearer demo-token' },
			});
			const page = (await res.json()) as { data: unknown[] };
			expect(page.data).toHaveLength(3);
		} finally {
			child.kill('SIGTERM');
			await once(child, 'exit');
		}
	});
});
