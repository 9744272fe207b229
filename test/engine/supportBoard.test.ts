/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Every operation with the credentials' Support Board Web API, run by the real n8n engine against the
 * sandbox's Support Board mode: the function and arguments the product receives, and the items.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { callMethod, runNode, testCredentials } from '../helpers/engine';
import { ACTION_TYPE, byId, jsonOf } from '../helpers/supportChat';

const TOKEN = 'sb-admin-token-7f3a9c';
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		api: 'support-board',
		token: TOKEN,
		seed: { users: 230, conversations: 12 },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

const install = () => sandbox.supportBoard!.installUrl;
const credentials = (overrides: IDataObject = {}) => ({
	types: [new SupportChatApi()],
	data: {
		supportChatApi: { api: 'supportBoard', baseUrl: install(), apiToken: TOKEN, ...overrides },
	},
});

async function run(parameters: INodeParameters, overrides: IDataObject = {}) {
	return await runNode({
		node: { name: 'Support Chat', type: ACTION_TYPE, parameters, onError: 'continueRegularOutput' },
		nodeTypes: { [ACTION_TYPE]: new SupportChat() },
		credentials: credentials(overrides),
	});
}

/** The functions the product received, in order, with their arguments (the token masked by the log). */
const functions = () => sandbox.requests.map((r) => r.function);
const args = (index: number) => sandbox.requests[index].body as IDataObject;
const output = (result: Awaited<ReturnType<typeof run>>) =>
	JSON.stringify(result.output('Support Chat'));

describe('users', () => {
	it('Get Many with Return All reads 100-row pages until a short one, newest first, no bots', async () => {
		const result = await run({ resource: 'user', operation: 'getAll', returnAll: true });
		const users = jsonOf(result);
		// 230 seeded plus the admin and the agent of a fresh install; the bot is never listed.
		expect(users).toHaveLength(232);
		expect(functions()).toEqual(['get-users', 'get-users', 'get-users']);
		expect(sandbox.requests.map((r) => (r.body as IDataObject).pagination)).toEqual([0, 1, 2]);
		expect(users.every((user) => user.user_type !== 'bot')).toBe(true);
	});

	it('Get Many with a Limit stops at it, in one call', async () => {
		const result = await run({ resource: 'user', operation: 'getAll', returnAll: false, limit: 5 });
		expect(jsonOf(result)).toHaveLength(5);
		expect(functions()).toEqual(['get-users']);
	});

	it("Simplify joins Support Board's first and last name", async () => {
		const result = await run({
			resource: 'user',
			operation: 'get',
			userId: byId('1'),
			simplify: true,
		});
		expect(jsonOf(result)).toEqual([
			{ id: '1', email: 'ada.adams.1@example.com', name: 'Ada Adams' },
		]);
	});

	it('Get answers the record; the password hash and login token are masked by name, and the admin token is nowhere', async () => {
		const result = await run({ resource: 'user', operation: 'get', userId: byId('1') });
		const [user] = jsonOf(result);
		expect(user).toMatchObject({ id: '1', first_name: 'Ada', token: '[redacted]' });
		expect(functions()).toEqual(['get-user']);
		expect(args(0)).toMatchObject({ function: 'get-user', user_id: '1', token: '***' });
		const admin = await run({ resource: 'user', operation: 'getAll', returnAll: true });
		expect(output(admin)).not.toContain(TOKEN);
	});

	it('a missing user is an error that says so (the product answers false)', async () => {
		const result = await run({ resource: 'user', operation: 'get', userId: byId('99999') });
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({
				error: 'Support Board has no user with ID 99999',
				httpCode: '404',
			}),
		]);
	});

	it('Create splits the name, sends the phone as a user detail, and outputs the new id with what was sent', async () => {
		const result = await run({
			resource: 'user',
			operation: 'create',
			additionalFields: {
				name: 'Grace Brewster Hopper',
				email: 'grace@example.com',
				phone: '+15551234567',
			},
		});
		const [created] = jsonOf(result);
		expect(args(0)).toMatchObject({
			function: 'add-user',
			first_name: 'Grace',
			last_name: 'Brewster Hopper',
			email: 'grace@example.com',
			extra: { phone: ['+15551234567', 'Phone'] },
		});
		expect(created).toMatchObject({
			id: expect.anything(),
			first_name: 'Grace',
			email: 'grace@example.com',
		});
		const stored = await run({
			resource: 'user',
			operation: 'get',
			userId: byId(String(created.id)),
			simplify: true,
		});
		expect(jsonOf(stored)).toEqual([
			expect.objectContaining({ name: 'Grace Brewster Hopper', email: 'grace@example.com' }),
		]);
	});

	it('an e-mail in use is refused with what to do, and the add is not repeated', async () => {
		const result = await run({
			resource: 'user',
			operation: 'create',
			additionalFields: { email: 'ada.adams.1@example.com' },
		});
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({
				error: expect.stringContaining('duplicate-email'),
				description: expect.stringContaining('exists already'),
			}),
		]);
		expect(functions()).toEqual(['add-user']);
	});

	it('tags on Create fail before any request: the product has no user tags', async () => {
		const result = await run({
			resource: 'user',
			operation: 'create',
			additionalFields: { email: 'x@example.com', tags: 'vip' },
		});
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ error: expect.stringContaining('no tag function') }),
		]);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('Update sends update-user with the phone under settings_extra; Delete sends delete-user', async () => {
		const updated = await run({
			resource: 'user',
			operation: 'update',
			userId: byId('2'),
			updateFields: { name: 'Ben Renamed', phone: '+15550000000' },
		});
		expect(jsonOf(updated)).toEqual([
			expect.objectContaining({ id: '2', first_name: 'Ben', last_name: 'Renamed' }),
		]);
		expect(args(0)).toMatchObject({
			function: 'update-user',
			user_id: '2',
			settings_extra: { phone: ['+15550000000', 'Phone'] },
		});
		const deleted = await run({ resource: 'user', operation: 'delete', userId: byId('3') });
		expect(jsonOf(deleted)).toEqual([{ id: '3', deleted: true }]);
		expect(functions()).toEqual(['update-user', 'delete-user']);
	});
});

