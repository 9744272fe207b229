/**
 * Every operation of the spec, run by the real n8n engine against the sandbox over HTTP:
 * the request the service receives, and the items the workflow gets.
 */
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { byId, calls, jsonOf, runAction, TOKEN } from '../helpers/supportChat';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		token: TOKEN,
		pagination: 'page',
		pageSize: 20,
		seed: { users: 45, conversations: 25, tags: ['vip', 'lead', 'newsletter'] },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

describe('users', () => {
	it('gets many users, all of them across pages', async () => {
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'getAll',
			returnAll: true,
		});
		expect(run.status).toBe('success');
		expect(jsonOf(run).map((u) => u.id)).toEqual(sandbox.state.users.map((u) => u.id));
		expect(calls(sandbox)).toEqual(['GET /users', 'GET /users', 'GET /users']);
	});

	it('gets one user by id', async () => {
		const target = sandbox.state.users[7];
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'get',
			userId: byId(target.id),
		});
		expect(jsonOf(run)).toEqual([expect.objectContaining({ id: target.id, email: target.email })]);
		expect(calls(sandbox)).toEqual([`GET /users/${target.id}`]);
	});

	it('creates a user with the four documented fields', async () => {
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'create',
			additionalFields: {
				name: 'Ada Lovelace',
				email: 'ada@example.com',
				phone: '+441234567890',
				tags: 'vip, lead',
			},
		});
		const [created] = jsonOf(run);
		expect(created).toMatchObject({
			name: 'Ada Lovelace',
			email: 'ada@example.com',
			tags: ['vip', 'lead'],
		});
		expect(sandbox.requests[0]).toMatchObject({
			method: 'POST',
			path: '/users',
			body: {
				name: 'Ada Lovelace',
				email: 'ada@example.com',
				phone: '+441234567890',
				tags: ['vip', 'lead'],
			},
		});
		expect(sandbox.requests[0].headers['content-type']).toMatch(/application\/json/);
		expect(sandbox.state.users.find((u) => u.email === 'ada@example.com')).toBeDefined();
	});

	it('sends extra body fields the spec does not list', async () => {
		await runAction(sandbox, {
			resource: 'user',
			operation: 'create',
			additionalFields: {
				email: 'x@example.com',
				extraFields: { field: [{ name: 'department_id', value: 'sales' }] },
			},
		});
		expect(sandbox.requests[0].body).toEqual({ email: 'x@example.com', department_id: 'sales' });
	});

	it('updates a user with PUT', async () => {
		const target = sandbox.state.users[0];
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'update',
			userId: byId(target.id),
			updateFields: { name: 'Renamed' },
		});
		expect(jsonOf(run)[0]).toMatchObject({ id: target.id, name: 'Renamed' });
		expect(sandbox.requests[0]).toMatchObject({
			method: 'PUT',
			path: `/users/${target.id}`,
			body: { name: 'Renamed' },
		});
		expect(sandbox.state.users[0].name).toBe('Renamed');
	});

	it('deletes a user', async () => {
		const target = sandbox.state.users[3];
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'delete',
			userId: byId(target.id),
		});
		expect(jsonOf(run)).toEqual([{ id: target.id, deleted: true }]);
		expect(sandbox.state.users.some((u) => u.id === target.id)).toBe(false);
	});

	it.each([
		['a phone without +', { phone: '015112345678' }, /international format/],
		['a malformed email', { email: 'not-an-address' }, /not a valid email/],
		['nothing at all', {}, /No user fields given/],
	])('refuses %s before calling the service', async (_name, fields, message) => {
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'create',
			additionalFields: fields,
		});
		expect(run.status).toBe('error');
		expect(run.error('Support Chat')).toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringMatching(message),
		});
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('conversations', () => {
	it('gets many conversations of every state', async () => {
		const run = await runAction(sandbox, {
			resource: 'conversation',
			operation: 'getAll',
			returnAll: true,
		});
		const states = new Set(jsonOf(run).map((c) => c.status));
		expect(jsonOf(run)).toHaveLength(25);
		expect(states).toEqual(new Set(['active', 'pending', 'closed']));
	});

	it('filters by status', async () => {
		const run = await runAction(sandbox, {
			resource: 'conversation',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'pending' },
		});
		const expected = sandbox.state.conversations
			.filter((c) => c.status === 'pending')
			.map((c) => c.id);
		expect(jsonOf(run).map((c) => c.id)).toEqual(expected);
		expect(sandbox.requests[0].query).toMatchObject({ status: 'pending' });
	});

	it('gets, creates, assigns and closes', async () => {
		const user = sandbox.state.users[1];
		const created = jsonOf(
			await runAction(sandbox, {
				resource: 'conversation',
				operation: 'create',
				additionalFields: { user_id: user.id, message: 'Hello', subject: 'Order 66' },
			}),
		)[0];
		expect(created).toMatchObject({ user_id: user.id, status: 'active', subject: 'Order 66' });
		const id = String(created.id);

		const fetched = jsonOf(
			await runAction(sandbox, {
				resource: 'conversation',
				operation: 'get',
				conversationId: byId(id),
			}),
		);
		expect(fetched[0]).toMatchObject({ id, user_id: user.id });

		const assigned = jsonOf(
			await runAction(sandbox, {
				resource: 'conversation',
				operation: 'assign',
				conversationId: byId(id),
				assignee: 'agent_7',
			}),
		);
		expect(assigned[0]).toMatchObject({ id, assignee_id: 'agent_7' });

		const closed = jsonOf(
			await runAction(sandbox, {
				resource: 'conversation',
				operation: 'close',
				conversationId: byId(id),
			}),
		);
		expect(closed[0]).toMatchObject({ id, status: 'closed' });

		expect(calls(sandbox)).toEqual([
			'POST /conversations',
			`GET /conversations/${id}`,
			`POST /conversations/${id}/assign`,
			`POST /conversations/${id}/close`,
		]);
		expect(sandbox.requests[2].body).toEqual({ agent_id: 'agent_7' });
		expect(sandbox.state.conversations.find((c) => c.id === id)).toMatchObject({
			status: 'closed',
			assignee_id: 'agent_7',
		});
	});

	it('names the assignee field the user chooses', async () => {
		const id = sandbox.state.conversations[0].id;
		await runAction(sandbox, {
			resource: 'conversation',
			operation: 'assign',
			conversationId: byId(id),
			assignee: 'team-2',
			additionalFields: { assigneeField: 'assignee_id' },
		});
		expect(sandbox.requests[0].body).toEqual({ assignee_id: 'team-2' });
	});
});

