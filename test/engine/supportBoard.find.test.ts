/**
 * Reading a conversation's messages and finding people and conversations with Support Board's Web API,
 * run by the real n8n engine against the sandbox's Support Board mode or, with
 * SUPPORT_CHAT_TESTBED=/tmp/sb/run/env.json, against the real product (test/helpers/board.ts). Every
 * test makes the data it reads through the Board, under a fresh stamp: the test bed is shared and
 * never emptied.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Board } from '../helpers/board';
import { onTestbed, openBoard } from '../helpers/board';
import { runNode } from '../helpers/engine';
import { ACTION_TYPE, byId, jsonOf } from '../helpers/supportChat';

let board: Board;
beforeAll(async () => {
	board = await openBoard({ seed: { users: 3, conversations: 2 } });
});
afterAll(async () => await board.close());

async function run(parameters: INodeParameters, credentials: IDataObject = {}) {
	board.sandbox?.clearLog();
	return await runNode({
		node: { name: 'Support Chat', type: ACTION_TYPE, parameters, onError: 'continueRegularOutput' },
		nodeTypes: { [ACTION_TYPE]: new SupportChat() },
		credentials: {
			types: [new SupportChatApi()],
			data: { supportChatApi: { ...board.credentials, ...credentials } },
		},
	});
}

/** The functions the sandbox received (the test bed keeps no log we read): undefined on the test bed. */
const functions = () => board.sandbox?.requests.map((r) => r.function);

/** Digits only, so the product stores the phone as given and finds it with + or 00 in front. */
const digits = () => String(Date.now()).slice(-9) + String(Math.floor(Math.random() * 10));

interface Person {
	stamp: string;
	userId: string;
	email: string;
	phone: string;
	conversationId: string;
	secondConversationId: string;
}

/** A user with an e-mail and a phone, two conversations: the second with three messages, one with attachments. */
async function person(): Promise<Person> {
	const stamp = randomUUID().slice(0, 8);
	const email = `find.${stamp}@example.com`;
	const phone = `+1${digits()}`;
	const userId = String(
		await board.call('add-user', {
			first_name: 'Findme',
			last_name: `P${stamp}`,
			email,
			extra: { phone: [phone, 'Phone'] },
		}),
	);
	const open = async (title: string) =>
		String(
			(
				(await board.call('new-conversation', { user_id: userId, title })) as {
					details: { id: unknown };
				}
			).details.id,
		);
	const conversationId = await open(`Older ${stamp}`);
	await board.call('send-message', {
		user_id: userId,
		conversation_id: conversationId,
		message: `First chat ${stamp}`,
	});
	const secondConversationId = await open(`Parcel ${stamp}`);
	await board.call('send-message', {
		user_id: userId,
		conversation_id: secondConversationId,
		message: `Where is parcel ${stamp}?`,
		attachments: [
			['invoice.pdf', 'https://files.example.com/invoice.pdf'],
			['photo.png', 'https://files.example.com/photo.png'],
		],
	});
	await board.agentReplies(secondConversationId, `On its way ${stamp}`);
	await board.call('send-message', {
		user_id: userId,
		conversation_id: secondConversationId,
		message: `Thanks ${stamp}`,
	});
	return { stamp, userId, email, phone, conversationId, secondConversationId };
}

let p: Person;
beforeAll(async () => {
	p = await person();
});

