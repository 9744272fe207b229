/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The Board adapter (helpers/board.ts) against its target: the sandbox's Support Board mode, or, with
 * SUPPORT_CHAT_TESTBED=/tmp/sb/run/env.json, the real Support Board 3.8.7 test bed. Each method's effect
 * is read back through the Web API. The test bed is shared: nothing here assumes it is empty or knows an id
 * in advance, and the e-mail addresses are new each run.
 */
import { readFileSync } from 'node:fs';

import type { Board } from './board';
import { TESTBED_ENV, onTestbed, openBoard } from './board';

let board: Board;
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const email = (name: string) => `${name}-${run}@example.test`;

/** The webhook bodies the product sent since the test started: the sandbox's delivery log, or the test bed's capture server's log. */
let webhooks: () => Array<{ function: string; data: Record<string, unknown> }>;

beforeAll(async () => {
	board = await openBoard({ seed: { users: 3, conversations: 2 } });
	if (board.sandbox) {
		// No receiver listens there: the sandbox logs each delivery (status 0) with its body all the same.
		board.sandbox.supportBoard!.configureWebhooks({
			url: 'http://127.0.0.1:9/webhook/board',
			key: 'board-key',
			active: true,
		});
		const deliveries = board.sandbox.supportBoard!.deliveries;
		webhooks = () =>
			deliveries.map(
				(d) => JSON.parse(d.body) as { function: string; data: Record<string, unknown> },
			);
	} else {
		const env = JSON.parse(readFileSync(TESTBED_ENV, 'utf8')) as {
			captureLog: string;
			captureBase: string;
			webhookUrl: string;
		};
		const since = new Date().toISOString();
		webhooks = () => {
			if (!env.webhookUrl.startsWith(env.captureBase)) return [];
			return readFileSync(env.captureLog, 'utf8')
				.split('\n')
				.filter(Boolean)
				.map((line) => JSON.parse(line) as { receivedAt: string; body: string })
				.filter((r) => r.receivedAt >= since)
				.map((r) => JSON.parse(r.body) as { function: string; data: Record<string, unknown> });
		};
	}
});
afterAll(async () => await board?.close());

const FAR_FUTURE = '9999-12-31 23:59:59';
type Row = Record<string, unknown>;

/** get-new-messages after `lastId` (datetime past every message, so the id alone selects). */
async function messagesAfter(
	userId: string,
	conversationId: string,
	lastId: string,
): Promise<Row[]> {
	return (await board.call('get-new-messages', {
		user_id: userId,
		conversation_id: conversationId,
		datetime: FAR_FUTURE,
		last_id: lastId,
	})) as Row[];
}
async function conversation(conversationId: string): Promise<{ messages: Row[]; details: Row }> {
	return (await board.call('get-conversation', { conversation_id: conversationId })) as {
		messages: Row[];
		details: Row;
	};
}
const eventOf = (row: Row) =>
	typeof row.payload === 'string' && row.payload.startsWith('{')
		? (JSON.parse(row.payload) as Row).event
		: undefined;