describe('conversations', () => {
	it('Get Many covers active, pending and archived (status_code all); a Status filter sends the product code', async () => {
		await run({ resource: 'conversation', operation: 'getAll', returnAll: true });
		expect(args(0)).toMatchObject({
			function: 'get-conversations',
			status_code: 'all',
			pagination: 0,
		});
		sandbox.clearLog();
		await run({
			resource: 'conversation',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'closed' },
		});
		expect(args(0)).toMatchObject({ status_code: 3 });
	});

	it('Get answers {messages, details}; Simplify reads details', async () => {
		const result = await run({
			resource: 'conversation',
			operation: 'get',
			conversationId: byId('1'),
			simplify: true,
		});
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({
				id: '1',
				user_id: expect.any(String),
				user_name: expect.any(String),
			}),
		]);
		expect(functions()).toEqual(['get-conversation']);
	});

	it('Create needs the user; with a first message it opens the conversation, then the user writes it', async () => {
		const refused = await run({
			resource: 'conversation',
			operation: 'create',
			additionalFields: { subject: 'No user' },
		});
		expect(jsonOf(refused)).toEqual([
			expect.objectContaining({ error: expect.stringContaining('set User ID under Fields') }),
		]);
		expect(sandbox.requests).toHaveLength(0);
		const result = await run({
			resource: 'conversation',
			operation: 'create',
			additionalFields: { user_id: '2', subject: 'Order 42', message: 'Where is it?' },
		});
		expect(functions()).toEqual(['new-conversation', 'send-message']);
		expect(args(0)).toMatchObject({ user_id: '2', title: 'Order 42' });
		expect(args(1)).toMatchObject({ user_id: '2', message: 'Where is it?' });
		expect(jsonOf(result)[0]).toMatchObject({
			details: { title: 'Order 42' },
			first_message: { message: 'Where is it?' },
		});
	});

	it('Assign refuses an Assignee Field Name other than agent_id before any request, naming the option', async () => {
		const refused = await run({
			resource: 'conversation',
			operation: 'assign',
			conversationId: byId('1'),
			assignee: '7',
			additionalFields: { assigneeField: 'assignee_id' },
		});
		expect(jsonOf(refused)).toEqual([
			expect.objectContaining({
				error: expect.stringContaining('Remove Assignee Field Name under Additional Fields'),
			}),
		]);
		expect(jsonOf(refused)[0].error).toContain('("assignee_id")');
		expect(sandbox.requests).toHaveLength(0);
	});

	it('Assign sends update-conversation-agent; Close archives with status 3; neither is repeated after a 500', async () => {
		const agent = String(Number(sandbox.supportBoard!.data.staff!.agent.id.slice(2)));
		await run({
			resource: 'conversation',
			operation: 'assign',
			conversationId: byId('1'),
			assignee: agent,
		});
		expect(args(0)).toMatchObject({
			function: 'update-conversation-agent',
			conversation_id: '1',
			agent_id: agent,
		});
		const closed = await run({
			resource: 'conversation',
			operation: 'close',
			conversationId: byId('1'),
		});
		expect(jsonOf(closed)).toEqual([{ id: '1', closed: true }]);
		expect(args(1)).toMatchObject({ function: 'update-conversation-status', status_code: 3 });
		sandbox.clearLog();
		sandbox.fault({ path: 'update-conversation-status', kind: '500' });
		const failed = await run({
			resource: 'conversation',
			operation: 'close',
			conversationId: byId('2'),
		});
		expect(jsonOf(failed)).toEqual([
			expect.objectContaining({
				httpCode: '500',
				error: expect.stringContaining('update-conversation-status not retried'),
			}),
		]);
		expect(functions()).toEqual(['update-conversation-status']);
	});
});

