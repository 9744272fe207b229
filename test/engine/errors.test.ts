/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Failures as a workflow builder meets them: which errors, with which words, which requests were
 * retried and which were not, and what continue-on-fail hands on.
 */
import type { ErrorStyle, Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { byId, calls, jsonOf, runAction, TOKEN } from '../helpers/supportChat';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		token: TOKEN,
		pagination: 'page',
		pageSize: 20,
		seed: { users: 30, conversations: 10 },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

const getUser = (id: string, extra: Record<string, unknown> = {}, opts = {}) =>
	runAction(
		sandbox,
		{ resource: 'user', operation: 'get', userId: byId(id), ...extra } as never,
		opts,
	);
const sendMessage = (extra: Record<string, unknown> = {}) =>
	runAction(sandbox, {
		resource: 'message',
		operation: 'send',
		conversationId: byId(sandbox.state.conversations[0].id),
		message: 'hello',
		messageType: 'agent',
		...extra,
	} as never);
const fast = { options: { maxRetryWait: 5 } };

describe('the service’s own message reaches the user, whatever the error body’s shape', () => {
	it.each<ErrorStyle>(['message', 'error', 'errors', 'detail', 'text', 'html'])(
		'%s',
		async (errorStyle) => {
			sandbox.configure({ errorStyle });
			const run = await getUser('u_missing');
			const error = run.error('Support Chat');
			expect(run.status).toBe('error');
			expect(error).toMatchObject({
				name: 'NodeApiError',
				httpCode: '404',
				message: expect.stringMatching(
					/^The service answered GET \/users\/u_missing with 404: .*not found/i,
				),
				description: expect.stringContaining('user was not found'),
			});
		},
	);
});

describe('hints by cause', () => {
	it('401: points at the token and never shows it', async () => {
		const run = await getUser(
			sandbox.state.users[0].id,
			{},
			{ credentials: { apiToken: 'wrong-token-123456' } },
		);
		const error = run.error('Support Chat')!;
		expect(error).toMatchObject({ httpCode: '401', description: expect.stringContaining('token') });
		expect(JSON.stringify(run.run.data)).not.toContain('wrong-token-123456');
		expect(JSON.stringify(run.run.data)).not.toContain(TOKEN);
	});

	it('422: names the field the service rejected', async () => {
		const id = sandbox.state.conversations[0].id;
		const run = await runAction(sandbox, {
			resource: 'conversation',
			operation: 'assign',
			conversationId: byId(id),
			assignee: 'a1',
			additionalFields: { assigneeField: 'team' },
		});
		expect(run.error('Support Chat')).toMatchObject({
			httpCode: '422',
			message: expect.stringMatching(/assign/i),
			description: expect.stringContaining('field'),
		});
	});

	it('refuses a plain-HTTP base URL on a remote host before sending anything', async () => {
		const run = await getUser(
			'u_0001',
			{},
			{ credentials: { baseUrl: 'http://chat.example.com' } },
		);
		expect(run.error('Support Chat')).toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringContaining('Allow Plain HTTP'),
		});
	});

	it('accepts the base URL with the API suffix and a trailing slash', async () => {
		const run = await getUser(
			sandbox.state.users[0].id,
			{},
			{ credentials: { baseUrl: `${sandbox.baseUrl}/` } },
		);
		expect(run.status).toBe('success');
	});
});

describe('200 answers that are not successes', () => {
	it('a body that says success: false is a failure', async () => {
		sandbox.fault({ kind: 'success-false', message: 'Quota exceeded' });
		const run = await getUser(sandbox.state.users[0].id);
		expect(run.error('Support Chat')).toMatchObject({
			message: expect.stringContaining('Quota exceeded'),
		});
	});

	it('malformed JSON is a failure that says so', async () => {
		sandbox.fault({ kind: 'malformed' });
		const run = await getUser(sandbox.state.users[0].id);
		expect(run.error('Support Chat')).toMatchObject({
			message: expect.stringContaining('malformed JSON'),
		});
	});
});