describe(`Board adapter (${onTestbed ? 'the real test bed' : 'the sandbox'})`, () => {
	it('gives credentials for the node and the staff ids', async () => {
		expect(board.target).toBe(onTestbed ? 'testbed' : 'sandbox');
		expect(board.credentials).toEqual({
			api: 'supportBoard',
			baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+/),
			apiToken: expect.any(String),
		});
		expect(board.apiUrl).toBe(`${board.credentials.baseUrl}/include/api.php`);
		expect(await board.call('get-bot-id')).toBe(board.staff.botId);
		const admin = (await board.call('get-user', { user_id: board.staff.adminId })) as Row;
		expect(admin.user_type).toBe('admin');
	});

	it('call answers `response`; callRaw the status and body of a refusal', async () => {
		expect(await board.call('get-conversation', { conversation_id: 999999999 })).toBe(false);
		const missing = await board.callRaw('get-new-messages', {
			conversation_id: 1,
			datetime: FAR_FUTURE,
		});
		expect(missing).toEqual({
			status: 400,
			body: { status: 'error', response: 'missing-argument', message: 'Missing argument: user_id' },
		});
		await expect(
			board.call('get-new-messages', { conversation_id: 1, datetime: FAR_FUTURE }),
		).rejects.toThrow(/get-new-messages: HTTP 400/);
	});

	it('a user added, then starting a chat with their e-mail, writing again; the admin replies, assigns, archives', async () => {
		const userId = await board.addUser('Nia', 'New', email('nia'));
		expect(await board.call('get-user', { user_id: userId })).toMatchObject({
			id: userId,
			first_name: 'Nia',
			last_name: 'New',
			email: email('nia'),
			user_type: 'user',
		});

		const started = await board.visitorStarts({
			email: email('nia'),
			message: 'Hi, my order is late',
		});
		expect(started.userId).toBe(userId);
		const first = await conversation(started.conversationId);
		expect(first.details).toMatchObject({
			id: started.conversationId,
			user_id: userId,
			status_code: '2',
		});
		expect(first.messages).toEqual([
			expect.objectContaining({
				id: started.messageId,
				user_id: userId,
				message: 'Hi, my order is late',
				user_type: 'user',
			}),
		]);

		const said = await board.visitorSays(userId, started.conversationId, 'Order 1234');
		expect(Number(said)).toBeGreaterThan(Number(started.messageId));
		expect(await messagesAfter(userId, started.conversationId, started.messageId)).toEqual([
			expect.objectContaining({ id: said, user_id: userId, message: 'Order 1234' }),
		]);

		const replied = await board.agentReplies(started.conversationId, 'Looking into it');
		expect(await messagesAfter(userId, started.conversationId, said)).toEqual([
			expect.objectContaining({
				id: replied,
				user_id: board.staff.adminId,
				user_type: 'admin',
				message: 'Looking into it',
			}),
		]);

		await board.assign(started.conversationId);
		const assigned = await messagesAfter(userId, started.conversationId, replied);
		expect(assigned).toHaveLength(1);
		expect(assigned[0]).toMatchObject({ user_id: board.staff.adminId, message: '' });
		expect(eventOf(assigned[0])).toBe(`conversation-agent-update-${board.staff.adminId}`);
		expect((await conversation(started.conversationId)).details).toMatchObject({
			agent_id: board.staff.adminId,
			status_code: '2',
		});

		await board.archive(started.conversationId);
		expect((await conversation(started.conversationId)).details.status_code).toBe('3');
		const archived = await messagesAfter(userId, started.conversationId, String(assigned[0].id));
		expect(archived.map(eventOf)).toEqual(['conversation-status-update-3']);

		await board.settled();
		const mine = webhooks().filter(
			(w) =>
				String(w.data.conversation_id ?? (w.data.details as Row | undefined)?.id) ===
				started.conversationId,
		);
		if (onTestbed && mine.length === 0) return; // the test bed's webhooks go elsewhere (SB_WEBHOOK_URL)
		expect(mine.map((w) => w.function)).toEqual(
			expect.arrayContaining(['new-conversation-created', 'message-sent']),
		);
		expect(
			mine.filter((w) => w.function === 'message-sent').map((w) => String(w.data.message_id)),
		).toEqual([started.messageId, said, replied]);
	});

	it('an anonymous visitor starts a chat as a new visitor', async () => {
		const started = await board.visitorStarts({ message: 'Anyone there?' });
		expect(await board.call('get-user', { user_id: started.userId })).toMatchObject({
			id: started.userId,
			user_type: 'visitor',
		});
		expect((await conversation(started.conversationId)).messages).toEqual([
			expect.objectContaining({
				id: started.messageId,
				message: 'Anyone there?',
				user_id: started.userId,
			}),
		]);
		// A second visitor with a new e-mail is a new user of type user.
		const named = await board.visitorStarts({
			email: email('vic'),
			firstName: 'Vic',
			lastName: 'Visitor',
			message: 'Hello',
		});
		expect(named.userId).not.toBe(started.userId);
		expect(await board.call('get-user', { user_id: named.userId })).toMatchObject({
			first_name: 'Vic',
			last_name: 'Visitor',
			email: email('vic'),
			user_type: 'user',
		});
	});

	it('reset empties the sandbox; on the test bed it changes nothing', async () => {
		const started = await board.visitorStarts({ message: 'Before the reset' });
		await board.reset();
		const after = await board.call('get-conversation', { conversation_id: started.conversationId });
		if (onTestbed) expect(after).toMatchObject({ details: { id: started.conversationId } });
		else expect(after).toBe(false);
	});
});
