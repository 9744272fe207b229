/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The poll trigger under n8n-core's real PollContext against the sandbox's REST API: the first poll
 * records where things stand, later ones emit what is new once, oldest first; an error moves nothing.
 */
import type { IDataObject, INodeParameters, IWorkflowSettings } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChatPollTrigger } from '../../nodes/SupportChat/SupportChatPollTrigger.node';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { callPoll } from '../helpers/engine';
import { TOKEN } from '../helpers/supportChat';

const TYPE = 'n8n-nodes-support-chat.supportChatPollTrigger';
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		token: TOKEN,
		pagination: 'page',
		pageSize: 10,
		seed: { users: 25, conversations: 12 },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

async function poll(
	events: string[],
	staticData?: IDataObject,
	opts: { mode?: 'manual'; options?: INodeParameters; settings?: IWorkflowSettings } = {},
) {
	return await callPoll({
		node: { type: TYPE, parameters: { events, options: opts.options ?? {} } },
		nodeType: new SupportChatPollTrigger(),
		credentials: {
			types: [new SupportChatApi()],
			data: { supportChatApi: { baseUrl: sandbox.origin, apiToken: TOKEN } },
		},
		mode: opts.mode ?? 'trigger',
		staticData,
		settings: opts.settings,
	});
}