describe('messages', () => {
	it('as agent: written by the admin whose token it is (user_id -1)', async () => {
		const result = await run({
			resource: 'message',
			operation: 'send',
			conversationId: byId('1'),
			message: 'Hello from n8n',
			messageType: 'agent',
		});
		// Deliver to Channel (on by default) reads where the conversation came from first.
		expect(args(0)).toMatchObject({ function: 'get-conversation', conversation_id: '1' });
		expect(args(1)).toMatchObject({
			function: 'send-message',
			user_id: -1,
			conversation_id: '1',
			message: 'Hello from n8n',
		});
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ id: expect.anything(), message: 'Hello from n8n' }),
		]);
	});

	it("as the visitor: written by the conversation's user; as bot: by the product's bot", async () => {
		await run({
			resource: 'message',
			operation: 'send',
			conversationId: byId('1'),
			message: 'Visitor words',
			messageType: 'user',
		});
		await run({
			resource: 'message',
			operation: 'send',
			conversationId: byId('1'),
			message: 'Bot words',
			messageType: 'bot',
		});
		// As the visitor, nothing goes on to a channel: the conversation is not read.
		expect(functions()).toEqual([
			'get-user-from-conversation',
			'send-message',
			'get-conversation',
			'get-bot-id',
			'send-message',
		]);
		const owner = (await fetch(sandbox.supportBoard!.apiUrl, {
			method: 'POST',
			body: JSON.stringify({
				function: 'get-user-from-conversation',
				token: TOKEN,
				conversation_id: 1,
			}),
		}).then((r) => r.json())) as IDataObject;
		expect(args(1).user_id).toBe((owner.response as IDataObject).id);
		expect(args(4).user_id).toBe(String(Number(sandbox.supportBoard!.data.staff!.bot.id.slice(2))));
	});

	it('Sender ID overrides who writes it', async () => {
		await run({
			resource: 'message',
			operation: 'send',
			conversationId: byId('1'),
			message: 'From an agent',
			additionalFields: { senderId: '5' },
		});
		expect(functions()).toEqual(['get-conversation', 'send-message']);
		expect(args(1)).toMatchObject({ user_id: '5' });
	});
});