describe('Message → Get Many', () => {
	it("answers a conversation's messages oldest first, from one get-conversation", async () => {
		const result = await run({
			resource: 'message',
			operation: 'getAll',
			conversationId: byId(p.secondConversationId),
			returnAll: true,
		});
		const messages = jsonOf(result);
		expect(messages.map((m) => m.message)).toEqual([
			`Where is parcel ${p.stamp}?`,
			`On its way ${p.stamp}`,
			`Thanks ${p.stamp}`,
		]);
		expect(messages.map((m) => Number(m.id))).toEqual(
			[...messages.map((m) => Number(m.id))].sort((a, b) => a - b),
		);
		expect(messages[0]).toMatchObject({
			user_id: p.userId,
			conversation_id: p.secondConversationId,
			first_name: 'Findme',
			user_type: 'user',
		});
		if (functions()) expect(functions()).toEqual(['get-conversation']);
	});

	it('Simplify gives the sender, their type, the text, the attachments parsed and the time', async () => {
		const result = await run({
			resource: 'message',
			operation: 'getAll',
			conversationId: byId(p.secondConversationId),
			returnAll: true,
			simplify: true,
		});
		const [first, reply] = jsonOf(result);
		expect(first).toEqual({
			id: expect.any(String),
			sender_id: p.userId,
			sender_name: `Findme P${p.stamp}`,
			user_type: 'user',
			text: `Where is parcel ${p.stamp}?`,
			attachments: [
				{ name: 'invoice.pdf', url: 'https://files.example.com/invoice.pdf' },
				{ name: 'photo.png', url: 'https://files.example.com/photo.png' },
			],
			time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
		});
		expect(reply).toMatchObject({
			sender_id: board.staff.adminId,
			user_type: 'admin',
			text: `On its way ${p.stamp}`,
			attachments: [],
		});
	});

	it('Limit keeps the latest messages, still oldest first', async () => {
		const result = await run({
			resource: 'message',
			operation: 'getAll',
			conversationId: byId(p.secondConversationId),
			returnAll: false,
			limit: 2,
		});
		expect(jsonOf(result).map((m) => m.message)).toEqual([
			`On its way ${p.stamp}`,
			`Thanks ${p.stamp}`,
		]);
	});

	it('a conversation the product does not have is an error that says so', async () => {
		const result = await run({
			resource: 'message',
			operation: 'getAll',
			conversationId: byId('987654321'),
			returnAll: true,
		});
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ error: 'Support Board has no conversation with ID 987654321' }),
		]);
	});
});

describe('User → Find by E-mail or Phone', () => {
	it('finds the user by e-mail in any case, and by phone', async () => {
		const byEmail = await run({
			resource: 'user',
			operation: 'find',
			findBy: 'email',
			findValue: p.email.toUpperCase(),
		});
		expect(jsonOf(byEmail)).toEqual([
			expect.objectContaining({ id: p.userId, email: p.email, token: '[redacted]' }),
		]);
		if (functions())
			expect(board.sandbox!.requests[0].body).toMatchObject({
				function: 'get-user-by',
				by: 'email',
				value: p.email.toUpperCase(),
			});
		const byPhone = await run({
			resource: 'user',
			operation: 'find',
			findBy: 'phone',
			findValue: p.phone,
			simplify: true,
		});
		expect(jsonOf(byPhone)).toEqual([
			expect.objectContaining({ id: p.userId, name: `Findme P${p.stamp}`, email: p.email }),
		]);
		// The product tries the number without its + too.
		const bare = await run({
			resource: 'user',
			operation: 'find',
			findBy: 'phone',
			findValue: p.phone.slice(1),
		});
		expect(jsonOf(bare)).toEqual([expect.objectContaining({ id: p.userId })]);
	});

	it('a phone in the 00 form finds the user stored with +: the product does not try it, the node asks once more', async () => {
		const found = await run({
			resource: 'user',
			operation: 'find',
			findBy: 'phone',
			findValue: `00${p.phone.slice(1)}`,
		});
		expect(jsonOf(found)).toEqual([expect.objectContaining({ id: p.userId })]);
		if (functions())
			expect(board.sandbox!.requests.map((r) => r.body)).toEqual([
				expect.objectContaining({
					function: 'get-user-by',
					by: 'phone',
					value: `00${p.phone.slice(1)}`,
				}),
				expect.objectContaining({ function: 'get-user-by', by: 'phone', value: p.phone }),
			]);
		// Bounded: a 00 phone no user has is asked twice, no more; any other value once.
		const none = await run({
			resource: 'user',
			operation: 'find',
			findBy: 'phone',
			findValue: '0019999999999',
		});
		expect(jsonOf(none)).toEqual([]);
		if (functions()) expect(functions()).toEqual(['get-user-by', 'get-user-by']);
		await run({ resource: 'user', operation: 'find', findBy: 'phone', findValue: '+19999999999' });
		if (functions()) expect(functions()).toEqual(['get-user-by']);
	});

	it('no such user: no item; with Error If Not Found, an error naming the value', async () => {
		const none = await run({
			resource: 'user',
			operation: 'find',
			findBy: 'email',
			findValue: `nobody.${p.stamp}@example.com`,
		});
		expect(jsonOf(none)).toEqual([]);
		const failed = await run({
			resource: 'user',
			operation: 'find',
			findBy: 'phone',
			findValue: '+19999999999999',
			options: { errorIfNotFound: true },
		});
		expect(jsonOf(failed)).toEqual([
			expect.objectContaining({ error: 'No user has the phone "+19999999999999"' }),
		]);
	});
});

