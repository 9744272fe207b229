/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */

import { createHmac } from 'crypto';
import fc from 'fast-check';

import { DeliveryMemory } from '../../../nodes/SupportChat/trigger/dedupe';
import type { DeliveryRequest } from '../../../nodes/SupportChat/trigger/delivery';
import type { Decision } from '../../../nodes/SupportChat/trigger/handle';
import { handleDelivery } from '../../../nodes/SupportChat/trigger/handle';
import { extractIds } from '../../../nodes/SupportChat/trigger/ids';
import { isOwnMessage } from '../../../nodes/SupportChat/shared/ownMessages';
import type { TriggerSettings } from '../../../nodes/SupportChat/trigger/triggerSettings';
import {
	TRIGGER_DEFAULTS,
	VERIFICATION_SCHEMES,
} from '../../../nodes/SupportChat/trigger/triggerSettings';
import { hasClosedStatus } from '../../../nodes/SupportChat/trigger/detect';
import { MAX_NAME_LENGTH, normaliseEventName } from '../../../nodes/SupportChat/trigger/aliases';
import { deliveryIdOf, eventOf, reload, triggerSettings } from '../../helpers/trigger';

const NOW = 1_750_000_000_000;
const KEY = Buffer.from('0123456789abcdef0123456789abcdef');
const WHSEC = `whsec_${KEY.toString('base64')}`;

function settings(overrides: Partial<TriggerSettings> = {}): TriggerSettings {
	return triggerSettings({ events: ['*'], ...overrides });
}

function json(
	body: unknown,
	headers: Record<string, string> = {},
	query: Record<string, string> = {},
): DeliveryRequest {
	return {
		rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
		headers: { 'content-type': 'application/json', ...headers },
		query,
	};
}

function form(
	fields: Record<string, string>,
	headers: Record<string, string> = {},
): DeliveryRequest {
	return {
		rawBody: Buffer.from(new URLSearchParams(fields).toString()),
		headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
		query: {},
	};
}

function signStandard(id: string, timestamp: string, raw: Buffer): string {
	const digest = createHmac('sha256', KEY)
		.update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), raw]))
		.digest('base64');
	return `v1,${digest}`;
}

function runItems(decision: Decision) {
	if (decision.action !== 'run') throw new Error(`expected a run, got ${JSON.stringify(decision)}`);
	return decision.items.map((item) => item.json as Record<string, unknown>);
}

describe('handleDelivery: items', () => {
	test('a JSON delivery becomes one item with event, ids, data, body and time', () => {
		const body = {
			id: 'evt_1',
			event: 'message.created',
			data: { id: 9, conversation_id: 5, user_id: 3, message: 'Hi' },
		};
		const decision = handleDelivery(json(body), settings(), {}, NOW);
		expect(decision).toMatchObject({ action: 'run', status: 200, body: { received: true } });
		expect(runItems(decision)).toEqual([
			{
				event: 'messageCreated',
				eventName: 'message.created',
				eventSource: 'body.event',
				eventKey: 'messageCreated:9',
				conversationId: 5,
				userId: 3,
				messageId: 9,
				deliveryId: 'evt_1',
				receivedAt: new Date(NOW).toISOString(),
				data: body.data,
				body,
			},
		]);
	});

	test('a PHP-style form delivery with JSON in a field', () => {
		const request = form({
			function: 'new-conversation-created',
			data: JSON.stringify({
				conversation_id: '77',
				user_id: '12',
				conversation: { status_code: 0 },
			}),
		});
		const [item] = runItems(handleDelivery(request, settings(), {}, NOW));
		expect(item).toMatchObject({
			event: 'conversationCreated',
			eventName: 'new-conversation-created',
			eventSource: 'body.function',
			conversationId: '77',
			userId: '12',
			messageId: null,
			deliveryId: null,
		});
		expect(item.body).toEqual({
			function: 'new-conversation-created',
			data: { conversation_id: '77', user_id: '12', conversation: { status_code: 0 } },
		});
	});

	test('a JSON array is a batch: one item per event', () => {
		const body = [
			{ event_id: 'a', event: 'user.created', data: { id: 1 } },
			{ event_id: 'b', event: 'tag.applied', data: { user_id: 1, tag: 'vip' } },
			{ event_id: 'c', event: 'message.deleted' },
		];
		const items = runItems(handleDelivery(json(body), settings(), {}, NOW));
		expect(items.map((item) => [item.event, item.deliveryId])).toEqual([
			['userCreated', 'a'],
			['tagApplied', 'b'],
		]);
	});

	test('headers are included only on request, with credentials masked', () => {
		const request = json(
			{ event: 'lead.captured' },
			{ authorization: 'Bearer abc', 'x-trace': 't1' },
		);
		const [without] = runItems(handleDelivery(request, settings(), {}, NOW));
		expect(without.headers).toBeUndefined();
		const [withHeaders] = runItems(
			handleDelivery(request, settings({ includeHeaders: true }), {}, NOW),
		);
		expect(withHeaders.headers).toEqual({
			'content-type': 'application/json',
			authorization: '[redacted]',
			'x-trace': 't1',
		});
	});
});

describe('handleDelivery: decisions', () => {
	const selectedMessage = settings({ events: ['messageCreated'] });
	test.each<[string, DeliveryRequest, TriggerSettings, Decision['status'], string, string]>([
		['selected event runs', json({ event: 'message.created' }), selectedMessage, 200, 'run', ''],
		[
			'other event is answered 200 without a run',
			json({ event: 'user.created' }),
			selectedMessage,
			200,
			'respond',
			'event userCreated not selected',
		],
		[
			'unrecognised event is ignored by default',
			json({ event: 'message.deleted' }),
			settings(),
			200,
			'respond',
			'unrecognised event "message.deleted"',
		],
		[
			'unrecognised event without a name',
			json({ text: 'hello' }),
			settings(),
			200,
			'respond',
			'unrecognised event',
		],
		[
			'unrecognised event passed on',
			json({ event: 'message.deleted' }),
			settings({ unknownEvents: 'passOn' }),
			200,
			'run',
			'',
		],
		[
			'unknown passed on even with a narrow selection',
			json({ event: 'ping' }),
			settings({ events: ['tagApplied'], unknownEvents: 'passOn' }),
			200,
			'run',
			'',
		],
		[
			'no event selected',
			json({ event: 'message.created' }),
			settings({ events: [] }),
			200,
			'respond',
			'event messageCreated not selected',
		],
		[
			'own message (agent) is ignored',
			json({ event: 'message.created', data: { type: 'agent' } }),
			settings(),
			200,
			'respond',
			'own message (sender type agent)',
		],
		[
			'own message allowed when the option is off',
			json({ event: 'message.created', data: { type: 'agent' } }),
			settings({ ignoreOwnMessages: false }),
			200,
			'run',
			'',
		],
		[
			'listed sender ignored',
			json({ event: 'message.created', data: { sender_id: 8 } }),
			settings({ ignoredSenderIds: ['8'] }),
			200,
			'respond',
			'own message (sender id 8)',
		],
		[
			'only messages are checked for loops',
			json({ event: 'conversation.created', data: { type: 'agent' } }),
			settings(),
			200,
			'run',
			'',
		],
		['malformed JSON', json('{"event":'), settings(), 400, 'respond', 'Malformed JSON body'],
		['empty body', json(''), settings(), 400, 'respond', 'Empty body'],
		['scalar JSON', json('"x"'), settings(), 400, 'respond', 'Body must be a JSON object'],
		[
			'broken JSON in a form field',
			form({ payload: '{"a":' }),
			settings(),
			400,
			'respond',
			'Field "payload" is not valid JSON',
		],
		['empty batch', json([]), settings(), 200, 'respond', 'no events'],
		[
			'verification without a secret fails closed',
			json({ event: 'message.created' }),
			settings({ verification: 'standardWebhooks' }),
			401,
			'respond',
			'Webhook secret not configured',
		],
	])('%s', (_label, request, config, status, action, reason) => {
		const decision = handleDelivery(request, config, {}, NOW);
		expect(decision.status).toBe(status);
		expect(decision.action).toBe(action);
		if (decision.action === 'respond') {
			expect(decision.body.ignored ?? decision.body.error).toBe(reason);
			expect(decision.body.received).toBe(status === 200);
		}
	});
});