describe('tags', () => {
	it.each([
		[
			'Add to User',
			{
				resource: 'tag',
				operation: 'add',
				userId: byId('1'),
				tag: { __rl: true, mode: 'name', value: 'vip' },
			},
		],
		['Get Many', { resource: 'tag', operation: 'getAll', returnAll: true }],
	])('%s fails before any request, saying what to do instead', async (_name, parameters) => {
		const result = await run(parameters as INodeParameters);
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({
				error: expect.stringContaining("Support Board's Web API has no tag function"),
			}),
		]);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('the Base URL a Support Board user has at hand, and the token', () => {
	it.each([
		['the SaaS or cloud /script', (origin: string) => `${origin}/script`],
		['the full include/api.php', (origin: string) => `${origin}/script/include/api.php`],
		["the description's /script/include/api", (origin: string) => `${origin}/script/include/api/`],
		['a self-hosted install folder', (origin: string) => `${origin}/supportboard`],
	])('%s', async (_name, base) => {
		const result = await run(
			{ resource: 'user', operation: 'get', userId: byId('1') },
			{ baseUrl: base(sandbox.origin) },
		);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: '1' })]);
	});

	it('the token travels in the body only: no Authorization header, never in a URL', async () => {
		await run({ resource: 'user', operation: 'get', userId: byId('1') });
		const [request] = sandbox.requests;
		// n8n sends the credentials' header whatever its value: empty here, it carries nothing.
		expect(request.headers.authorization).not.toBe('Bearer ***');
		expect(JSON.stringify(request.headers)).not.toContain(TOKEN);
		// The sandbox's log writes the token as ***, wherever it was.
		expect(request.path).not.toContain('***');
		expect(request.body).toMatchObject({ token: '***' });
	});

	it("a wrong token gets the product's message and what to change", async () => {
		const result = await run(
			{ resource: 'user', operation: 'get', userId: byId('1') },
			{ apiToken: 'not-the-admin-token' },
		);
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({
				httpCode: '401',
				error: expect.stringContaining('Use a token of an administrator'),
				description: expect.stringContaining('admin'),
			}),
		]);
		expect(output(result)).not.toContain('not-the-admin-token');
	});

	it('the credential test calls count-users, and shows the refusal of a wrong token', async () => {
		const test = async (data: IDataObject) =>
			await testCredentials({
				credentialType: new SupportChatApi(),
				nodeTypes: { [ACTION_TYPE]: new SupportChat() },
				data: data as never,
			});
		const ok = await test(credentials().data.supportChatApi);
		expect(ok).toEqual({ status: 'OK', message: 'Connection successful' });
		expect(functions()).toEqual(['count-users']);
		const wrong = await test({ ...credentials().data.supportChatApi, apiToken: 'wrong-token-123' });
		expect(wrong).toMatchObject({
			status: 'Error',
			message: expect.stringContaining('Use a token of an administrator'),
		});
	});

	it('the user picker pages through get-users and labels users by name and e-mail', async () => {
		const found = await callMethod({
			node: { type: ACTION_TYPE, parameters: { resource: 'user', operation: 'get' } },
			nodeType: new SupportChat(),
			credentials: credentials(),
			call: async (ctx) => await new SupportChat().methods.listSearch.searchUsers.call(ctx),
		});
		expect(found.results).toHaveLength(100);
		expect(found.results[0]).toEqual({
			name: expect.stringMatching(/^\S+ \S+ <.+@.+>$/),
			value: expect.any(String),
		});
		expect(found.paginationToken).toBeDefined();
	});
});

describe('REST mode pointed at Support Board', () => {
	it('an api.php Base URL is refused before any request, naming the other API', async () => {
		const result = await run(
			{ resource: 'user', operation: 'getAll', returnAll: true },
			{ api: 'rest', baseUrl: sandbox.supportBoard!.apiUrl },
		);
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ error: expect.stringContaining('choose Support Board Web API') }),
		]);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('the install folder answers the REST paths with 404: the hint names the Base URL and Support Board, not an ID', async () => {
		const result = await run(
			{ resource: 'user', operation: 'getAll', returnAll: true },
			{ api: 'rest', baseUrl: install() },
		);
		const [item] = jsonOf(result);
		expect(item.httpCode).toBe('404');
		expect(item.description).toContain(
			'If your service is Support Board, choose Support Board Web API',
		);
		expect(item.description).not.toContain('Check the ID');
	});
});
