/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Every kind of delivery Support Board 3.8.7 sends, in its exact shapes (as a real copy of the product
 * posted them: `{function, key, data, sender-url}`, the widget's kinds serialised by jQuery and PHP, so
 * their scalars are strings and `false` is "false"). Names, e-mails, passwords and tokens are made up.
 */
import { DeliveryMemory } from '../../../nodes/SupportChat/trigger/dedupe';
import type { DeliveryRequest } from '../../../nodes/SupportChat/trigger/delivery';
import type { Decision } from '../../../nodes/SupportChat/trigger/handle';
import type { TriggerSettings } from '../../../nodes/SupportChat/trigger/settings';
import { triggerSettings } from './settings';
import { handleDelivery } from '../../../nodes/SupportChat/trigger/handle';
import { extractIds } from '../../../nodes/SupportChat/trigger/ids';

const KEY = 'sb-secret-Kx81-fake';
const PASSWORD = 'Visitor-Pass-9271';
const HASH = '$2y$10$abcdefghijklmnopqrstuv0123456789ABCDEFGHIJKLMNOPQRSTU';
const TOKEN = '3f1c0de2a9b84c7d6e5f40312a1b0c9d8e7f6a5b';
const NOW = 1_780_000_000_000;

const settings = (overrides: Partial<TriggerSettings> = {}): TriggerSettings =>
	triggerSettings({ events: ['*'], verification: 'bodyField', secret: KEY, keyField: 'key', ...overrides });

const delivery = (fn: string, data: unknown): DeliveryRequest => ({
	rawBody: Buffer.from(JSON.stringify({ function: fn, key: KEY, data, 'sender-url': 'https://shop.example.test/help' })),
	headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0' },
	query: {},
});

const conversationRecord = {
	user_id: '6',
	first_name: 'Ana',
	last_name: 'Diaz',
	user_type: 'user',
	id: '4',
	title: 'Order question',
	status_code: '2',
	department: null,
	agent_id: null,
	tags: [],
	busy: false,
};
const agentMessage = (id: string, type: string) => ({
	details: { id, user_id: '1', message: 'Let me check.', status_code: '0', first_name: 'Ada', user_type: type, full_name: 'Ada Agent' },
});
const visitorMessage = { details: { id: '17', user_id: '6', message: 'Where is my order?', status_code: '0', first_name: 'Ana', user_type: 'user' } };

/** [kind, data, expected event or `ignored: <reason>`, ids] for every kind the product sends. */
const KINDS: Array<[string, unknown, string, { conversationId?: unknown; userId?: unknown; messageId?: unknown }]> = [
	['new-conversation-created', { messages: [], details: conversationRecord }, 'conversationCreated', { conversationId: '4', userId: '6', messageId: null }],
	[
		'new-conversation',
		{ details: { ...conversationRecord, tags: '', busy: 'false' }, messages: [visitorMessage] },
		'conversationCreated',
		{ conversationId: '4', userId: '6' },
	],
	[
		'message-sent',
		{ user_id: 6, message_id: 17, message: 'Hi', attachments: [], conversation_user_id: '6', conversation_id: '4', conversation_status_code: 2, conversation_source: '' },
		'messageCreated',
		{ conversationId: '4', userId: 6, messageId: 17 },
	],
	[
		'message-sent',
		{ user_id: '1', message_id: 18, message: 'Hello', attachments: [], conversation_user_id: '6', conversation_id: '4', conversation_status_code: 1, conversation_source: '' },
		'ignored: own message',
		{},
	],
	['new-messages', { messages: [agentMessage('18', 'admin')], conversation_id: '4' }, 'ignored: own message', {}],
	['new-messages', { messages: [agentMessage('18', 'agent'), agentMessage('19', 'bot')], conversation_id: '4' }, 'ignored: own message', {}],
	['new-messages', { messages: [agentMessage('18', 'agent'), visitorMessage], conversation_id: '4' }, 'messageCreated', { conversationId: '4', userId: '6', messageId: '17' }],
	['conversation-status-updated', { conversation_id: '4', status_code: 3 }, 'conversationClosed', { conversationId: '4' }],
	['conversation-status-updated', { conversation_id: '4', status_code: 1 }, 'ignored: unrecognised', {}],
	[
		'registration',
		{ id: 'registration', conversation_id: 'false', user: { first_name: 'Ana', last_name: 'Diaz', email: 'ana@example.test', password: PASSWORD, 'password-check': PASSWORD, id: '6' } },
		'userCreated',
		{ userId: '6', conversationId: null },
	],
	['new-email-address', { id: 'sb-follow-up', name: 'Ana Diaz', email: 'ana@example.test' }, 'leadCaptured', { userId: null, conversationId: null, messageId: null }],
	[
		'login',
		{ details: { id: '6', first_name: 'Ana', email: 'ana@example.test', user_type: 'user', token: TOKEN, url: 'https://sb.example.test', password: HASH, conversation_id: '4' } },
		'ignored: unrecognised',
		{},
	],
	['user-deleted', '7', 'ignored: unrecognised', {}],
	['message-deleted', '17', 'ignored: unrecognised', {}],
	['rich-message', { result: ['success', { message: 'ok' }], data: { type: 'buttons', result: { value: 'Shipping' } }, id: 'sb-buttons-1' }, 'ignored: unrecognised', {}],
	['slack-message-sent', { message: 'Hi', conversation_id: '4', slack_channel: 'C012' }, 'ignored: unrecognised', {}],
	['email-sent', { recipient_id: '6', message: 'Hi', attachments: [] }, 'ignored: unrecognised', {}],
	['sms-sent', { recipient_id: '6', message: 'Hi', response: { status: 'sent' } }, 'ignored: unrecognised', {}],
];

