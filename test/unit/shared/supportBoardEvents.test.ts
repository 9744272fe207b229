/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Support Board's own events (shared/supportBoardEvents.ts): each detected from the product's
 * `function`, with its ids, its eventKey and its secrets masked, in the bodies the product sends
 * (include/functions.php `sb_webhooks`, js/main.js `SBF.event`; the test bed's capture for the
 * server-side kinds). And what they must not change: a workflow that does not select one by name gets
 * each delivery exactly as before.
 */
import type { DeliveryRequest } from '../../../nodes/SupportChat/trigger/delivery';
import type { Decision } from '../../../nodes/SupportChat/trigger/handle';
import { eventOf } from '../../helpers/trigger';
import { handleDelivery } from '../../../nodes/SupportChat/trigger/handle';
import type { TriggerSettings } from '../../../nodes/SupportChat/trigger/triggerSettings';
import { eventRow, productEventOf } from '../../../nodes/SupportChat/shared/eventFacts';
import { SUPPORT_BOARD_ROWS as SUPPORT_BOARD_EVENTS } from '../../../nodes/SupportChat/shared/supportBoardEvents';
import { triggerSettings } from '../../helpers/trigger';

const KEY = 'sb-secret-Qm42-fake';
const HASH = '$2y$10$abcdefghijklmnopqrstuv0123456789ABCDEFGHIJKLMNOPQRSTU';
const TOKEN = '3f1c0de2a9b84c7d6e5f40312a1b0c9d8e7f6a5b';
const TWILIO_TOKEN = 'twilio-auth-token-7f3e';
const NOW = 1_780_000_000_000;

const settings = (events: string[], overrides: Partial<TriggerSettings> = {}): TriggerSettings =>
	triggerSettings({
		events,
		verification: 'bodyField',
		secret: KEY,
		keyField: 'key',
		...overrides,
	});
const delivery = (fn: string, data: unknown): DeliveryRequest => ({
	rawBody: Buffer.from(
		JSON.stringify({
			function: fn,
			key: KEY,
			data,
			'sender-url': 'https://shop.example.test/help',
		}),
	),
	headers: { 'content-type': 'application/json' },
	query: {},
});
const items = (decision: Decision) => {
	if (decision.action !== 'run')
		throw new Error(`expected a run, got ${JSON.stringify(decision.body)}`);
	return decision.items.map((item) => item.json as Record<string, unknown>);
};

const conversation = {
	user_id: '6',
	first_name: 'Ana',
	last_name: 'Diaz',
	user_type: 'user',
	id: '4',
	title: 'Order',
	status_code: '2',
	agent_id: '',
	tags: '',
	busy: 'false',
};
const agentMessage = {
	details: {
		id: '18',
		user_id: '1',
		message: 'On its way',
		status_code: '0',
		first_name: 'Ada',
		user_type: 'admin',
	},
};
const DIGEST = /^[0-9a-f]{16}$/;

