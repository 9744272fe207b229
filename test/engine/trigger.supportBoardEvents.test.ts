/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Support Board's own events, each kind sent by the sandbox's Support Board mode in the product's body
 * shape to the Support Chat Trigger under n8n-core's real WebhookContext, verified with the Secret key:
 * the event by its own name when the workflow selects it, its ids and eventKey, and no secret in the item.
 */
import type { IDataObject } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SUPPORT_BOARD_ROWS as SUPPORT_BOARD_EVENTS } from '../../nodes/SupportChat/shared/supportBoardEvents';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { Receiver } from '../helpers/receiver';
import { startReceiver } from '../helpers/receiver';

const TOKEN = 'sb-events-admin-token-71c2';
const KEY = 'sb-events-secret-key-4d5e';
let sandbox: Sandbox;
let receiver: Receiver;

beforeAll(async () => {
	sandbox = await startSandbox({
		api: 'support-board',
		token: TOKEN,
		seed: { users: 2, conversations: 1 },
	});
	receiver = await startReceiver();
});
afterAll(async () => {
	await receiver.close();
	await sandbox.close();
});

const board = () => sandbox.supportBoard!;
function listen(events: string[]) {
	sandbox.reset();
	receiver.reset();
	const url = receiver.endpoint('board', {
		trigger: { events, verification: 'bodyField' },
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
	board().configureWebhooks({ url, key: KEY, active: true });
}
/** Sends one kind, as the product shapes it, and answers the items the trigger started. */
async function send(
	name: string,
	ids: { userId?: string; conversationId?: string; messageId?: string } = {},
) {
	await board().sendWebhook(name as never, ids);
	await sandbox.settled();
	await receiver.settled();
	return receiver.deliveries('board').flatMap((d) => d.items) as IDataObject[];
}

const ALL = SUPPORT_BOARD_EVENTS.map((row) => row.value);
const DIGEST = '[0-9a-f]{16}';

it.each<[string, string, IDataObject, string]>([
	['login', 'login', { userId: '6', conversationId: '4' }, '^login:6$'],
	['user-deleted', 'userDeleted', { userId: '6' }, '^userDeleted:6$'],
	['message-deleted', 'messageDeleted', { messageId: '17' }, '^messageDeleted:17$'],
	['email-sent', 'emailSent', { userId: '6' }, `^emailSent:6@${DIGEST}$`],
	['sms-sent', 'smsSent', { userId: '6' }, `^smsSent:6@${DIGEST}$`],
	[
		'slack-message-sent',
		'slackMessageSent',
		{ conversationId: '4' },
		`^slackMessageSent:4@${DIGEST}$`,
	],
	[
		'conversation-status-updated',
		'conversationStatusUpdated',
		{ conversationId: '4' },
		'^conversationStatusUpdated:4@2$',
	],
	[
		'new-messages',
		'newMessagesReceived',
		{ conversationId: '4', messageId: '18' },
		'^newMessagesReceived:18$',
	],
	[
		'new-conversation',
		'newConversationReceived',
		{ conversationId: '4', userId: '6' },
		'^newConversationReceived:4$',
	],
	[
		'new-email-address',
		'newEmailAddress',
		{ userId: null },
		'^newEmailAddress:@vera@example.test$',
	],
	[
		'rich-message',
		'richMessage',
		{ userId: null, conversationId: null },
		`^richMessage:@${DIGEST}$`,
	],
	['bot-message', 'botMessage', {}, `^botMessage:@${DIGEST}$`],
	['dialogflow-message', 'dialogflowMessage', {}, `^dialogflowMessage:@${DIGEST}$`],
])(
	'%s starts %s with its ids and eventKey; no secret reaches the item',
	async (fn, event, ids, key) => {
		listen(ALL);
		const items = await send(fn, {
			userId: '6',
			conversationId: '4',
			messageId: fn === 'new-messages' ? '18' : '17',
		});
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ event, eventName: fn, ...ids });
		expect(String(items[0].eventKey)).toMatch(new RegExp(key));
		const text = JSON.stringify(items);
		expect(text).not.toContain(KEY);
		expect(text).not.toContain('$2y$10$');
		expect(text).not.toContain('0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d');
	},
);

it('with *, the same kinds arrive as before: New Message, New Conversation, Lead Captured, and the rest ignored as unrecognised', async () => {
	listen(['*']);
	const started: string[] = [];
	const ignored: string[] = [];
	for (const fn of [
		'new-messages',
		'new-conversation',
		'new-email-address',
		'login',
		'email-sent',
	] as const) {
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
		const items = await send(fn, { userId: '6', conversationId: '4' });
		started.push(...items.map((item) => String(item.event)));
		ignored.push(
			...receiver
				.deliveries('board')
				.map((d) => String((d.body as IDataObject)?.ignored ?? ''))
				.filter(Boolean),
		);
	}
	// new-messages in the sandbox's shape is an agent's reply: ignored as the workflow's own side.
	expect(started).toEqual(['conversationCreated', 'leadCaptured']);
	expect(ignored).toEqual([
		'own message (sender type admin)',
		'unrecognised event "login"',
		'unrecognised event "email-sent"',
	]);
});