const items = (decision: Decision) => {
	if (decision.action !== 'run') throw new Error(`expected a run, got ${JSON.stringify(decision.body)}`);
	return decision.items.map((item) => item.json as Record<string, unknown>);
};

describe('Support Board deliveries', () => {
	test.each(KINDS)('%s (%#): the event, the ids, verified by its key', (kind, data, expected, ids) => {
		const decision = handleDelivery(delivery(kind, data), settings(), {}, NOW, { memory: new DeliveryMemory() });
		if (expected.startsWith('ignored: ')) {
			expect(decision.action).toBe('respond');
			expect(decision.status).toBe(200);
			expect(decision.body.ignored).toContain(expected.slice('ignored: '.length));
			return;
		}
		const [item] = items(decision);
		expect(item.event).toBe(expected);
		for (const [name, value] of Object.entries(ids)) expect([name, item[name]]).toEqual([name, value]);
	});

	test.each(KINDS)('%s (%#): passed on, it carries neither the key nor a secret of the visitor', (kind, data) => {
		const decision = handleDelivery(delivery(kind, data), settings({ unknownEvents: 'passOn', ignoreOwnMessages: false }), {}, NOW);
		const [item] = items(decision);
		const text = JSON.stringify(decision);
		for (const secret of [KEY, PASSWORD, HASH, TOKEN]) expect(text).not.toContain(secret);
		expect((item.body as Record<string, unknown>).key).toBe('[redacted]');
	});

	test('registration: the password and its repetition are masked by name, the rest kept', () => {
		const [item] = items(handleDelivery(delivery(KINDS[9][0], KINDS[9][1]), settings(), {}, NOW));
		expect(item.data).toMatchObject({
			conversation_id: 'false',
			user: { email: 'ana@example.test', password: '[redacted]', 'password-check': '[redacted]', id: '6' },
		});
	});

	test('login: the password hash and the login token are masked by name', () => {
		const decision = handleDelivery(delivery(KINDS[11][0], KINDS[11][1]), settings({ unknownEvents: 'passOn' }), {}, NOW);
		const [item] = items(decision);
		expect(item.data).toMatchObject({ details: { id: '6', token: '[redacted]', password: '[redacted]', email: 'ana@example.test' } });
		expect(item.userId).toBe('6');
		expect(item.conversationId).toBe('4');
	});

	test.each<[string, unknown, Record<string, unknown>]>([
		['login', KINDS[11][1], { userId: '6', conversationId: '4', messageId: null }],
		['user-deleted', '7', { userId: '7', conversationId: null, messageId: null }],
		['message-deleted', '17', { userId: null, conversationId: null, messageId: '17' }],
		['slack-message-sent', KINDS[15][1], { userId: null, conversationId: '4', messageId: null }],
	])('%s passed on: the ids its name and data give', (kind, data, ids) => {
		const [item] = items(handleDelivery(delivery(kind, data), settings({ unknownEvents: 'passOn' }), {}, NOW));
		expect(item).toMatchObject({ event: 'unknown', eventName: kind, ...ids });
	});

	test('the same field names are masked in form-encoded and nested payloads too', () => {
		const raw = `function=registration&key=${KEY}&data[user][password]=${PASSWORD}&data[user][id]=6&data[user][login_token]=${TOKEN}`;
		const decision = handleDelivery(
			{ rawBody: Buffer.from(raw), headers: { 'content-type': 'application/x-www-form-urlencoded' }, query: {} },
			settings(),
			{},
			NOW,
		);
		const text = JSON.stringify(decision);
		for (const secret of [KEY, PASSWORD, TOKEN]) expect(text).not.toContain(secret);
		expect(items(decision)[0].userId).toBe('6');
	});

	test.each(['false', 'FALSE', 'null', 'true'])('the text %j stands for no value (the widget sends "false" for no conversation): no id', (text) => {
		const body = { function: 'message-sent', data: { conversation_id: text, user_id: '6', message_id: 17 } };
		expect(extractIds(body, 'message')).toEqual({ conversationId: null, userId: '6', messageId: 17 });
	});

	test('two byte-identical archives of one conversation are two events: both start a run', () => {
		const store: Record<string, unknown> = {};
		const memory = new DeliveryMemory();
		const archive = delivery('conversation-status-updated', { conversation_id: '4', status_code: 3 });
		for (const at of [NOW, NOW + 1000]) {
			const decision = handleDelivery(archive, settings(), store, at, { memory });
			expect(items(decision)).toEqual([expect.objectContaining({ event: 'conversationClosed', deliveryId: null })]);
		}
	});

	test('a wrong key is refused 401 and starts nothing', () => {
		const request = delivery('message-sent', { user_id: '6', conversation_user_id: '6', conversation_id: '4' });
		const decision = handleDelivery(request, settings({ secret: 'another-secret' }), {}, NOW);
		expect(decision).toMatchObject({ action: 'respond', status: 401 });
	});
});