/** [function, event, data, ids, eventKey (text, or the pattern of `<event>:<record>@<digest>`)] */
const KINDS: Array<[string, string, unknown, Record<string, unknown>, string | RegExp]> = [
	[
		'login',
		'login',
		{
			details: {
				id: '6',
				first_name: 'Ana',
				email: 'ana@example.test',
				user_type: 'user',
				token: TOKEN,
				url: 'https://sb.example.test',
				password: HASH,
				conversation_id: '4',
			},
		},
		{ userId: '6', conversationId: '4', messageId: null },
		'login:6',
	],
	[
		'user-deleted',
		'userDeleted',
		'7',
		{ userId: '7', conversationId: null, messageId: null },
		'userDeleted:7',
	],
	[
		'message-deleted',
		'messageDeleted',
		'17',
		{ userId: null, conversationId: null, messageId: '17' },
		'messageDeleted:17',
	],
	[
		'email-sent',
		'emailSent',
		{ recipient_id: '6', message: 'Your order shipped', attachments: '' },
		{ userId: '6', conversationId: null },
		/^emailSent:6@/,
	],
	[
		'sms-sent',
		'smsSent',
		{
			recipient_id: '6',
			message: 'Hi',
			response: { sid: 'SM0123456789abcdef', status: 'queued', to: '+15550001111' },
		},
		{ userId: '6' },
		/^smsSent:6@/,
	],
	// The server's send: Twilio's query and answer merged, no user id.
	[
		'sms-sent',
		'smsSent',
		{ To: '+15550001111', From: '+15550009999', Body: 'Hi', sid: 'SM0123', status: 'queued' },
		{ userId: null },
		/^smsSent:@/,
	],
	[
		'slack-message-sent',
		'slackMessageSent',
		{ message: 'Hi', conversation_id: '4', slack_channel: 'C012' },
		{ conversationId: '4', userId: null },
		/^slackMessageSent:4@/,
	],
	[
		'conversation-status-updated',
		'conversationStatusUpdated',
		{ conversation_id: '4', status_code: '0' },
		{ conversationId: '4' },
		'conversationStatusUpdated:4@0',
	],
	[
		'conversation-status-updated',
		'conversationStatusUpdated',
		{ conversation_id: '4', status_code: 3 },
		{ conversationId: '4' },
		'conversationStatusUpdated:4@3',
	],
	[
		'new-messages',
		'newMessagesReceived',
		{ messages: [agentMessage], conversation_id: '4' },
		{ conversationId: '4', messageId: '18' },
		'newMessagesReceived:18',
	],
	[
		'new-conversation',
		'newConversationReceived',
		{ details: conversation, messages: [agentMessage] },
		{ conversationId: '4', userId: '6' },
		'newConversationReceived:4',
	],
	[
		'new-email-address',
		'newEmailAddress',
		{ id: 'sb-follow-up', name: 'Ana Diaz', email: 'ana@example.test' },
		{ userId: null, conversationId: null },
		'newEmailAddress:@ana@example.test',
	],
	[
		'rich-message',
		'richMessage',
		{
			result: ['success', { message: 'ok' }],
			data: { type: 'buttons', result: { value: 'Shipping' } },
			id: 'sb-buttons-1',
		},
		{ userId: null, conversationId: null, messageId: null },
		/^richMessage:@/,
	],
	[
		'bot-message',
		'botMessage',
		{ response: { token: TOKEN, messages: [{ message: 'Hello!' }] }, message: 'Hi' },
		{ userId: null },
		/^botMessage:@/,
	],
	[
		'dialogflow-message',
		'dialogflowMessage',
		{ response: { messages: [{ message: 'Hello!' }] }, message: 'Hi' },
		{},
		/^dialogflowMessage:@/,
	],
];

describe('the table', () => {
	it('offers each of the product names once, with a camelCase value', () => {
		const functions = SUPPORT_BOARD_EVENTS.flatMap((row) => row.webhooks);
		expect(new Set(functions).size).toBe(functions.length);
		for (const row of SUPPORT_BOARD_EVENTS) {
			expect(row.value).toMatch(/^[a-z][A-Za-z]*$/);
			expect(row.webhooks).toHaveLength(1);
			expect(productEventOf(row.webhooks[0].toUpperCase())).toBe(row.value);
			expect(eventRow(row.value)).toBe(row);
		}
		expect(productEventOf('message-sent')).toBeUndefined();
		expect(eventRow('constructor')).toBeUndefined();
	});

	it('every kind of the table has a case below', () => {
		expect(new Set(KINDS.map(([, event]) => event))).toEqual(
			new Set(SUPPORT_BOARD_EVENTS.map((row) => row.value)),
		);
	});
});

describe.each(KINDS)('%s → %s', (fn, event, data, ids, key) => {
	it('selected by name: the event, its ids and its eventKey', () => {
		const [item] = items(handleDelivery(delivery(fn, data), settings([event]), {}, NOW));
		expect(item).toMatchObject({ event, eventName: fn, eventSource: 'body.function', ...ids });
		if (typeof key === 'string') expect(item.eventKey).toBe(key);
		else {
			expect(item.eventKey).toMatch(key);
			expect(String(item.eventKey).split('@')[1]).toMatch(DIGEST);
		}
	});

	it('the same delivery twice has the same eventKey', () => {
		const keyOf = () =>
			items(handleDelivery(delivery(fn, data), settings([event]), {}, NOW))[0].eventKey;
		expect(keyOf()).toBe(keyOf());
	});

	it('neither the webhook key nor a visitor’s secret reaches the item or the answer', () => {
		const decision = handleDelivery(delivery(fn, data), settings([event]), {}, NOW);
		const text = JSON.stringify(decision);
		for (const secret of [KEY, HASH, TOKEN]) expect(text).not.toContain(secret);
		expect((items(decision)[0].body as Record<string, unknown>).key).toBe('[redacted]');
	});

	it('detected beside the event it was before', () => {
		expect(eventOf({ function: fn, data } as never, {}).productEvent).toBe(event);
	});
});

