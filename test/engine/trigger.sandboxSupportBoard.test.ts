/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The sandbox's Support Board mode sends its webhooks, from the actions that fire them in the product,
 * to the Support Chat Trigger under n8n-core's real WebhookContext: what a Support Board user's workflow
 * receives, kind by kind, with the product's Secret key as verification.
 */
import type { IDataObject } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { Receiver } from '../helpers/receiver';
import { startReceiver } from '../helpers/receiver';

const TOKEN = 'sb-trigger-admin-token-3e4f';
const KEY = 'sb-webhook-secret-key-9a8b';
const PASSWORD = 'Visitor-Pass-2024!';
let sandbox: Sandbox;
let receiver: Receiver;

beforeAll(async () => {
	sandbox = await startSandbox({
		api: 'support-board',
		token: TOKEN,
		seed: { users: 4, conversations: 2 },
	});
	receiver = await startReceiver();
});
afterAll(async () => {
	await receiver.close();
	await sandbox.close();
});
beforeEach(() => {
	sandbox.reset();
	receiver.reset();
	const url = receiver.endpoint('board', {
		trigger: { events: ['*'], verification: 'bodyField' },
		credentials: {
			types: [new SupportChatApi()],
			data: {
				supportChatApi: {
					api: 'supportBoard',
					baseUrl: sandbox.supportBoard!.installUrl,
					apiToken: TOKEN,
					webhookSecret: KEY,
				},
			},
		},
	});
	sandbox.supportBoard!.configureWebhooks({ url, key: KEY, active: true });
});

const board = () => sandbox.supportBoard!;
async function call(fn: string, args: IDataObject = {}) {
	const response = await fetch(board().apiUrl, {
		method: 'POST',
		body: JSON.stringify({ function: fn, token: TOKEN, ...args }),
	});
	return ((await response.json()) as IDataObject).response;
}
async function quiet() {
	await sandbox.settled();
	await receiver.settled();
}
/** What each delivery the product sent became: its function, and the event started or why nothing was. */
const outcomes = () =>
	receiver.deliveries('board').map((d) => ({
		function: JSON.parse(d.rawBody.toString()).function as string,
		started: d.items.map((item) => item.event),
		ignored: (d.body as IDataObject)?.ignored,
	}));

it('a visitor opening a chat: New Conversation and New Message, with the ids under details', async () => {
	const { conversation, user } = await board().visitor.start({
		message: 'Hello, I need help',
		email: 'ada@example.com',
		first_name: 'Ada',
	});
	await quiet();
	const items = receiver.deliveries('board').flatMap((d) => d.items);
	const created = items.find((item) => item.event === 'conversationCreated');
	expect(created).toMatchObject({
		conversationId: String(conversation.id),
		userId: String(user.id),
		eventKey: `conversationCreated:${conversation.id}`,
	});
	const message = items.find((item) => item.event === 'messageCreated');
	expect(message).toMatchObject({
		conversationId: String(conversation.id),
		userId: String(user.id),
	});
	expect(message?.eventKey).toMatch(/^messageCreated:\d+$/);
});

it("an agent's reply and the widget's new-messages after it start nothing: the workflow would answer itself", async () => {
	const { conversation } = await board().visitor.start({
		message: 'Hi',
		email: 'ben@example.com',
		first_name: 'Ben',
	});
	await quiet();
	receiver.reset();
	const url = receiver.endpoint('board', {
		trigger: { events: ['*'], verification: 'bodyField' },
		credentials: {
			types: [new SupportChatApi()],
			data: {
				supportChatApi: {
					api: 'supportBoard',
					baseUrl: board().installUrl,
					apiToken: TOKEN,
					webhookSecret: KEY,
				},
			},
		},
	});
	board().configureWebhooks({ url });
	await call('send-message', {
		user_id: -1,
		conversation_id: conversation.id,
		message: 'An agent answers',
	});
	await board().visitor.receiveMessages(conversation.id);
	await quiet();
	const seen = outcomes();
	expect(seen.map((o) => o.function)).toEqual(
		expect.arrayContaining(['message-sent', 'new-messages']),
	);
	expect(seen.flatMap((o) => o.started)).not.toContain('messageCreated');
});

it('registration is New User Created; the password it carries reaches no item', async () => {
	await board().visitor.register({
		email: 'grace@example.com',
		password: PASSWORD,
		first_name: 'Grace',
		last_name: 'Hopper',
	});
	await quiet();
	const deliveries = receiver.deliveries('board');
	expect(deliveries.some((d) => d.rawBody.toString().includes(PASSWORD))).toBe(true);
	const items = deliveries.flatMap((d) => d.items);
	expect(items.map((item) => item.event)).toContain('userCreated');
	expect(JSON.stringify(items)).not.toContain(PASSWORD);
	expect(JSON.stringify(items)).not.toContain(KEY);
});

it("the follow-up form is Lead Captured, and the form's id is not taken for the user's", async () => {
	const { conversation, user } = await board().visitor.start({
		message: 'Question',
		first_name: 'Alan',
	});
	await quiet();
	await board().visitor.followUp({
		email: 'alan@example.com',
		conversationId: conversation.id,
		userId: user.id,
	});
	await quiet();
	const lead = receiver
		.deliveries('board')
		.flatMap((d) => d.items)
		.find((item) => item.event === 'leadCaptured');
	expect(lead).toBeDefined();
	expect(lead?.userId).not.toBe('sb-follow-up');
	// The product's form sends a name and an e-mail only: no id is better than a wrong one, and the
	// e-mail makes the key.
	expect(lead).toMatchObject({
		userId: null,
		conversationId: null,
		eventKey: 'leadCaptured:@alan@example.com',
	});
});

it('two archives of one conversation are two Conversation Closed runs, byte-identical as they are', async () => {
	await call('update-conversation-status', { conversation_id: '1', status_code: 3 });
	await call('update-conversation-status', { conversation_id: '1', status_code: 3 });
	await quiet();
	const closings = receiver
		.deliveries('board')
		.filter((d) => d.items.some((item) => item.event === 'conversationClosed'));
	expect(closings).toHaveLength(2);
	expect(closings[0].rawBody.equals(closings[1].rawBody)).toBe(true);
	expect(closings[0].items[0]).toMatchObject({
		conversationId: '1',
		eventKey: 'conversationClosed:1',
	});
});

it('a delivery with another Secret key is refused (401) and starts nothing', async () => {
	board().configureWebhooks({ key: 'not-the-key' });
	await board().visitor.start({ message: 'Hi', first_name: 'Eve' });
	await quiet();
	const deliveries = receiver.deliveries('board');
	expect(deliveries.length).toBeGreaterThan(0);
	expect(deliveries.every((d) => d.status === 401 && !d.started)).toBe(true);
});