describe('handleDelivery: verification', () => {
	const raw = Buffer.from(JSON.stringify({ type: 'conversation.closed', data: { id: 'c1' } }));
	const timestamp = String(Math.floor(NOW / 1000));
	const signed = (overrides: Record<string, string> = {}): DeliveryRequest => ({
		rawBody: raw,
		headers: {
			'content-type': 'application/json',
			'webhook-id': 'msg_1',
			'webhook-timestamp': timestamp,
			'webhook-signature': signStandard('msg_1', timestamp, raw),
			...overrides,
		},
	});
	const standard = settings({ verification: 'standardWebhooks', secret: WHSEC });

	test('a valid Standard Webhooks delivery runs, with its webhook-id as delivery id', () => {
		const [item] = runItems(handleDelivery(signed(), standard, {}, NOW));
		expect(item).toMatchObject({
			event: 'conversationClosed',
			conversationId: 'c1',
			deliveryId: 'msg_1',
		});
	});

	test.each([
		[
			'tampered body',
			{ ...signed(), rawBody: Buffer.from(raw.toString().replace('c1', 'c2')) },
			'Invalid signature',
		],
		[
			'wrong signature',
			signed({ 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` }),
			'Invalid signature',
		],
		[
			'missing headers',
			json({ type: 'conversation.closed' }),
			'Missing webhook-id, webhook-timestamp or webhook-signature header',
		],
		[
			'stale timestamp',
			signed({ 'webhook-timestamp': String(Number(timestamp) - 600) }),
			'Timestamp outside the allowed tolerance',
		],
	])('%s → 401, nothing started, nothing remembered', (_label, request, reason) => {
		const staticData: Record<string, unknown> = {};
		const decision = handleDelivery(request, standard, staticData, NOW);
		expect(decision).toEqual({
			action: 'respond',
			status: 401,
			body: { received: false, error: reason },
		});
		expect(staticData).toEqual({});
	});

	test('a forged delivery does not poison the duplicate memory', () => {
		const staticData: Record<string, unknown> = {};
		handleDelivery(signed({ 'webhook-signature': 'v1,AAAA' }), standard, staticData, NOW);
		expect(handleDelivery(signed(), standard, staticData, NOW).action).toBe('run');
	});

	test('the signature is checked before the body is read: a forged malformed body gets 401, not 400', () => {
		const decision = handleDelivery(
			{ ...signed(), rawBody: Buffer.from('{oops') },
			standard,
			{},
			NOW,
		);
		expect(decision.status).toBe(401);
	});

	test('the secret is trimmed as pasted', () => {
		expect(handleDelivery(signed(), { ...standard, secret: ` ${WHSEC}\n` }, {}, NOW).action).toBe(
			'run',
		);
	});

	test('token in the query', () => {
		const config = settings({
			verification: 'token',
			tokenLocation: 'query',
			queryParameterName: 'token',
			secret: 's3cret-token',
		});
		expect(
			handleDelivery(
				json({ event: 'user.created' }, {}, { token: 's3cret-token' }),
				config,
				{},
				NOW,
			).action,
		).toBe('run');
		expect(
			handleDelivery(json({ event: 'user.created' }, {}, { token: 'nope' }), config, {}, NOW),
		).toMatchObject({
			status: 401,
			body: { error: 'Invalid token' },
		});
	});

	test('token in a header, masked in the output', () => {
		const config = settings({
			verification: 'token',
			tokenLocation: 'header',
			headerName: 'X-Chat-Token',
			secret: 's3cret-token',
			includeHeaders: true,
		});
		const [item] = runItems(
			handleDelivery(
				json({ event: 'user.created' }, { 'x-chat-token': 's3cret-token' }),
				config,
				{},
				NOW,
			),
		);
		expect((item.headers as Record<string, string>)['x-chat-token']).toBe('[redacted]');
		expect(handleDelivery(json({ event: 'user.created' }), config, {}, NOW).status).toBe(401);
	});

	test('HMAC of the raw body', () => {
		const body = Buffer.from('{"event":"tag.applied","data":{"user_id":4,"tag":"vip"}}');
		const signature = createHmac('sha256', 'hmac-secret').update(body).digest('hex');
		const config = settings({
			verification: 'hmac',
			secret: 'hmac-secret',
			hmacHeader: 'X-Hub-Signature-256',
			hmacPrefix: 'sha256=',
		});
		const request = (value: string): DeliveryRequest => ({
			rawBody: body,
			headers: { 'content-type': 'application/json', 'x-hub-signature-256': value },
		});
		expect(
			runItems(handleDelivery(request(`sha256=${signature}`), config, {}, NOW))[0],
		).toMatchObject({ event: 'tagApplied', userId: 4 });
		expect(handleDelivery(request(`sha256=${'0'.repeat(64)}`), config, {}, NOW).status).toBe(401);
	});

	test('secret field in a form body: checked, and never in the output', () => {
		const config = settings({
			verification: 'bodyField',
			keyField: 'key',
			secret: 'php-secret-key',
		});
		const request = form({
			function: 'message-sent',
			key: 'php-secret-key',
			data: '{"message_id":"3","conversation_id":"9","note":"php-secret-key"}',
		});
		const decision = handleDelivery(request, config, {}, NOW);
		const [item] = runItems(decision);
		expect(item).toMatchObject({ event: 'messageCreated', messageId: '3', conversationId: '9' });
		expect(JSON.stringify(decision)).not.toContain('php-secret-key');
		expect((item.body as Record<string, unknown>).key).toBe('[redacted]');

		const wrong = form({ function: 'message-sent', key: 'guess' });
		expect(handleDelivery(wrong, config, {}, NOW)).toMatchObject({
			status: 401,
			body: { error: 'Invalid secret key' },
		});
		const missing = form({ function: 'message-sent' });
		expect(handleDelivery(missing, config, {}, NOW)).toMatchObject({
			status: 401,
			body: { error: 'Missing "key" field' },
		});
	});

	test('secret field holding a number is masked too', () => {
		const config = settings({ verification: 'bodyField', keyField: 'auth.key', secret: '123456' });
		const decision = handleDelivery(
			json({ event: 'lead', auth: { key: 123456 } }),
			config,
			{},
			NOW,
		);
		expect(JSON.stringify(decision)).not.toContain('123456');
	});

	test('every reason is free of the secret', () => {
		const secret = 'very-distinctive-secret-value';
		const requests = [
			json({}),
			json({ event: 'x' }, { 'x-signature': secret }),
			form({ key: `${secret}x` }),
		];
		for (const verification of ['standardWebhooks', 'token', 'hmac', 'bodyField'] as const) {
			for (const request of requests) {
				const decision = handleDelivery(request, settings({ verification, secret }), {}, NOW);
				expect(JSON.stringify(decision)).not.toContain(secret);
			}
		}
	});
});

describe('handleDelivery: duplicates', () => {
	test("a retry with the same webhook-id does not run twice, across n8n's static data reloads", () => {
		let staticData: Record<string, unknown> = {};
		const request = json({ event: 'message.created', data: { id: 1 } }, { 'webhook-id': 'msg_77' });
		expect(handleDelivery(request, settings(), staticData, NOW).action).toBe('run');
		staticData = reload(staticData);
		expect(handleDelivery(request, settings(), staticData, NOW + 30_000)).toEqual({
			action: 'respond',
			status: 200,
			body: { received: true, ignored: 'duplicate delivery' },
		});
		staticData = reload(staticData);
		expect(
			handleDelivery(request, settings({ dedupeWindowMinutes: 1 }), staticData, NOW + 120_000)
				.action,
		).toBe('run');
	});

	test.each<[string, DeliveryRequest, DeliveryRequest, boolean]>([
		[
			'same envelope id',
			json({ id: 'e1', event: 'user.created', data: { id: 1 } }),
			json({ id: 'e1', event: 'user.created', data: { id: 1 } }),
			true,
		],
		[
			'same event_id header',
			json({ event: 'user.created' }, { 'x-event-id': 'h1' }),
			json({ event: 'user.created' }, { 'x-event-id': 'h1' }),
			true,
		],
		[
			'different ids',
			json({ id: 'e1', event: 'user.created', data: {} }),
			json({ id: 'e2', event: 'user.created', data: {} }),
			false,
		],
		[
			'same id, different event',
			json({ event: 'conversation.created' }, { 'x-event-id': 'c5' }),
			json({ event: 'conversation.closed' }, { 'x-event-id': 'c5' }),
			false,
		],
		[
			'flat bodies with the same resource id are not duplicates',
			json({ event: 'conversation.updated', id: 5, status: 'closed' }),
			json({ event: 'conversation.updated', id: 5, status: 'archived' }),
			false,
		],
		[
			'no id at all: never suppressed',
			json({ event: 'message.created' }),
			json({ event: 'message.created' }),
			false,
		],
	])('%s', (_label, first, second, duplicate) => {
		const staticData: Record<string, unknown> = {};
		expect(handleDelivery(first, settings(), staticData, NOW).action).toBe('run');
		expect(handleDelivery(second, settings(), reload(staticData), NOW + 1000).action).toBe(
			duplicate ? 'respond' : 'run',
		);
	});

	test('ignored deliveries are not remembered', () => {
		const staticData: Record<string, unknown> = {};
		handleDelivery(
			json({ event: 'user.created' }, { 'webhook-id': 'x1' }),
			settings({ events: ['tagApplied'] }),
			staticData,
			NOW,
		);
		expect(staticData).toEqual({});
	});

	test('deduplication can be turned off', () => {
		const staticData: Record<string, unknown> = {};
		const request = json({ event: 'message.created' }, { 'webhook-id': 'm1' });
		handleDelivery(request, settings({ dedupeWindowMinutes: 0 }), staticData, NOW);
		expect(
			handleDelivery(request, settings({ dedupeWindowMinutes: 0 }), staticData, NOW).action,
		).toBe('run');
	});

	test('in a batch, a header id is told apart by position', () => {
		const staticData: Record<string, unknown> = {};
		const request = json([{ event: 'user.created' }, { event: 'user.created' }], {
			'webhook-id': 'batch_1',
		});
		expect(
			runItems(handleDelivery(request, settings(), staticData, NOW)).map((item) => item.deliveryId),
		).toEqual(['batch_1#0', 'batch_1#1']);
		expect(handleDelivery(request, settings(), staticData, NOW).action).toBe('respond');
	});
});

describe('handleDelivery: robustness', () => {
	test('headers in any case, repeated headers and odd values', () => {
		const request: DeliveryRequest = {
			rawBody: Buffer.from('{"event":"lead"}'),
			headers: {
				'Content-Type': 'application/json',
				'X-Event': ['user.created', 'lead'],
				'x-odd': 5 as unknown as string,
			},
		};
		expect(runItems(handleDelivery(request, settings(), {}, NOW))[0].event).toBe('userCreated');
	});

	test('no raw body: falls back to what n8n parsed', () => {
		const request: DeliveryRequest = {
			rawBody: undefined,
			body: { event: 'lead.captured', email: 'a@b.c' },
			headers: {},
		};
		expect(runItems(handleDelivery(request, settings(), {}, NOW))[0].event).toBe('leadCaptured');
	});

	test('a raw body given as a string', () => {
		const request: DeliveryRequest = {
			rawBody: '{"event":"lead"}',
			headers: { 'content-type': 'application/json' },
		};
		expect(handleDelivery(request, settings(), {}, NOW).action).toBe('run');
	});

	test('missing headers object and query', () => {
		const request = { rawBody: Buffer.from('{"event":"lead"}') } as unknown as DeliveryRequest;
		expect(handleDelivery(request, settings(), {}, NOW).action).toBe('run');
	});

	test('an unexpected failure is answered 500, never thrown', () => {
		const staticData = new Proxy<Record<string, unknown>>(
			{},
			{
				set() {
					throw new Error('boom');
				},
			},
		);
		const decision = handleDelivery(
			json({ event: 'lead' }, { 'webhook-id': 'x' }),
			settings(),
			staticData,
			NOW,
		);
		expect(decision).toEqual({
			action: 'respond',
			status: 500,
			body: { received: false, error: 'Delivery could not be processed' },
		});
	});
});

describe('eventKey: the same key the poll trigger gives the same event', () => {
	it.each([
		[
			'a message, by its id',
			{ event: 'message.created', data: { id: 9, conversation_id: 5 } },
			'messageCreated:9',
		],
		[
			'a new user, by the user',
			{ event: 'user.created', data: { user: { id: 'u_7' } } },
			'userCreated:u_7',
		],
		[
			'a new conversation',
			{ event: 'conversation.created', data: { conversation: { id: 'c_1' } } },
			'conversationCreated:c_1',
		],
		[
			'a closing, with its time when the record has one',
			{
				event: 'conversation.closed',
				data: { conversation: { id: 'c_1', closed_at: '2026-03-01T10:01:00Z' } },
			},
			'conversationClosed:c_1@2026-03-01T10:01:00Z',
		],
		[
			"a closing without one (Support Board's archive)",
			{ function: 'conversation-status-updated', data: { conversation_id: '9', status_code: '3' } },
			'conversationClosed:9',
		],
		[
			'a tag, with the tag: two tags on one user are two events',
			{ event: 'tag.applied', data: { user_id: 'u_7', tag: 'vip' } },
			'tagApplied:u_7@vip',
		],
	])('%s', (_name, body, key) => {
		const items = runItems(handleDelivery(json(body), settings({ events: ['*'] }), {}, NOW));
		expect(items.map((item) => item.eventKey)).toEqual([key]);
	});

	it('is never made of when the delivery came: two identical deliveries have one key', () => {
		const body = { event: 'message.created', data: { id: 9, conversation_id: 5 } };
		const first = runItems(handleDelivery(json(body), settings(), {}, NOW));
		const later = runItems(handleDelivery(json(body), settings(), {}, NOW + 3_600_000));
		expect(later[0].eventKey).toBe(first[0].eventKey);
	});
});

describe('any body, headers, query and settings (properties)', () => {
	const SECRET = 'property-test-secret-7f3a9c';

	const headerName = fc.oneof(
		fc.constantFrom(
			'content-type',
			'Content-Type',
			'x-event',
			'X-Webhook-Event',
			'x-acme-event',
			'webhook-id',
			'webhook-timestamp',
			'webhook-signature',
			'svix-signature',
			'x-signature',
			'x-webhook-token',
			'authorization',
			'x-event-id',
			'idempotency-key',
			'__proto__',
			'constructor',
		),
		fc.string({ minLength: 1, maxLength: 20 }),
	);

	const headerText = fc.oneof(
		fc.constantFrom(
			'application/json',
			'application/json; charset=latin1',
			'application/x-www-form-urlencoded',
			'text/plain',
			'multipart/form-data; boundary=x',
			'application/xml',
			'message.created',
			'conversation-status-updated',
			'v1,AAAA v1,',
			'v1a,xyz',
			'1750000000',
			'-1',
			'99999999999999999999',
			`Bearer ${SECRET}`,
		),
		fc.string({ maxLength: 60 }),
	);

	const headerValue = fc.oneof(
		headerText,
		fc.array(headerText, { maxLength: 3 }),
		fc.constant(undefined),
	);

	const bodyText = fc.oneof(
		fc.json(),
		fc.jsonValue().map((value) => JSON.stringify({ event: 'message.created', data: value })),
		fc
			.record({
				function: fc.constantFrom(
					'message-sent',
					'new-conversation-created',
					'conversation-status-updated',
					'x',
				),
				key: fc.constantFrom(SECRET, 'wrong', ''),
				data: fc.oneof(fc.json(), fc.string()),
			})
			.map((fields) => new URLSearchParams(fields).toString()),
		fc.string({ maxLength: 200 }),
		fc.constantFrom(
			'data[a][b]=1&data[a]=2&a[]=x&__proto__[y]=1',
			'{"event":',
			'[]',
			'[1,{}]',
			'null',
			'%',
			'=&=&',
			'\uFEFF',
		),
	);

	const rawBody = fc.oneof(
		bodyText.map((text) => Buffer.from(text, 'utf8')),
		fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
		bodyText,
		fc.constantFrom(undefined, null),
	);

	const request: fc.Arbitrary<DeliveryRequest> = fc.record({
		rawBody,
		body: fc.oneof(
			fc.constant(undefined),
			fc.jsonValue(),
			fc.dictionary(fc.string(), fc.jsonValue()),
		),
		headers: fc.dictionary(headerName, headerValue, { maxKeys: 8 }),
		query: fc.oneof(
			fc.constant(undefined),
			fc.dictionary(
				fc.constantFrom('token', 'key', 'x'),
				fc.oneof(fc.string(), fc.array(fc.string()), fc.constant(SECRET)),
			),
		),
	});

	const triggerSettings: fc.Arbitrary<TriggerSettings> = fc.record({
		events: fc.subarray([
			'*',
			'conversationCreated',
			'messageCreated',
			'conversationClosed',
			'userCreated',
			'tagApplied',
			'leadCaptured',
			'bogus',
		]),
		verification: fc.constantFrom(...VERIFICATION_SCHEMES),
		secret: fc.constantFrom(SECRET, '', `whsec_${Buffer.from(SECRET).toString('base64')}`),
		// Every setting is present, as TriggerSettings requires. Odd values (an empty name, a tolerance that is
		// not a number) stay in, though readSettings turns them into defaults: handleDelivery must not fail on
		// them when called some other way.
		timestampTolerance: fc.oneof(
			fc.constant(TRIGGER_DEFAULTS.timestampTolerance),
			fc.integer({ min: -5, max: 1000 }),
			fc.constant(Number.NaN),
		),
		tokenLocation: fc.constantFrom('query' as const, 'header' as const),
		queryParameterName: fc.constantFrom('token', ''),
		headerName: fc.constantFrom('X-Webhook-Token', 'Authorization', ''),
		hmacHeader: fc.constantFrom('X-Signature', ''),
		hmacAlgorithm: fc.constantFrom('sha1', 'sha256', 'sha512', 'nope'),
		hmacEncoding: fc.constantFrom('hex' as const, 'base64' as const),
		hmacPrefix: fc.constantFrom('', 'sha256='),
		keyField: fc.constantFrom('key', 'auth.key', '', '__proto__'),
		unknownEvents: fc.constantFrom('ignore' as const, 'passOn' as const),
		dedupeWindowMinutes: fc.oneof(fc.integer({ min: -1, max: 10_000 }), fc.constant(Number.NaN)),
		ignoreOwnMessages: fc.boolean(),
		ignoredSenderIds: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
		includeHeaders: fc.boolean(),
	});

	const staticData = fc.oneof(
		fc.constant({}),
		fc.dictionary(fc.string(), fc.jsonValue()),
		fc.constant({ supportChatDeliveries: { v: 1, seen: [['x', 1], 'junk'] } }),
		fc.constant({ supportChatDeliveries: 'junk' }),
	);

	const now = fc.oneof(
		fc.constant(1_750_000_000_000),
		fc.integer({ min: 0, max: 4_000_000_000_000 }),
	);

	describe('handleDelivery: any body, headers, query and settings', () => {
		test('always answers with a decision, never throws, never leaks the secret', () => {
			fc.assert(
				fc.property(request, triggerSettings, staticData, now, (req, config, store, time) => {
					const decision = handleDelivery(req, config, store as Record<string, unknown>, time);
					expect(['respond', 'run']).toContain(decision.action);
					expect([200, 400, 401]).toContain(decision.status);
					if (decision.action === 'run') {
						expect(decision.items.length).toBeGreaterThan(0);
						for (const item of decision.items) expect(typeof item.json.event).toBe('string');
					} else {
						expect(typeof decision.body.received).toBe('boolean');
					}
					// The static data stays what n8n can save: JSON.
					expect(() => JSON.stringify(store)).not.toThrow();
					if (config.verification !== 'none') {
						expect(JSON.stringify(decision)).not.toContain(SECRET);
					}
				}),
				{ numRuns: 3000 },
			);
		});

		test('with verification on and no valid proof, nothing ever runs', () => {
			fc.assert(
				fc.property(request, triggerSettings, (req, config) => {
					const verification = config.verification === 'none' ? 'hmac' : config.verification;
					// Random bytes never carry a valid HMAC or Standard Webhooks signature for this secret, nor the token.
					const query = {
						...(typeof req.query === 'object' && req.query ? req.query : {}),
						token: 'not-it',
					};
					const headers = Object.fromEntries(
						Object.entries(req.headers).filter(
							([, value]) => !JSON.stringify(value ?? '').includes(SECRET),
						),
					);
					const body =
						Buffer.isBuffer(req.rawBody) && req.rawBody.includes(SECRET)
							? Buffer.from('{}')
							: req.rawBody;
					const safe = typeof body === 'string' && body.includes(SECRET) ? '{}' : body;
					const decision = handleDelivery(
						{ rawBody: safe, body: undefined, headers, query },
						{
							...config,
							verification,
							secret: SECRET,
							tokenLocation: 'query',
							queryParameterName: 'token',
						},
						{},
						1_750_000_000_000,
					);
					expect(decision.action).toBe('respond');
					expect(decision.status).not.toBe(500);
				}),
				{ numRuns: 2000 },
			);
		});
	});
});

describe('hostile bodies and headers (properties, issue 8)', () => {
	/**
	 * Property tests over hostile bodies and headers (issue 8): whatever arrives, handleDelivery answers
	 * 200, 400 or 401, never throws, never 500s, and the webhook secret appears in no answer and no item
	 * in any encoding.
	 */
	const SECRET = 'prop secret+/=ü-9f2c';
	const PROTO = Object.getOwnPropertyNames(Object.prototype);
	const ENCODED = [
		SECRET,
		encodeURIComponent(SECRET),
		encodeURIComponent(SECRET).replace(/%20/g, '+'),
		Buffer.from(SECRET).toString('base64'),
		Buffer.from(SECRET).toString('base64url'),
		Buffer.from(`Bearer ${SECRET}`).toString('base64'),
		Buffer.from(`x${SECRET}`).toString('base64'),
		Buffer.from(`xy${SECRET}`).toString('base64'),
	];
	/** Traces that must never remain: the secret, URL-encoded, and base64 groups made of its bytes only. */
	const bytes = Buffer.from(SECRET);
	const TRACES = [
		SECRET,
		encodeURIComponent(SECRET),
		...[0, 1, 2].map((offset) => {
			const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
			return encoded.slice(offset === 0 ? 0 : 4, Math.floor((offset + bytes.length) / 3) * 4);
		}),
	];

	const word = fc.oneof(
		fc.constantFrom(
			...PROTO,
			'message.created',
			'message-sent',
			'conversation.updated',
			'agent',
			'visitor',
			'closed',
			'user_id',
			'conversation_user_id',
			'data',
			'event',
			'type',
			'status',
			'sender',
			'role',
		),
		fc.constantFrom(...ENCODED),
		fc.string({ maxLength: 12 }),
		fc
			.nat({ max: 1000 })
			.chain((length) =>
				fc.constantFrom('A', 'aB', '1A', '.', 'x ').map((unit) => unit.repeat(length)),
			),
	);

	const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
		value: fc.oneof(
			{ depthSize: 'small', withCrossShrink: true },
			word,
			fc.integer(),
			fc.boolean(),
			fc.constant(null),
			fc.array(tie('value'), { maxLength: 3 }),
			fc.dictionary(word, tie('value'), { maxKeys: 4 }),
		),
	})).value;

	const body = fc.dictionary(word, value, { maxKeys: 6 });

	const rawBody = fc.oneof(
		body.map((entry) => JSON.stringify(entry)),
		fc.array(body, { maxLength: 3 }).map((entries) => JSON.stringify(entries)),
		fc
			.array(fc.tuple(word, word), { maxLength: 6 })
			.map((pairs) =>
				pairs
					.map(([key, entry]) => `${encodeURIComponent(key)}=${encodeURIComponent(entry)}`)
					.join('&'),
			),
		fc
			.array(fc.tuple(word, word, word), { maxLength: 4 })
			.map((pairs) => pairs.map(([a, b, entry]) => `${a}[${b}]=${entry}`).join('&')),
	);

	const headers = fc.dictionary(
		fc.oneof(
			fc.constantFrom(
				...PROTO,
				'x-event',
				'x-acme-event',
				'webhook-id',
				'x-event-id',
				'authorization',
				'x-webhook-token',
				'x-signature',
			),
			word,
		),
		fc.oneof(word, fc.array(word, { maxLength: 2 })),
		{ maxKeys: 6 },
	);

	const request: fc.Arbitrary<DeliveryRequest> = fc.record({
		rawBody,
		headers: fc
			.tuple(
				fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', ''),
				headers,
			)
			.map(([type, rest]) => ({ ...rest, 'content-type': type })),
		query: fc.dictionary(fc.oneof(word, fc.constant('token')), word, { maxKeys: 3 }),
	});

	const chosen = fc.record({
		events: fc.constantFrom<string[]>(
			['*'],
			['messageCreated'],
			['conversationClosed', 'leadCaptured'],
		),
		verification: fc.constantFrom(...VERIFICATION_SCHEMES),
		secret: fc.constant<string>(SECRET),
		tokenLocation: fc.constantFrom('query' as const, 'header' as const),
		keyField: fc.oneof(fc.constantFrom('key', 'auth.key'), word),
		queryParameterName: fc.oneof(fc.constant('token'), word),
		unknownEvents: fc.constantFrom('ignore' as const, 'passOn' as const),
		dedupeWindowMinutes: fc.constantFrom(0, 1440),
		ignoreOwnMessages: fc.boolean(),
		ignoredSenderIds: fc.array(word, { maxLength: 2 }),
		includeHeaders: fc.boolean(),
	});
	/** The settings not chosen above at their defaults, as readSettings gives them. */
	const config: fc.Arbitrary<TriggerSettings> = chosen.map((settings) => triggerSettings(settings));

	function strings(entry: unknown, found: string[] = []): string[] {
		if (typeof entry === 'string') found.push(entry);
		else if (Array.isArray(entry)) for (const item of entry) strings(item, found);
		else if (typeof entry === 'object' && entry !== null) {
			for (const key of Object.keys(entry)) {
				found.push(key);
				strings((entry as Record<string, unknown>)[key], found);
			}
		}
		return found;
	}

	describe('handleDelivery under hostile bodies and headers', () => {
		test('never throws, never 500, never the secret in any encoding', () => {
			fc.assert(
				fc.property(request, config, (req, settings) => {
					const memory = new DeliveryMemory();
					const decision = handleDelivery(req, settings, {}, 1_750_000_000_000, {
						memory: () => memory,
					});
					expect([200, 400, 401]).toContain(decision.status);
					for (const text of strings(decision)) {
						for (const trace of TRACES) expect(text.includes(trace) ? text : '').toBe('');
					}
					// The same delivery again, in the same process: never a second run.
					const again = handleDelivery(req, settings, {}, 1_750_000_000_000, {
						memory: () => memory,
					});
					if (
						decision.action === 'run' &&
						settings.dedupeWindowMinutes > 0 &&
						decision.items.every((item) => item.json.deliveryId !== null)
					) {
						expect(again.action).toBe('respond');
					}
				}),
				{ numRuns: 1500 },
			);
		});
	});
});

describe('hostile deliveries (issue 8)', () => {
	/**
	 * Deliveries written by an attacker or a broken sender (issue 8): huge names, words that are also
	 * names on Object.prototype, services that mark an agent's message only by role or by ids, echoed
	 * secrets in every encoding. Each table below is a class of input, not one example.
	 */
	const T0 = 1_750_000_000_000;

	const settings = (overrides: Partial<TriggerSettings> = {}): TriggerSettings =>
		triggerSettings({ events: ['*'], includeHeaders: true, ...overrides });

	const json = (body: unknown, headers: Record<string, string> = {}): DeliveryRequest => ({
		rawBody: JSON.stringify(body),
		headers: { 'content-type': 'application/json', ...headers },
	});

	const deliver = (request: DeliveryRequest, overrides: Partial<TriggerSettings> = {}) =>
		handleDelivery(request, settings(overrides), {}, T0);

	// ------------------------------------------------------------------ class 3: length before work

	describe('class 3: untrusted text is cut before anything that is not linear', () => {
		const long = (unit: string) => unit.repeat(Math.ceil(100_000 / unit.length)).slice(0, 100_000);
		const hostileNames = [
			['capitals', long('A')],
			['capitals then a small letter', `${long('A')}a`],
			['camel humps', long('aB')],
			['digits and capitals', long('1A')],
			['separators', long('.-_ ')],
			['a known name, then padding', `message.created${long('x')}`],
			['many words', long('message created ')],
		];

		test.each(hostileNames)(
			'a 100,000-character event name (%s) is not read: unknown, reported cut',
			(_label, name) => {
				expect(normaliseEventName(name)).toEqual([]);
				const detected = eventOf({ event: name }, {});
				expect(detected.event).toBe('unknown');
				const passedOn = deliver(json({ event: name }), { unknownEvents: 'passOn' });
				expect(passedOn.action === 'run' && passedOn.items[0].json.eventName).toBe(
					`${name.trim().slice(0, MAX_NAME_LENGTH)}…`,
				);
			},
		);

		test.each(hostileNames)(
			'the same name (%s) in a header, as a status and as a sender type: answered 200',
			(_label, name) => {
				const inHeader = deliver(json({ data: {} }, { 'x-event': name }), {
					unknownEvents: 'passOn',
				});
				expect(inHeader.status).toBe(200);
				expect(inHeader.action === 'run' && String(inHeader.items[0].json.eventName).length).toBe(
					MAX_NAME_LENGTH + 1,
				);

				expect(hasClosedStatus({ data: { status: name } })).toBe(false);
				const status = deliver(json({ event: 'conversation.updated', data: { status: name } }));
				expect(status).toMatchObject({
					status: 200,
					body: { ignored: expect.stringMatching(/^unrecognised event/) },
				});

				const sender = deliver(
					json({ event: 'message.created', data: { sender_type: name, role: name } }),
				);
				expect(sender.action).toBe('run');
			},
		);

		test('the answer quotes at most 80 characters of an unrecognised name', () => {
			const answer = deliver(json({ event: long('Z') }));
			expect(answer).toMatchObject({
				status: 200,
				body: { ignored: `unrecognised event "${'Z'.repeat(80)}…"` },
			});
		});

		test.each([
			['the item', MAX_NAME_LENGTH, { unknownEvents: 'passOn' as const }],
			['the answer', 80, {}],
		])(
			'a secret where %s cuts the name is masked first, so no part of it shows',
			(_label, at, overrides) => {
				const secret = 'abcdefghij1234';
				const name = `${'x'.repeat(at - 5)}${secret}`;
				const result = deliver(json({ event: name }), {
					verification: 'none',
					secret,
					...overrides,
				});
				const shown = JSON.stringify(result);
				expect(shown).not.toContain('abcde');
				expect(shown).toContain(`${'x'.repeat(at - 5)}[reda…`);
			},
		);
	});

	// -------------------------------------------------------- class 12: words that Object.prototype has

	describe('class 12: every Object.prototype name is only a word', () => {
		const names = Object.getOwnPropertyNames(Object.prototype);
		const variants = names.flatMap((name) => [name, name.toLowerCase(), name.toUpperCase()]);

		test('there are names to try', () => {
			expect(names).toEqual(
				expect.arrayContaining([
					'constructor',
					'toString',
					'__proto__',
					'hasOwnProperty',
					'valueOf',
				]),
			);
		});

		test.each(variants)('%s through every table', (word) => {
			expect(normaliseEventName(word)).toEqual(expect.any(Array));
			expect(normaliseEventName(word).every((entry) => typeof entry === 'string')).toBe(true);
			expect(eventOf({ event: word }, {}).event).toBe('unknown');
			expect(eventOf({ data: {} }, { 'x-event': word }).event).toBe('unknown');
			expect(hasClosedStatus({ status: word })).toBe(false);
			expect(extractIds({ type: word, id: 5 })).toEqual({
				conversationId: null,
				userId: null,
				messageId: null,
			});
			expect(extractIds({ object: word, id: 5 }, 'user')).toEqual({
				conversationId: null,
				userId: 5,
				messageId: null,
			});
			expect(
				isOwnMessage(
					{ data: { sender_type: word, type: word, sender: word, role: word } },
					{ ignoreOwnTypes: true, ignoredSenderIds: [] },
				).own,
			).toBe(false);
			expect(deliveryIdOf({}, { [word]: 'x' })).toBeUndefined();
		});

		test.each(variants)(
			'%s through handleDelivery as event name, status, field name, header name and sender type: never 500',
			(word) => {
				const requests: Array<[string, DeliveryRequest]> = [
					['event name', json({ event: word })],
					['event name in a header', json({ data: {} }, { 'x-event': word })],
					['event name in a vendor header', json({ data: {} }, { [`x-${word}-event`]: word })],
					['status', json({ event: 'conversation.updated', data: { status: word, state: word } })],
					['action', json({ event: 'conversation', action: word })],
					[
						'kind of record',
						json({ event: 'message.created', data: { object: word, type: word, id: 1 } }),
					],
					[
						'field name',
						json({ event: 'message.created', [word]: word, data: { [word]: { [word]: 1 } } }),
					],
					[
						'form field name',
						{
							rawBody: `function=message-sent&${word}=1&${word}[a]=2&a[${word}]=3&${word}[]=4`,
							headers: { 'content-type': 'application/x-www-form-urlencoded' },
						},
					],
					[
						'header name',
						json({ event: 'message.created' }, { [word]: word, [word.toLowerCase()]: 'x' }),
					],
					[
						'sender type',
						json({
							event: 'message.created',
							data: {
								sender_type: word,
								sender: word,
								from: word,
								role: word,
								author: { type: word },
							},
						}),
					],
					[
						'delivery id',
						json({ event: 'message.created', event_id: word }, { 'webhook-id': word }),
					],
				];
				for (const verification of ['none', 'bodyField', 'token'] as const) {
					for (const [, request] of requests) {
						const decision = deliver(
							{ ...request, query: { [word]: word, token: word } },
							{
								verification,
								secret: 'a-long-enough-secret',
								keyField: word,
								queryParameterName: word,
								unknownEvents: 'passOn',
							},
						);
						expect([200, 400, 401]).toContain(decision.status);
					}
				}
			},
		);

		test('a header named __proto__ with a list value is kept as a header, not a prototype', () => {
			const decision = handleDelivery(
				{
					rawBody: '{"event":"lead"}',
					headers: JSON.parse(
						'{"content-type":"application/json","__proto__":["a","b"]}',
					) as Record<string, string[]>,
				},
				settings(),
				{},
				T0,
			);
			expect(decision.action).toBe('run');
			const headers = decision.action === 'run' ? (decision.items[0].json.headers as object) : {};
			expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
			expect(Object.getOwnPropertyDescriptor(headers, '__proto__')?.value).toEqual(['a', 'b']);
		});
	});

	// --------------------------------------------------------------- class 11: own messages, unmarked

	describe('class 11: own messages marked only by role or by ids', () => {
		const ON = { ignoreOwnTypes: true, ignoredSenderIds: [] as string[] };

		test.each<[string, Record<string, unknown>, string]>([
			[
				"PHP message-sent: user_id is not the conversation's visitor",
				{
					function: 'message-sent',
					data: { user_id: '7', conversation_user_id: '3', message: 'Hi' },
				},
				'user_id 7 is not conversation_user_id 3',
			],
			[
				'the same, numbers, flat',
				{ function: 'message-sent', user_id: 12, conversation_user_id: 4 },
				'user_id 12 is not conversation_user_id 4',
			],
			[
				'camelCase ids',
				{ event: 'message.created', data: { userId: 'u_9', conversationUserId: 'u_1' } },
				'userId u_9 is not conversationUserId u_1',
			],
			[
				'sender_id next to conversation_user_id',
				{ event: 'message.created', data: { sender_id: 5, conversation_user_id: 6 } },
				'sender_id 5 is not conversation_user_id 6',
			],
			[
				'sender: "agent"',
				{ event: 'message.created', data: { sender: 'agent', text: 'Hi' } },
				'sender type agent',
			],
			[
				'from: "operator"',
				{ event: 'message.created', data: { from: 'operator' } },
				'sender type operator',
			],
			[
				'role: "assistant"',
				{ event: 'message.created', data: { role: 'assistant' } },
				'sender type assistant',
			],
			[
				'role in a nested message',
				{ event: 'message.created', data: { message: { role: 'Agent' } } },
				'sender type agent',
			],
			['author: "bot"', { event: 'message.created', data: { author: 'bot' } }, 'sender type bot'],
		])('%s: own', (_label, body, reason) => {
			expect(isOwnMessage(body, ON)).toEqual({ own: true, reason });
			const decision = deliver(json(body), { events: ['messageCreated'] });
			expect(decision).toMatchObject({
				status: 200,
				action: 'respond',
				body: { ignored: `own message (${reason})` },
			});
		});

		test.each<[string, Record<string, unknown>]>([
			[
				'PHP message-sent by the visitor: ids equal',
				{
					function: 'message-sent',
					data: { user_id: '3', conversation_user_id: '3', message: 'Hi' },
				},
			],
			[
				'ids equal as number and text',
				{ function: 'message-sent', data: { user_id: 3, conversation_user_id: '3' } },
			],
			['only the sender id', { function: 'message-sent', data: { user_id: '3' } }],
			[
				'an empty owner',
				{ function: 'message-sent', data: { user_id: '3', conversation_user_id: '' } },
			],
			['sender: "visitor"', { event: 'message.created', data: { sender: 'visitor' } }],
			['role: "user"', { event: 'message.created', data: { role: 'user' } }],
			['from: "customer"', { event: 'message.created', data: { from: 'customer' } }],
			[
				'a visitor type wins over differing ids',
				{
					event: 'message.created',
					data: { type: 'visitor', user_id: 8, conversation_user_id: 3 },
				},
			],
			[
				'a sender object without a type',
				{ event: 'message.created', data: { sender: { id: 3, name: 'Ada' } } },
			],
			[
				'a sender name that is no type',
				{ event: 'message.created', data: { sender: 'Ada Lovelace' } },
			],
		])("%s: the visitor's, starts the workflow", (_label, body) => {
			expect(isOwnMessage(body, ON).own).toBe(false);
			expect(deliver(json(body), { events: ['messageCreated'] }).action).toBe('run');
		});

		test('with Ignore Own Messages off, all of them run', () => {
			const body = {
				function: 'message-sent',
				data: { user_id: '7', conversation_user_id: '3', sender: 'agent' },
			};
			expect(
				deliver(json(body), { events: ['messageCreated'], ignoreOwnMessages: false }).action,
			).toBe('run');
		});
	});

	// --------------------------------------------------------- class 8: the secret in any encoding

	describe('class 8: the webhook secret is masked in every encoding, in items and answers', () => {
		const SECRET = 'hook secret+/=&ü 2024';
		const base64 = Buffer.from(SECRET).toString('base64');
		const forms: Array<[string, string]> = [
			['raw', SECRET],
			['URL-encoded', encodeURIComponent(SECRET)],
			['form-encoded', encodeURIComponent(SECRET).replace(/%20/g, '+')],
			['base64', base64],
			['base64url', Buffer.from(SECRET).toString('base64url')],
			['base64 of "Bearer <secret>"', Buffer.from(`Bearer ${SECRET}`).toString('base64')],
		];
		/** What must not remain: the secret, its encodings, and the base64 groups made of its bytes alone. */
		const traces = [
			SECRET,
			encodeURIComponent(SECRET),
			base64.slice(0, Math.floor(Buffer.byteLength(SECRET) / 3) * 4),
		];
		const strings = (value: unknown): string[] => {
			if (typeof value === 'string') return [value];
			if (Array.isArray(value)) return value.flatMap(strings);
			if (typeof value === 'object' && value !== null)
				return Object.entries(value).flatMap(([key, entry]) => [key, ...strings(entry)]);
			return [];
		};

		test.each(forms)(
			'%s copy in a field, a key, a header, an event name and a delivery id',
			(_label, copy) => {
				for (const unknownEvents of ['ignore', 'passOn'] as const) {
					const requests = [
						json(
							{ event: 'message.created', data: { note: `echo ${copy} echo`, [copy]: 1 } },
							{ 'x-echo': `x ${copy}`, 'webhook-id': copy },
						),
						json({ event: `x${copy}`.repeat(3) }),
						json({ data: {} }, { 'x-event': `${'y'.repeat(70)}${copy}` }),
					];
					for (const request of requests) {
						const decision = deliver(request, {
							secret: SECRET,
							unknownEvents,
							verification: 'none',
						});
						const seen = strings(decision);
						for (const trace of traces)
							expect(seen.filter((text) => text.includes(trace))).toEqual([]);
					}
				}
			},
		);

		test('a Standard Webhooks secret: its base64 key alone is masked too', () => {
			const secret = `whsec_${Buffer.from('a key of thirty-two bytes, really').toString('base64')}`;
			const key = secret.slice('whsec_'.length);
			const decision = deliver(json({ event: 'lead', data: { echoed: key } }), {
				secret,
				verification: 'none',
			});
			expect(JSON.stringify(decision)).not.toContain(key);
		});
	});

	describe('class 3: a batch costs in proportion to its size, not to entries × headers', () => {
		/** A header map that counts how often it is listed whole and how often a name is looked up. */
		function counted(size: number) {
			const reads = { lists: 0, lookups: 0 };
			const target: Record<string, string> = { 'content-type': 'application/json' };
			for (let index = 0; index < size; index++) target[`h${index}`] = 'v';
			const headers = new Proxy(target, {
				ownKeys: (object) => {
					reads.lists++;
					return Reflect.ownKeys(object);
				},
				getOwnPropertyDescriptor: (object, key) => {
					reads.lookups++;
					return Reflect.getOwnPropertyDescriptor(object, key);
				},
			});
			return { headers, reads };
		}

		test('a batch lists its headers once, and reads a fixed number of names per entry, however many headers there are', () => {
			for (const size of [10, 1000]) {
				const { headers, reads } = counted(size);
				eventOf({}, headers);
				deliveryIdOf({}, headers);
				expect(reads.lists).toBe(1);
				const afterFirst = reads.lookups;
				for (let entry = 0; entry < 100; entry++) {
					eventOf({}, headers);
					deliveryIdOf({}, headers);
				}
				expect(reads.lists).toBe(1);
				expect((reads.lookups - afterFirst) / 100).toBeLessThan(40);
			}
		});

		test('the answer to a batch of distinct unrecognised names quotes at most 20 of them', () => {
			const body = Array.from({ length: 500 }, (_, index) => ({ event: `zz${index}` }));
			const answer = deliver(json(body));
			expect(answer.status).toBe(200);
			const reasons = String((answer as { body: { ignored: string } }).body.ignored).split('; ');
			expect(reasons).toHaveLength(20);
			expect(new Set(reasons).size).toBe(20);
		});
	});
});

describe('Support Board 3.8.7', () => {
	/**
	 * Every kind of delivery Support Board 3.8.7 sends, in its exact shapes (as a real copy of the product
	 * posted them: `{function, key, data, sender-url}`, the widget's kinds serialised by jQuery and PHP, so
	 * their scalars are strings and `false` is "false"). Names, e-mails, passwords and tokens are made up.
	 */
	const KEY = 'sb-secret-Kx81-fake';
	const PASSWORD = 'Visitor-Pass-9271';
	const HASH = '$2y$10$abcdefghijklmnopqrstuv0123456789ABCDEFGHIJKLMNOPQRSTU';
	const TOKEN = '3f1c0de2a9b84c7d6e5f40312a1b0c9d8e7f6a5b';
	const NOW = 1_780_000_000_000;

	const settings = (overrides: Partial<TriggerSettings> = {}): TriggerSettings =>
		triggerSettings({
			events: ['*'],
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
		details: {
			id,
			user_id: '1',
			message: 'Let me check.',
			status_code: '0',
			first_name: 'Ada',
			user_type: type,
			full_name: 'Ada Agent',
		},
	});
	const visitorMessage = {
		details: {
			id: '17',
			user_id: '6',
			message: 'Where is my order?',
			status_code: '0',
			first_name: 'Ana',
			user_type: 'user',
		},
	};

	/** [kind, data, expected event or `ignored: <reason>`, ids] for every kind the product sends. */
	const KINDS: Array<
		[string, unknown, string, { conversationId?: unknown; userId?: unknown; messageId?: unknown }]
	> = [
		[
			'new-conversation-created',
			{ messages: [], details: conversationRecord },
			'conversationCreated',
			{ conversationId: '4', userId: '6', messageId: null },
		],
		[
			'new-conversation',
			{ details: { ...conversationRecord, tags: '', busy: 'false' }, messages: [visitorMessage] },
			'conversationCreated',
			{ conversationId: '4', userId: '6' },
		],
		[
			'message-sent',
			{
				user_id: 6,
				message_id: 17,
				message: 'Hi',
				attachments: [],
				conversation_user_id: '6',
				conversation_id: '4',
				conversation_status_code: 2,
				conversation_source: '',
			},
			'messageCreated',
			{ conversationId: '4', userId: 6, messageId: 17 },
		],
		[
			'message-sent',
			{
				user_id: '1',
				message_id: 18,
				message: 'Hello',
				attachments: [],
				conversation_user_id: '6',
				conversation_id: '4',
				conversation_status_code: 1,
				conversation_source: '',
			},
			'ignored: own message',
			{},
		],
		[
			'new-messages',
			{ messages: [agentMessage('18', 'admin')], conversation_id: '4' },
			'ignored: own message',
			{},
		],
		[
			'new-messages',
			{ messages: [agentMessage('18', 'agent'), agentMessage('19', 'bot')], conversation_id: '4' },
			'ignored: own message',
			{},
		],
		[
			'new-messages',
			{ messages: [agentMessage('18', 'agent'), visitorMessage], conversation_id: '4' },
			'messageCreated',
			{ conversationId: '4', userId: '6', messageId: '17' },
		],
		[
			'conversation-status-updated',
			{ conversation_id: '4', status_code: 3 },
			'conversationClosed',
			{ conversationId: '4' },
		],
		[
			'conversation-status-updated',
			{ conversation_id: '4', status_code: 1 },
			'ignored: unrecognised',
			{},
		],
		[
			'registration',
			{
				id: 'registration',
				conversation_id: 'false',
				user: {
					first_name: 'Ana',
					last_name: 'Diaz',
					email: 'ana@example.test',
					password: PASSWORD,
					'password-check': PASSWORD,
					id: '6',
				},
			},
			'userCreated',
			{ userId: '6', conversationId: null },
		],
		[
			'new-email-address',
			{ id: 'sb-follow-up', name: 'Ana Diaz', email: 'ana@example.test' },
			'leadCaptured',
			{ userId: null, conversationId: null, messageId: null },
		],
		[
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
			'ignored: unrecognised',
			{},
		],
		['user-deleted', '7', 'ignored: unrecognised', {}],
		['message-deleted', '17', 'ignored: unrecognised', {}],
		[
			'rich-message',
			{
				result: ['success', { message: 'ok' }],
				data: { type: 'buttons', result: { value: 'Shipping' } },
				id: 'sb-buttons-1',
			},
			'ignored: unrecognised',
			{},
		],
		[
			'slack-message-sent',
			{ message: 'Hi', conversation_id: '4', slack_channel: 'C012' },
			'ignored: unrecognised',
			{},
		],
		[
			'email-sent',
			{ recipient_id: '6', message: 'Hi', attachments: [] },
			'ignored: unrecognised',
			{},
		],
		[
			'sms-sent',
			{ recipient_id: '6', message: 'Hi', response: { status: 'sent' } },
			'ignored: unrecognised',
			{},
		],
	];

	const items = (decision: Decision) => {
		if (decision.action !== 'run')
			throw new Error(`expected a run, got ${JSON.stringify(decision.body)}`);
		return decision.items.map((item) => item.json as Record<string, unknown>);
	};

	describe('Support Board deliveries', () => {
		test.each(KINDS)(
			'%s (%#): the event, the ids, verified by its key',
			(kind, data, expected, ids) => {
				const memory = new DeliveryMemory();
				const decision = handleDelivery(delivery(kind, data), settings(), {}, NOW, {
					memory: () => memory,
				});
				if (expected.startsWith('ignored: ')) {
					expect(decision.action).toBe('respond');
					expect(decision.status).toBe(200);
					expect(decision.body.ignored).toContain(expected.slice('ignored: '.length));
					return;
				}
				const [item] = items(decision);
				expect(item.event).toBe(expected);
				for (const [name, value] of Object.entries(ids))
					expect([name, item[name]]).toEqual([name, value]);
			},
		);

		test.each(KINDS)(
			'%s (%#): passed on, it carries neither the key nor a secret of the visitor',
			(kind, data) => {
				const decision = handleDelivery(
					delivery(kind, data),
					settings({ unknownEvents: 'passOn', ignoreOwnMessages: false }),
					{},
					NOW,
				);
				const [item] = items(decision);
				const text = JSON.stringify(decision);
				for (const secret of [KEY, PASSWORD, HASH, TOKEN]) expect(text).not.toContain(secret);
				expect((item.body as Record<string, unknown>).key).toBe('[redacted]');
			},
		);

		test('registration: the password and its repetition are masked by name, the rest kept', () => {
			const [item] = items(handleDelivery(delivery(KINDS[9][0], KINDS[9][1]), settings(), {}, NOW));
			expect(item.data).toMatchObject({
				conversation_id: 'false',
				user: {
					email: 'ana@example.test',
					password: '[redacted]',
					'password-check': '[redacted]',
					id: '6',
				},
			});
		});

		test('login: the password hash and the login token are masked by name', () => {
			const decision = handleDelivery(
				delivery(KINDS[11][0], KINDS[11][1]),
				settings({ unknownEvents: 'passOn' }),
				{},
				NOW,
			);
			const [item] = items(decision);
			expect(item.data).toMatchObject({
				details: {
					id: '6',
					token: '[redacted]',
					password: '[redacted]',
					email: 'ana@example.test',
				},
			});
			expect(item.userId).toBe('6');
			expect(item.conversationId).toBe('4');
		});

		test.each<[string, unknown, Record<string, unknown>]>([
			['login', KINDS[11][1], { userId: '6', conversationId: '4', messageId: null }],
			['user-deleted', '7', { userId: '7', conversationId: null, messageId: null }],
			['message-deleted', '17', { userId: null, conversationId: null, messageId: '17' }],
			['slack-message-sent', KINDS[15][1], { userId: null, conversationId: '4', messageId: null }],
		])('%s passed on: the ids its name and data give', (kind, data, ids) => {
			const [item] = items(
				handleDelivery(delivery(kind, data), settings({ unknownEvents: 'passOn' }), {}, NOW),
			);
			expect(item).toMatchObject({ event: 'unknown', eventName: kind, ...ids });
		});

		test('the same field names are masked in form-encoded and nested payloads too', () => {
			const raw = `function=registration&key=${KEY}&data[user][password]=${PASSWORD}&data[user][id]=6&data[user][login_token]=${TOKEN}`;
			const decision = handleDelivery(
				{
					rawBody: Buffer.from(raw),
					headers: { 'content-type': 'application/x-www-form-urlencoded' },
					query: {},
				},
				settings(),
				{},
				NOW,
			);
			const text = JSON.stringify(decision);
			for (const secret of [KEY, PASSWORD, TOKEN]) expect(text).not.toContain(secret);
			expect(items(decision)[0].userId).toBe('6');
		});

		test.each(['false', 'FALSE', 'null', 'true'])(
			'the text %j stands for no value (the widget sends "false" for no conversation): no id',
			(text) => {
				const body = {
					function: 'message-sent',
					data: { conversation_id: text, user_id: '6', message_id: 17 },
				};
				expect(extractIds(body, 'message')).toEqual({
					conversationId: null,
					userId: '6',
					messageId: 17,
				});
			},
		);

		test('two byte-identical archives of one conversation are two events: both start a run', () => {
			const store: Record<string, unknown> = {};
			const memory = new DeliveryMemory();
			const archive = delivery('conversation-status-updated', {
				conversation_id: '4',
				status_code: 3,
			});
			for (const at of [NOW, NOW + 1000]) {
				const decision = handleDelivery(archive, settings(), store, at, { memory: () => memory });
				expect(items(decision)).toEqual([
					expect.objectContaining({ event: 'conversationClosed', deliveryId: null }),
				]);
			}
		});

		test('a wrong key is refused 401 and starts nothing', () => {
			const request = delivery('message-sent', {
				user_id: '6',
				conversation_user_id: '6',
				conversation_id: '4',
			});
			const decision = handleDelivery(request, settings({ secret: 'another-secret' }), {}, NOW);
			expect(decision).toMatchObject({ action: 'respond', status: 401 });
		});
	});
});