describe('messages', () => {
	it('sends a message as agent into a conversation', async () => {
		const conversation = sandbox.state.conversations[2];
		const before = sandbox.state.messages.length;
		const run = await runAction(sandbox, {
			resource: 'message',
			operation: 'send',
			conversationId: byId(conversation.id),
			message: 'We are on it',
			messageType: 'agent',
		});
		expect(jsonOf(run)[0]).toMatchObject({
			conversation_id: conversation.id,
			message: 'We are on it',
			type: 'agent',
		});
		expect(sandbox.requests[0]).toMatchObject({
			method: 'POST',
			path: '/messages',
			body: { conversation_id: conversation.id, message: 'We are on it', type: 'agent' },
		});
		expect(sandbox.state.messages).toHaveLength(before + 1);
	});

	it('passes a message type given by an expression through unchanged', async () => {
		const conversation = sandbox.state.conversations[2];
		await runAction(sandbox, {
			resource: 'message',
			operation: 'send',
			conversationId: byId(conversation.id),
			message: 'internal',
			messageType: '={{ "note" }}',
		});
		expect(sandbox.requests[0].body).toMatchObject({ type: 'note' });
	});

	it('takes ids from the input items by expression, one request per item, each output paired', async () => {
		const [a, b] = sandbox.state.conversations;
		const run = await runAction(
			sandbox,
			{
				resource: 'message',
				operation: 'send',
				conversationId: { __rl: true, mode: 'id', value: '={{ $json.cid }}' },
				message: '={{ "Hi " + $json.name }}',
				messageType: 'agent',
			},
			{
				items: [
					{ cid: a.id, name: 'A' },
					{ cid: b.id, name: 'B' },
				],
			},
		);
		const output = run.output('Support Chat');
		expect(output.map((i) => i.json.conversation_id)).toEqual([a.id, b.id]);
		expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(sandbox.requests.map((r) => (r.body as { message: string }).message)).toEqual([
			'Hi A',
			'Hi B',
		]);
	});

	it('refuses attachments before any request: the REST paths have no field for them', async () => {
		const run = await runAction(sandbox, {
			resource: 'message',
			operation: 'send',
			conversationId: byId(sandbox.state.conversations[0].id),
			message: 'With a file',
			messageType: 'agent',
			additionalFields: {
				attachmentUrls: { attachment: [{ name: 'a.pdf', url: 'https://example.com/a.pdf' }] },
			},
		});
		expect(run.error('Support Chat')).toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringContaining(
				"The service description has no field for a message's attachments",
			),
		});
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('tags', () => {
	it('adds a tag to a user', async () => {
		const user = sandbox.state.users[4];
		const run = await runAction(sandbox, {
			resource: 'tag',
			operation: 'add',
			userId: byId(user.id),
			tag: { __rl: true, mode: 'name', value: 'escalated' },
		});
		expect(run.status).toBe('success');
		expect(sandbox.requests[0]).toMatchObject({
			method: 'POST',
			path: '/tags',
			body: { user_id: user.id, tag: 'escalated' },
		});
		expect(sandbox.state.users[4].tags).toContain('escalated');
	});

	it.each(['objects', 'strings'] as const)(
		'lists all tags given as %s, one item each',
		async (tagShape) => {
			sandbox.configure({ tagShape });
			const run = await runAction(sandbox, {
				resource: 'tag',
				operation: 'getAll',
				returnAll: true,
			});
			expect(jsonOf(run).map((t) => t.name)).toEqual(sandbox.state.tags.map((t) => t.name));
		},
	);
});