describe('retries', () => {
	it('retries a 429 on a read after the Retry-After seconds', async () => {
		sandbox.fault({ kind: '429', retryAfter: 1 });
		const run = await getUser(sandbox.state.users[0].id);
		expect(run.status).toBe('success');
		expect(sandbox.requests.map((r) => r.status)).toEqual([429, 200]);
		expect(sandbox.requests[1].time - sandbox.requests[0].time).toBeGreaterThanOrEqual(950);
	});

	it('retries a 429 on a creation too: the service refused before doing anything', async () => {
		sandbox.fault({ method: 'POST', kind: '429', retryAfter: new Date(Date.now() + 1000) });
		const before = sandbox.state.messages.length;
		const run = await sendMessage();
		expect(run.status).toBe('success');
		expect(sandbox.requests.map((r) => r.status)).toEqual([429, 201]);
		expect(sandbox.state.messages).toHaveLength(before + 1);
	});

	it('fails at once when Retry-After asks for longer than Max Retry Wait', async () => {
		sandbox.fault({ kind: '429', retryAfter: 3600 });
		const run = await getUser(sandbox.state.users[0].id, fast);
		expect(run.error('Support Chat')).toMatchObject({
			httpCode: '429',
			message: expect.stringContaining('asked to wait 3600 s'),
		});
		expect(sandbox.requests).toHaveLength(1);
	});

	it.each(['500', '503', 'reset', 'html'] as const)('retries a read after a %s', async (kind) => {
		sandbox.fault({ kind, times: 2 });
		const run = await getUser(sandbox.state.users[0].id, fast);
		expect(run.status).toBe('success');
		expect(sandbox.requests).toHaveLength(3);
	});

	it('retries a PUT and a DELETE after a 503', async () => {
		const [a, b] = sandbox.state.users;
		sandbox.fault({ kind: '503', times: 1, method: 'PUT' });
		sandbox.fault({ kind: '503', times: 1, method: 'DELETE' });
		expect(
			(
				await runAction(sandbox, {
					resource: 'user',
					operation: 'update',
					userId: byId(a.id),
					updateFields: { name: 'N' },
				})
			).status,
		).toBe('success');
		expect(
			(await runAction(sandbox, { resource: 'user', operation: 'delete', userId: byId(b.id) }))
				.status,
		).toBe('success');
		expect(calls(sandbox)).toEqual([
			`PUT /users/${a.id}`,
			`PUT /users/${a.id}`,
			`DELETE /users/${b.id}`,
			`DELETE /users/${b.id}`,
		]);
	});

	it('never re-sends a POST after a 500: the message reached the service exactly once', async () => {
		sandbox.fault({ method: 'POST', path: '/messages', kind: 'drop-after-write' });
		const before = sandbox.state.messages.length;
		const run = await sendMessage();
		expect(run.error('Support Chat')).toMatchObject({
			httpCode: '500',
			message: expect.stringContaining('POST not retried'),
		});
		expect(calls(sandbox)).toEqual(['POST /messages']);
		expect(sandbox.state.messages).toHaveLength(before + 1);
	});

	it('a DELETE retried after its first attempt went through finds nothing, which counts as deleted', async () => {
		const target = sandbox.state.users[2].id;
		sandbox.fault({ method: 'DELETE', kind: 'drop-after-write' });
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'delete',
			userId: byId(target),
			options: { maxRetryWait: 1 },
		});
		expect(run.status).toBe('success');
		expect(jsonOf(run)).toEqual([{ id: target, deleted: true, noResponseBody: true }]);
		expect(calls(sandbox)).toEqual([`DELETE /users/${target}`, `DELETE /users/${target}`]);
		expect(sandbox.state.users.find((u) => u.id === target)).toBeUndefined();
	});

	it('a DELETE of a record that was never there is still a 404 on its first attempt', async () => {
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'delete',
			userId: byId('u_nobody'),
		});
		expect(run.error('Support Chat')).toMatchObject({ httpCode: '404' });
	});

	it('never re-sends a POST after a dropped connection', async () => {
		sandbox.fault({ method: 'POST', kind: 'reset' });
		const run = await runAction(sandbox, {
			resource: 'tag',
			operation: 'add',
			userId: byId(sandbox.state.users[0].id),
			tag: 'x',
		});
		expect(run.status).toBe('error');
		expect(calls(sandbox)).toEqual(['POST /tags']);
	});

	it('gives up after Max Attempts and says so', async () => {
		sandbox.fault({ kind: '503', times: 10 });
		const run = await getUser(sandbox.state.users[0].id, {
			options: { maxAttempts: 2, maxRetryWait: 1 },
		});
		expect(run.error('Support Chat')).toMatchObject({
			httpCode: '503',
			message: expect.stringContaining('gave up after 2 attempts'),
		});
		expect(sandbox.requests).toHaveLength(2);
	});

	it('retries a page of a list without losing or repeating records', async () => {
		sandbox.fault({ kind: '503', path: '/users', times: 1 });
		sandbox.fault({ kind: '429', retryAfter: 0, path: '/users', times: 1 });
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'getAll',
			returnAll: true,
		});
		expect(jsonOf(run).map((u) => u.id)).toEqual(sandbox.state.users.map((u) => u.id));
	});
});