describe('User → Search', () => {
	it('finds the user by a word of the name, with Limit', async () => {
		const result = await run({
			resource: 'user',
			operation: 'search',
			searchText: `P${p.stamp}`,
			returnAll: true,
			simplify: true,
		});
		expect(jsonOf(result)).toEqual([{ id: p.userId, name: `Findme P${p.stamp}`, email: p.email }]);
		if (functions())
			expect(board.sandbox!.requests.map((r) => r.body)).toEqual([
				expect.objectContaining({ function: 'search-users', search: `P${p.stamp}` }),
			]);
		const none = await run({
			resource: 'user',
			operation: 'search',
			searchText: `Nobody${p.stamp}`,
			returnAll: true,
		});
		expect(jsonOf(none)).toEqual([]);
		const limited = await run({
			resource: 'user',
			operation: 'search',
			searchText: 'Findme',
			returnAll: false,
			limit: 1,
		});
		expect(jsonOf(limited)).toHaveLength(1);
	});

	it('an empty Search Text is refused before any request', async () => {
		const result = await run({
			resource: 'user',
			operation: 'search',
			searchText: '  ',
			returnAll: true,
		});
		expect(jsonOf(result)).toEqual([expect.objectContaining({ error: 'Search Text is empty' })]);
		if (functions()) expect(functions()).toEqual([]);
	});
});