describe('what a workflow that does not select them gets: exactly what it got before', () => {
	it.each([
		[
			'new-messages',
			{ messages: [agentMessage], conversation_id: '4' },
			['*'],
			'ignored: own message (sender type admin)',
		],
		[
			'new-messages',
			{ messages: [agentMessage], conversation_id: '4' },
			['messageCreated', 'newMessagesReceived'],
			'ignored: own message (sender type admin)',
		],
		[
			'new-conversation',
			{ details: conversation, messages: [] },
			['*', 'newConversationReceived'],
			'conversationCreated',
		],
		[
			'new-email-address',
			{ id: 'sb-follow-up', name: 'Ana', email: 'ana@example.test' },
			['leadCaptured', 'newEmailAddress'],
			'leadCaptured',
		],
		[
			'conversation-status-updated',
			{ conversation_id: '4', status_code: 3 },
			['conversationClosed', 'conversationStatusUpdated'],
			'conversationClosed',
		],
		[
			'conversation-status-updated',
			{ conversation_id: '4', status_code: 1 },
			['*'],
			'ignored: unrecognised event "conversation-status-updated"',
		],
		['login', { details: { id: '6', token: TOKEN } }, ['*'], 'ignored: unrecognised event "login"'],
		[
			'login',
			{ details: { id: '6', token: TOKEN } },
			['messageCreated'],
			'ignored: unrecognised event "login"',
		],
		[
			'message-sent',
			{ user_id: '6', message_id: 17, conversation_user_id: '6', conversation_id: '4' },
			['login'],
			'ignored: event messageCreated not selected',
		],
	])('%s (%#): as before', (fn, data, events, expected) => {
		const decision = handleDelivery(delivery(fn, data), settings(events), {}, NOW);
		if (expected.startsWith('ignored: '))
			expect(decision.body.ignored).toBe(expected.slice('ignored: '.length));
		else expect(items(decision)[0].event).toBe(expected);
	});

	it('passed on unselected, login is still `unknown`, with the ids it had', () => {
		const data = { details: { id: '6', token: TOKEN, password: HASH, conversation_id: '4' } };
		const [item] = items(
			handleDelivery(
				delivery('login', data),
				settings(['messageCreated'], { unknownEvents: 'passOn' }),
				{},
				NOW,
			),
		);
		expect(item).toMatchObject({
			event: 'unknown',
			eventName: 'login',
			userId: '6',
			conversationId: '4',
			eventKey: 'unknown:4',
		});
	});

	it('a product name in another field than the first explicit one is not read as the product event', () => {
		expect(
			eventOf({ event: 'message.created', function: 'login' }, {}).productEvent,
		).toBeUndefined();
	});

	it('the SMS key differs per message sent: two texts to one user are two events', () => {
		const keyOf = (sid: string) =>
			items(
				handleDelivery(
					delivery('sms-sent', { recipient_id: '6', message: 'Hi', response: { sid } }),
					settings(['smsSent']),
					{},
					NOW,
				),
			)[0].eventKey;
		expect(keyOf('SM1')).not.toBe(keyOf('SM2'));
	});

	it('an SMS answer’s auth token named `token` is masked too', () => {
		const decision = handleDelivery(
			delivery('sms-sent', { recipient_id: '6', message: 'Hi', response: { token: TWILIO_TOKEN } }),
			settings(['smsSent']),
			{},
			NOW,
		);
		expect(JSON.stringify(decision)).not.toContain(TWILIO_TOKEN);
	});
});