describe('rate limit', () => {
	it('spaces requests to the ceiling set in the options, across items', async () => {
		const ids = sandbox.state.users.slice(0, 6).map((u) => ({ id: u.id }));
		const before = Date.now();
		const run = await runAction(
			sandbox,
			{
				resource: 'user',
				operation: 'get',
				userId: byId('={{ $json.id }}'),
				options: { requestsPerSecond: 10 },
			},
			{ items: ids },
		);
		const took = Date.now() - before;
		// Six starts 100 ms apart all fall inside the run, so it cannot take less than half a second; a
		// busy machine can only make it longer. Arrival times at the sandbox, which shares this process's
		// event loop, carry that machine's jitter, so the spacing of the starts themselves is asserted in
		// test/unit/transport/limits.test.ts (RateLimiter), not here.
		expect(jsonOf(run)).toHaveLength(6);
		expect(sandbox.requests).toHaveLength(6);
		expect(took).toBeGreaterThanOrEqual(500);
	});

	it('gates each request where it starts: at 2 a second, no two reach the service close together', async () => {
		const ids = sandbox.state.users.slice(0, 4).map((u) => ({ id: u.id }));
		await runAction(
			sandbox,
			{
				resource: 'user',
				operation: 'get',
				userId: byId('={{ $json.id }}'),
				options: { requestsPerSecond: 2 },
			},
			{ items: ids },
		);
		// Starts 500 ms apart; half of that is left to the in-process sandbox's jitter, far more than a
		// busy machine was seen to add (about 80 ms). A limiter that let requests through first and waited
		// after, or in a burst, puts two arrivals a few milliseconds apart.
		const times = sandbox.requests.map((r) => r.time);
		expect(times).toHaveLength(4);
		for (let i = 1; i < times.length; i++)
			expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(250);
	});
});

describe('continue on fail', () => {
	it('gives one error item for the failed input item and goes on with the others, all paired', async () => {
		const [a, b] = sandbox.state.users;
		const run = await runAction(
			sandbox,
			{ resource: 'user', operation: 'get', userId: byId('={{ $json.id }}') },
			{ items: [{ id: a.id }, { id: 'u_missing' }, { id: b.id }], continueOnFail: true },
		);
		expect(run.status).toBe('success');
		const output = run.output('Support Chat');
		expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json.id).toBe(a.id);
		expect(output[1].json).toMatchObject({
			error: expect.stringContaining('404'),
			httpCode: '404',
		});
		expect(output[2].json.id).toBe(b.id);
	});

	it('without it, stops at the failed item and names it', async () => {
		const run = await runAction(
			sandbox,
			{ resource: 'user', operation: 'get', userId: byId('={{ $json.id }}') },
			{ items: [{ id: sandbox.state.users[0].id }, { id: 'u_missing' }] },
		);
		expect(run.error('Support Chat')).toMatchObject({
			context: expect.objectContaining({ itemIndex: 1 }),
		});
	});

	it('an id that an expression leaves empty is an input error for that item, sent nowhere', async () => {
		const run = await runAction(
			sandbox,
			{ resource: 'user', operation: 'get', userId: byId('={{ $json.id }}') },
			{ items: [{ id: '' }], continueOnFail: true },
		);
		expect(jsonOf(run)[0]).toMatchObject({ error: 'The user ID is empty' });
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('a read answered without a record', () => {
	it.each([
		['an empty object', {}, 'an empty object'],
		['an envelope around nothing', { data: {} }, 'an empty object'],
		['a list', [{ id: 'u_1' }, { id: 'u_2' }], 'a list of 2'],
	])('%s fails the item, and the node makes no record up', async (_label, body, got) => {
		sandbox.fault({
			kind: 'raw',
			path: '/users/u_1',
			contentType: 'application/json',
			body: JSON.stringify(body),
		});
		const run = await getUser('u_1');
		expect(run.status).toBe('error');
		expect(run.error('Support Chat')).toMatchObject({
			name: 'NodeApiError',
			message: `The service answered without a user record (it sent ${got})`,
			description: expect.stringContaining('Check the Base URL and the ID'),
		});
	});

	it('says the same thing as a read answered with no JSON object at all', async () => {
		sandbox.fault({
			kind: 'raw',
			path: '/users/u_1',
			contentType: 'application/json',
			body: 'null',
		});
		const bare = (await getUser('u_1')).error('Support Chat')!;
		sandbox.fault({ kind: 'raw', path: '/users/u_1', contentType: 'application/json', body: '{}' });
		const empty = (await getUser('u_1')).error('Support Chat')!;
		expect(bare.message).toBe(
			'The service answered GET /users/u_1 with null, where a read needs a record or a list',
		);
		expect(empty.description).toBe(bare.description);
	});
});