async function api(method: string, path: string, body?: unknown) {
	const response = await fetch(`${sandbox.baseUrl}${path}`, {
		method,
		headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return (await response.json()) as IDataObject;
}

const json = (result: { items: Array<{ json: IDataObject }> | null }) =>
	(result.items ?? []).map((item) => item.json);

describe('REST: new users', () => {
	it('first poll emits nothing and records where things stand; the next emits each new user once, oldest first', async () => {
		const first = await poll(['userCreated']);
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		expect(sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/users').length).toBe(
			3,
		);

		await api('POST', '/users', { name: 'Nia New', email: 'nia@example.com' });
		await api('POST', '/users', { name: 'Omar Newer', email: 'omar@example.com' });
		const second = await poll(['userCreated'], first.staticData);
		expect(json(second).map((item) => [item.event, (item.data as IDataObject).email])).toEqual([
			['userCreated', 'nia@example.com'],
			['userCreated', 'omar@example.com'],
		]);
		const [item] = json(second);
		expect(item).toMatchObject({
			eventSource: 'poll GET /users',
			userId: item.userId,
			eventKey: `userCreated:${item.userId}`,
		});

		// Repeated with what the emitting poll kept (n8n saves it with the run it starts, and a restart reads
		// it again): the users at the mark are read again and dropped by the recent keys.
		const third = await poll(['userCreated'], second.staticData);
		expect(third.items).toBeNull();
		// Each poll reads the list whole: the REST API documents no since filter (see Since Parameter).
		expect(sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/users').length).toBe(
			9,
		);
	});

	it('an error moves nothing: the next poll still finds what the failed one missed', async () => {
		const first = await poll(['userCreated']);
		await api('POST', '/users', { name: 'Pia Pending', email: 'pia@example.com' });
		sandbox.fault({ method: 'GET', path: '/users', kind: '500', times: 10 });
		const failed = await poll(['userCreated'], first.staticData, { options: { maxAttempts: 1 } });
		expect(failed.error?.message).toMatch(/500/);
		expect(failed.staticData).toEqual(first.staticData);
		sandbox.clearFaults();
		const next = await poll(['userCreated'], failed.staticData);
		expect(json(next).map((item) => (item.data as IDataObject).email)).toEqual(['pia@example.com']);
	});

	it('Fetch Test Event shows the newest user and keeps no state', async () => {
		const result = await poll(['userCreated'], {}, { mode: 'manual' });
		expect(json(result)).toHaveLength(1);
		expect(json(result)[0]).toMatchObject({
			event: 'userCreated',
			userId: sandbox.state.users.at(-1)?.id,
		});
		expect(result.staticData).toEqual({});
	});
});

describe('REST: conversations', () => {
	it('finds a new conversation and a closing, each with its key; closed again after a reopening is a second event', async () => {
		let clock = Date.parse('2026-03-01T10:00:00Z');
		const timed = await startSandbox({
			token: TOKEN,
			pagination: 'page',
			pageSize: 10,
			seed: { users: 5, conversations: 4 },
			now: () => new Date(clock),
		});
		const events = ['conversationCreated', 'conversationClosed'];
		const pollTimed = async (staticData?: IDataObject) =>
			await callPoll({
				node: { type: TYPE, parameters: { events, options: {} } },
				nodeType: new SupportChatPollTrigger(),
				credentials: {
					types: [new SupportChatApi()],
					data: { supportChatApi: { baseUrl: timed.origin, apiToken: TOKEN } },
				},
				staticData,
			});
		try {
			const first = await pollTimed();
			expect(first.items).toBeNull();
			const started = timed.visitor.startConversation({ message: 'Hello there' });
			const conversationId = started.conversation.id;
			clock += 60_000;
			await fetch(`${timed.baseUrl}/conversations/${conversationId}/close`, {
				method: 'POST',
				headers: { authorization: `Bearer ${TOKEN}` },
			});
			const second = await pollTimed(first.staticData);
			expect(json(second).map((item) => item.event)).toEqual([
				'conversationCreated',
				'conversationClosed',
			]);
			expect(json(second)[0].eventKey).toBe(`conversationCreated:${conversationId}`);
			const firstClosing = json(second)[1].eventKey;
			expect(firstClosing).toMatch(new RegExp(`^conversationClosed:${conversationId}@`));
			expect((await pollTimed(second.staticData)).items).toBeNull();

			// Reopened (the sandbox has no reopen call: its record is changed in place), then closed again later.
			const record = timed.state.conversations.find((c) => c.id === conversationId)!;
			Object.assign(record, { status: 'active', closed_at: null });
			clock += 60_000;
			await fetch(`${timed.baseUrl}/conversations/${conversationId}/close`, {
				method: 'POST',
				headers: { authorization: `Bearer ${TOKEN}` },
			});
			const third = await pollTimed(second.staticData);
			expect(json(third).map((item) => item.event)).toEqual(['conversationClosed']);
			expect(json(third)[0].eventKey).not.toBe(firstClosing);
		} finally {
			await timed.close();
		}
	});

	it('New Message is refused with what to do instead, before any request', async () => {
		const result = await poll(['messageCreated']);
		expect(result.error?.message).toMatch(/New Message cannot be found by polling the REST API/);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('Support Board: get-new-users, get-new-conversations, get-new-messages', () => {
	const SB_TOKEN = 'sb-poll-admin-token-1c2d';
	let board: Sandbox;
	beforeAll(async () => {
		board = await startSandbox({
			api: 'support-board',
			token: SB_TOKEN,
			seed: { users: 8, conversations: 5 },
		});
	});
	afterAll(async () => await board.close());
	beforeEach(() => board.reset());

	const ALL = ['userCreated', 'conversationCreated', 'messageCreated', 'conversationClosed'];
	async function pollBoard(
		staticData?: IDataObject,
		opts: { mode?: 'manual'; options?: INodeParameters; events?: string[] } = {},
	) {
		return await callPoll({
			node: { type: TYPE, parameters: { events: opts.events ?? ALL, options: opts.options ?? {} } },
			nodeType: new SupportChatPollTrigger(),
			credentials: {
				types: [new SupportChatApi()],
				data: {
					supportChatApi: {
						api: 'supportBoard',
						baseUrl: board.supportBoard!.installUrl,
						apiToken: SB_TOKEN,
					},
				},
			},
			mode: opts.mode ?? 'trigger',
			staticData,
		});
	}
	async function call(fn: string, args: IDataObject = {}) {
		const response = await fetch(board.supportBoard!.apiUrl, {
			method: 'POST',
			body: JSON.stringify({ function: fn, token: SB_TOKEN, ...args }),
		});
		return ((await response.json()) as IDataObject).response;
	}
	const fns = () => board.requests.map((r) => r.function);

	it('first poll records where things stand: the newest user, message and conversation ids, nothing emitted', async () => {
		const first = await pollBoard();
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		// A first guess from the lists, then what is above it (get-users leaves some users out, get-conversations
		// shows a note's conversation through an older message), then an empty conversation above the highest.
		expect(fns()).toEqual([
			'get-users',
			'get-new-users',
			'get-conversations',
			'get-new-conversations',
			'get-conversation',
		]);
	});

	it('finds what happened since, oldest first, once: a user, a conversation, its messages, its closing; a repeated poll emits nothing', async () => {
		const first = await pollBoard();
		const userId = String(
			await call('add-user', { first_name: 'Nia', last_name: 'New', email: 'nia@example.com' }),
		);
		const started = board.supportBoard!.visitor.start({
			message: 'Hi, my order is late',
			email: 'nia@example.com',
		});
		const { conversation } = await started;
		const conversationId = String(conversation.id);
		await call('send-message', {
			user_id: -1,
			conversation_id: conversationId,
			message: 'Sorry, looking into it',
		});
		await call('update-conversation-status', { conversation_id: conversationId, status_code: 3 });
		board.clearLog();

		const second = await pollBoard(first.staticData, { options: { ignoreOwnMessages: false } });
		const events = json(second);
		expect(events.map((e) => e.event)).toEqual([
			'userCreated',
			'conversationCreated',
			'messageCreated',
			'messageCreated',
			'conversationClosed',
		]);
		expect(events[0]).toMatchObject({
			userId,
			eventKey: `userCreated:${userId}`,
			eventSource: 'poll get-new-users',
		});
		expect(events[1]).toMatchObject({
			conversationId,
			eventKey: `conversationCreated:${conversationId}`,
		});
		expect(events[2]).toMatchObject({
			conversationId,
			userId,
			data: expect.objectContaining({ message: 'Hi, my order is late' }),
		});
		expect(events[3].data).toMatchObject({ message: 'Sorry, looking into it' });
		expect(events[4].eventKey).toMatch(new RegExp(`^conversationClosed:${conversationId}@\\d+$`));
		// One request for users, one for the conversations with new messages, one for that conversation's messages.
		expect(fns()).toEqual(['get-new-users', 'get-new-conversations', 'get-new-messages']);
		// By default (Ignore Own Messages on, as in the webhook trigger) the agent's reply is the workflow's own.
		expect(json(await pollBoard(first.staticData)).map((e) => e.event)).toEqual([
			'userCreated',
			'conversationCreated',
			'messageCreated',
			'conversationClosed',
		]);

		expect((await pollBoard(second.staticData)).items).toBeNull();

		// Reopened by the visitor, archived again: a second Conversation Closed with its own key.
		await board.supportBoard!.visitor.say(conversationId, 'One more thing');
		await call('update-conversation-status', { conversation_id: conversationId, status_code: 3 });
		const third = json(await pollBoard(second.staticData));
		expect(third.map((e) => e.event)).toEqual(['messageCreated', 'conversationClosed']);
		expect(third[1].eventKey).not.toBe(events[4].eventKey);
	});

	it('New Conversation alone reads no messages: each row carries its latest message id', async () => {
		const first = await pollBoard(undefined, { events: ['conversationCreated'] });
		const { conversation } = await board.supportBoard!.visitor.start({
			message: 'Only the conversation matters',
			email: 'only@example.com',
		});
		await call('send-message', {
			user_id: -1,
			conversation_id: String(conversation.id),
			message: 'A reply',
		});
		board.clearLog();
		const second = await pollBoard(first.staticData, { events: ['conversationCreated'] });
		expect(json(second).map((e) => [e.event, e.conversationId])).toEqual([
			['conversationCreated', String(conversation.id)],
		]);
		expect(fns()).toEqual(['get-new-conversations']);
		board.clearLog();
		expect(
			(await pollBoard(second.staticData, { events: ['conversationCreated'] })).items,
		).toBeNull();
		expect(board.requests.map((r) => r.function)).toEqual(['get-new-conversations']);
	});

	it('a state kept by version 1 carries over: new messages and a conversation opened since come out, old conversations are not new', async () => {
		const current = await pollBoard();
		const marks = (current.staticData['node:Poll Trigger'] as IDataObject)
			.supportChatPoll as IDataObject;
		const { userId, messageId } = marks.marks as IDataObject;
		const rows = (await call('get-conversations', { status_code: 'all' })) as IDataObject[];
		const newest = rows.find((row) => Number(row.message_id) === messageId) ?? rows[0];
		const version1 = {
			'node:Poll Trigger': {
				supportChatPoll: {
					version: 1,
					api: 'Support Board Web API',
					marks: { userId, messageId, messageTime: newest.last_update_time },
					recent: [],
				},
			},
		};
		// Past the second of the newest message, as a conversation opened after the last poll of 0.4 is.
		await new Promise((resolve) => setTimeout(resolve, 1_100));
		const { conversation } = await board.supportBoard!.visitor.start({
			message: 'Opened before the upgrade',
			email: 'upgrade@example.com',
		});
		await board.supportBoard!.visitor.say(
			String(newest.conversation_id),
			'An old conversation again',
		);
		const upgraded = await pollBoard(version1);
		expect(upgraded.error).toBeUndefined();
		const events = json(upgraded);
		expect(
			events.filter((e) => e.event === 'conversationCreated').map((e) => e.conversationId),
		).toEqual([String(conversation.id)]);
		expect(
			events
				.filter((e) => e.event === 'messageCreated')
				.map((e) => (e.data as IDataObject).message)
				.sort(),
		).toEqual(['An old conversation again', 'Opened before the upgrade']);
		const kept = (upgraded.staticData['node:Poll Trigger'] as IDataObject)
			.supportChatPoll as IDataObject;
		expect(kept.version).toBe(2);
		expect((await pollBoard(upgraded.staticData)).items).toBeNull();
	});

	it('notes the product posts itself (an assignment) are no message', async () => {
		const first = await pollBoard();
		const agent = String(Number(board.supportBoard!.data.staff!.agent.id.slice(2)));
		await call('update-conversation-agent', { conversation_id: '1', agent_id: agent });
		expect((await pollBoard(first.staticData)).items).toBeNull();
	});

	it('an error moves nothing; a poll over Max Requests per Poll fails whole, and the next finds it all', async () => {
		const first = await pollBoard();
		for (const id of ['1', '2', '3'])
			await call('send-message', { user_id: -1, conversation_id: id, message: `Reply ${id}` });
		board.fault({ path: 'get-new-conversations', kind: '500', times: 10 });
		const failed = await pollBoard(first.staticData, { options: { maxAttempts: 1 } });
		expect(failed.error?.message).toMatch(/get-new-conversations/);
		expect(failed.staticData).toEqual(first.staticData);
		board.clearFaults();
		// Three conversations with new messages need 2 + 3 requests.
		const bounded = await pollBoard(first.staticData, { options: { maxRequests: 4 } });
		expect(bounded.error?.message).toMatch(/needs more than 4 requests/);
		expect(bounded.staticData).toEqual(first.staticData);
		const next = await pollBoard(first.staticData, { options: { ignoreOwnMessages: false } });
		expect(json(next).map((e) => (e.data as IDataObject).message)).toEqual([
			'Reply 1',
			'Reply 2',
			'Reply 3',
		]);
	});

	it('Fetch Test Event shows the newest of each kind and keeps no state', async () => {
		const result = await pollBoard({}, { mode: 'manual' });
		const kinds = json(result).map((e) => e.event);
		// The seed has an archived conversation too: one of each kind at most.
		expect(kinds).toEqual(
			expect.arrayContaining([
				'userCreated',
				'conversationCreated',
				'messageCreated',
				'conversationClosed',
			]),
		);
		expect(new Set(kinds).size).toBe(kinds.length);
		expect(result.staticData).toEqual({});
	});
});

describe('REST: a growing Watermark Field', () => {
	// One page each poll, in place of the sandbox's users (which have no such field).
	const serve = (records: IDataObject[]) => {
		sandbox.clearFaults();
		sandbox.fault({
			method: 'GET',
			path: '/users',
			kind: 'raw',
			contentType: 'application/json',
			body: JSON.stringify({ data: records }),
		});
	};
	const options = { watermarkField: 'seq', paginationStyle: 'none' };

	it('emits in the order of its values, fractional and multi-digit ones too', async () => {
		serve([{ id: 'u0', seq: 0.5 }]);
		const first = await poll(['userCreated'], undefined, { options });
		expect(first.error).toBeUndefined();
		serve([
			{ id: 'u0', seq: 0.5 },
			{ id: 'u10', seq: 10 },
			{ id: 'u15', seq: 1.5 },
			{ id: 'u2', seq: 2 },
		]);
		const second = await poll(['userCreated'], first.staticData, { options });
		expect(json(second).map((item) => (item.data as IDataObject).id)).toEqual(['u15', 'u2', 'u10']);
	});
});

describe("n8n's engine v2", () => {
	const ours = "Download Attachments does not work in a trigger on n8n's engine v2";

	it.each<[string, 'manual' | undefined]>([
		["a published workflow's poll", undefined],
		['Fetch Test Event', 'manual'],
	])(
		'with Download Attachments, %s fails in words before asking the service anything',
		async (_, mode) => {
			const result = await poll(['userCreated'], undefined, {
				mode,
				options: { downloadAttachments: true },
				settings: { engineType: 'v2' },
			});
			expect(result.error?.message).toBe(ours);
			expect(sandbox.requests).toEqual([]);
		},
	);

	it('without it, the poll runs as ever: the first records where things stand', async () => {
		const first = await poll(['userCreated'], undefined, { settings: { engineType: 'v2' } });
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		expect(sandbox.requests.length).toBeGreaterThan(0);
	});
});