describe('an answer that is no list', () => {
	// A lever of the sandbox only: the product answers these functions with a list.
	const onSandbox = onTestbed ? it.skip : it;
	onSandbox.each([
		['user', 'search', 'search-users', '"nope"', '"nope"', { searchText: 'anyone' }],
		['conversation', 'search', 'search-conversations', 'null', 'null', { searchText: 'x' }],
		['user', 'getConversations', 'get-user-conversations', '7', 'a number', {}],
	])(
		'%s → %s: %s answering %s is an error naming what it sent, not an empty list',
		async (resource, operation, fn, response, shown, fields) => {
			board.sandbox!.fault({
				path: fn,
				kind: 'raw',
				contentType: 'application/json',
				body: `{"success":true,"response":${response}}`,
			});
			const parameters = { resource, operation, returnAll: true, ...fields };
			if (operation === 'getConversations')
				Object.assign(parameters, { userId: { __rl: true, mode: 'id', value: '1' } });
			const [item] = jsonOf(await run(parameters as INodeParameters));
			expect(item.error).toBe(`Support Board answered ${fn} without a list (it sent ${shown})`);
		},
	);

	onSandbox('a long such answer is quoted masked, then cut with its mark', async () => {
		const token = board.credentials.apiToken;
		board.sandbox!.fault({
			path: 'search-users',
			kind: 'raw',
			contentType: 'application/json',
			body: JSON.stringify({ success: true, response: `${'x'.repeat(75)}${token} echoed` }),
		});
		const [item] = jsonOf(await run({ resource: 'user', operation: 'search', searchText: 'a' }));
		expect(item.error).toMatch(
			/^Support Board answered search-users without a list \(it sent "x{75}/,
		);
		expect(item.error).toMatch(/…"\)$/);
		expect(item.error).not.toContain(token.slice(0, 5));
	});
});

describe('Conversation → Search', () => {
	it('finds the conversation through a message that matches', async () => {
		const result = await run({
			resource: 'conversation',
			operation: 'search',
			searchText: `parcel ${p.stamp}`,
			returnAll: true,
		});
		const rows = jsonOf(result);
		expect(rows).toEqual([
			expect.objectContaining({
				conversation_id: p.secondConversationId,
				conversation_user_id: p.userId,
				title: `Parcel ${p.stamp}`,
			}),
		]);
		expect(rows[0].message).toBe(`Where is parcel ${p.stamp}?`);
		const simple = await run({
			resource: 'conversation',
			operation: 'search',
			searchText: `parcel ${p.stamp}`,
			returnAll: true,
			simplify: true,
		});
		expect(jsonOf(simple)).toEqual([
			expect.objectContaining({
				id: p.secondConversationId,
				subject: `Parcel ${p.stamp}`,
				user_id: p.userId,
				user_name: `Findme P${p.stamp}`,
			}),
		]);
	});

	it('a word of the subject finds every conversation with it; a miss finds none', async () => {
		const both = await run({
			resource: 'conversation',
			operation: 'search',
			searchText: p.stamp,
			returnAll: true,
		});
		expect(
			jsonOf(both)
				.map((c) => c.conversation_id)
				.sort(),
		).toEqual([p.conversationId, p.secondConversationId].sort());
		const limited = await run({
			resource: 'conversation',
			operation: 'search',
			searchText: p.stamp,
			returnAll: false,
			limit: 1,
		});
		expect(jsonOf(limited)).toHaveLength(1);
		const none = await run({
			resource: 'conversation',
			operation: 'search',
			searchText: `zz${p.stamp}zz`,
			returnAll: true,
		});
		expect(jsonOf(none)).toEqual([]);
	});
});

describe('User → Get Conversations', () => {
	it("answers the user's conversations with their latest message, newest first, and Limit", async () => {
		const result = await run({
			resource: 'user',
			operation: 'getConversations',
			userId: byId(p.userId),
			returnAll: true,
		});
		const rows = jsonOf(result);
		expect(rows.map((c) => c.conversation_id)).toEqual([p.secondConversationId, p.conversationId]);
		expect(rows[0]).toMatchObject({
			message: `Thanks ${p.stamp}`,
			conversation_user_id: p.userId,
			title: `Parcel ${p.stamp}`,
		});
		if (functions())
			expect(board.sandbox!.requests.map((r) => r.body)).toEqual([
				expect.objectContaining({ function: 'get-user-conversations', user_id: p.userId }),
			]);
		const limited = await run({
			resource: 'user',
			operation: 'getConversations',
			userId: byId(p.userId),
			returnAll: false,
			limit: 1,
			simplify: true,
		});
		expect(jsonOf(limited)).toEqual([
			expect.objectContaining({
				id: p.secondConversationId,
				subject: `Parcel ${p.stamp}`,
				user_id: p.userId,
			}),
		]);
	});

	it('a user without conversations, or none at all, has none', async () => {
		const lone = await board.addUser('Lone', `L${p.stamp}`, `lone.${p.stamp}@example.com`);
		const empty = await run({
			resource: 'user',
			operation: 'getConversations',
			userId: byId(lone),
			returnAll: true,
		});
		expect(jsonOf(empty)).toEqual([]);
		const missing = await run({
			resource: 'user',
			operation: 'getConversations',
			userId: byId('987654321'),
			returnAll: true,
		});
		expect(jsonOf(missing)).toEqual([]);
	});
});

describe('the REST API has none of these calls', () => {
	it.each([
		[
			'Message → Get Many',
			{ resource: 'message', operation: 'getAll', conversationId: byId('1'), returnAll: true },
			"list a conversation's messages",
			'Conversation → Get',
		],
		[
			'User → Find',
			{ resource: 'user', operation: 'find', findBy: 'email', findValue: 'a@example.com' },
			'find a user by e-mail or phone',
			'User → Get Many',
		],
		[
			'User → Search',
			{ resource: 'user', operation: 'search', searchText: 'ada', returnAll: true },
			'search users',
			'User → Get Many',
		],
		[
			'Conversation → Search',
			{ resource: 'conversation', operation: 'search', searchText: 'ada', returnAll: true },
			'search conversations',
			'Conversation → Get Many',
		],
		[
			'User → Get Conversations',
			{ resource: 'user', operation: 'getConversations', userId: byId('1'), returnAll: true },
			"list a user's conversations",
			'Conversation → Get Many',
		],
	])(
		'%s is refused before any request, naming Support Board and what to use',
		async (_name, parameters, what, instead) => {
			// A closed port: a request sent would fail with a connection error, not with the refusal.
			const baseUrl = board.sandbox ? board.sandbox.origin : 'http://127.0.0.1:9';
			const result = await run(parameters as INodeParameters, { api: 'rest', baseUrl });
			const [item] = jsonOf(result);
			expect(item.error).toContain(`The service description has no REST path to ${what}`);
			expect(item.error).toContain("Support Board's Web API");
			expect(item.error).toContain(`use ${instead}`);
			if (board.sandbox) expect(board.sandbox.requests).toHaveLength(0);
		},
	);
});

describe("the product's own answers, which the sandbox imitates", () => {
	it('get-user-by: the row, "" for no user, false for an empty value; a missing argument is a 400', async () => {
		expect(
			await board.callRaw('get-user-by', { by: 'email', value: `nobody.${p.stamp}@example.com` }),
		).toEqual({ status: 200, body: { success: true, response: '' } });
		expect(await board.callRaw('get-user-by', { by: 'email', value: '' })).toEqual({
			status: 200,
			body: { success: true, response: false },
		});
		for (const [fn, args, missing] of [
			['get-user-by', { by: 'email' }, 'value'],
			['search-users', {}, 'search'],
			['search-conversations', {}, 'search'],
			['get-user-conversations', {}, 'user_id'],
		] as const) {
			expect(await board.callRaw(fn, args)).toEqual({
				status: 400,
				body: {
					status: 'error',
					response: 'missing-argument',
					message: `Missing argument: ${missing}`,
				},
			});
		}
	});

	it('get-user-conversations with an id that is no number dies: HTTP 500, no body', async () => {
		expect(await board.callRaw('get-user-conversations', { user_id: 'abc' })).toEqual({
			status: 500,
			body: '',
		});
	});

	it("the rows' fields: search-users SELECT *, search-conversations with the conversation's user, get-user-conversations without", async () => {
		const [user] = (await board.call('search-users', { search: `P${p.stamp}` })) as IDataObject[];
		expect(Object.keys(user)).toEqual([
			'id',
			'first_name',
			'last_name',
			'password',
			'email',
			'profile_image',
			'user_type',
			'creation_time',
			'token',
			'last_activity',
			'typing',
			'department',
		]);
		const [found] = (await board.call('search-conversations', {
			search: `parcel ${p.stamp}`,
		})) as IDataObject[];
		const [own] = (await board.call('get-user-conversations', {
			user_id: p.userId,
		})) as IDataObject[];
		const names = [
			'conversation_first_name',
			'conversation_last_name',
			'conversation_profile_image',
			'conversation_user_type',
		];
		expect(Object.keys(found)).toEqual([...Object.keys(own), ...names]);
		expect(found).toMatchObject({
			payload: '',
			tags: null,
			attachments: expect.stringMatching(
				/^\[\["invoice\.pdf", "https:\/\/files\.example\.com\/invoice\.pdf"\],\["photo\.png", /,
			),
		});
	});
});
