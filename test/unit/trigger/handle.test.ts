import { createHmac } from 'crypto';

import { DEDUPE_KEY } from '../../../nodes/SupportChat/trigger/dedupe';
import type { DeliveryRequest } from '../../../nodes/SupportChat/trigger/delivery';
import type { Decision } from '../../../nodes/SupportChat/trigger/handle';
import { handleDelivery } from '../../../nodes/SupportChat/trigger/handle';
import type { TriggerSettings } from '../../../nodes/SupportChat/trigger/settings';
import { triggerSettings } from './settings';

const NOW = 1_750_000_000_000;
const KEY = Buffer.from('0123456789abcdef0123456789abcdef');
const WHSEC = `whsec_${KEY.toString('base64')}`;

function settings(overrides: Partial<TriggerSettings> = {}): TriggerSettings {
	return triggerSettings({ events: ['*'], ...overrides });
}

function json(body: unknown, headers: Record<string, string> = {}, query: Record<string, string> = {}): DeliveryRequest {
	return {
		rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
		headers: { 'content-type': 'application/json', ...headers },
		query,
	};
}

function form(fields: Record<string, string>, headers: Record<string, string> = {}): DeliveryRequest {
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

/** n8n saves static data as JSON after each call and rebuilds it for the next. */
function reload(store: Record<string, unknown>): Record<string, unknown> {
	return JSON.parse(JSON.stringify(store)) as Record<string, unknown>;
}

describe('handleDelivery: items', () => {
	test('a JSON delivery becomes one item with event, ids, data, body and time', () => {
		const body = { id: 'evt_1', event: 'message.created', data: { id: 9, conversation_id: 5, user_id: 3, message: 'Hi' } };
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
			data: JSON.stringify({ conversation_id: '77', user_id: '12', conversation: { status_code: 0 } }),
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
		expect(item.body).toEqual({ function: 'new-conversation-created', data: { conversation_id: '77', user_id: '12', conversation: { status_code: 0 } } });
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
		const request = json({ event: 'lead.captured' }, { authorization: 'Bearer abc', 'x-trace': 't1' });
		const [without] = runItems(handleDelivery(request, settings(), {}, NOW));
		expect(without.headers).toBeUndefined();
		const [withHeaders] = runItems(handleDelivery(request, settings({ includeHeaders: true }), {}, NOW));
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
		['other event is answered 200 without a run', json({ event: 'user.created' }), selectedMessage, 200, 'respond', 'event userCreated not selected'],
		['unrecognised event is ignored by default', json({ event: 'message.deleted' }), settings(), 200, 'respond', 'unrecognised event "message.deleted"'],
		['unrecognised event without a name', json({ text: 'hello' }), settings(), 200, 'respond', 'unrecognised event'],
		['unrecognised event passed on', json({ event: 'message.deleted' }), settings({ unknownEvents: 'passOn' }), 200, 'run', ''],
		['unknown passed on even with a narrow selection', json({ event: 'ping' }), settings({ events: ['tagApplied'], unknownEvents: 'passOn' }), 200, 'run', ''],
		['no event selected', json({ event: 'message.created' }), settings({ events: [] }), 200, 'respond', 'event messageCreated not selected'],
		['own message (agent) is ignored', json({ event: 'message.created', data: { type: 'agent' } }), settings(), 200, 'respond', 'own message (sender type agent)'],
		['own message allowed when the option is off', json({ event: 'message.created', data: { type: 'agent' } }), settings({ ignoreOwnMessages: false }), 200, 'run', ''],
		['listed sender ignored', json({ event: 'message.created', data: { sender_id: 8 } }), settings({ ignoredSenderIds: ['8'] }), 200, 'respond', 'own message (sender id 8)'],
		['only messages are checked for loops', json({ event: 'conversation.created', data: { type: 'agent' } }), settings(), 200, 'run', ''],
		['malformed JSON', json('{"event":'), settings(), 400, 'respond', 'Malformed JSON body'],
		['empty body', json(''), settings(), 400, 'respond', 'Empty body'],
		['scalar JSON', json('"x"'), settings(), 400, 'respond', 'Body must be a JSON object'],
		['broken JSON in a form field', form({ payload: '{"a":' }), settings(), 400, 'respond', 'Field "payload" is not valid JSON'],
		['empty batch', json([]), settings(), 200, 'respond', 'no events'],
		['verification without a secret fails closed', json({ event: 'message.created' }), settings({ verification: 'standardWebhooks' }), 401, 'respond', 'Webhook secret not configured'],
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
		expect(item).toMatchObject({ event: 'conversationClosed', conversationId: 'c1', deliveryId: 'msg_1' });
	});

	test.each([
		['tampered body', { ...signed(), rawBody: Buffer.from(raw.toString().replace('c1', 'c2')) }, 'Invalid signature'],
		['wrong signature', signed({ 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` }), 'Invalid signature'],
		['missing headers', json({ type: 'conversation.closed' }), 'Missing webhook-id, webhook-timestamp or webhook-signature header'],
		['stale timestamp', signed({ 'webhook-timestamp': String(Number(timestamp) - 600) }), 'Timestamp outside the allowed tolerance'],
	])('%s → 401, nothing started, nothing remembered', (_label, request, reason) => {
		const staticData: Record<string, unknown> = {};
		const decision = handleDelivery(request, standard, staticData, NOW);
		expect(decision).toEqual({ action: 'respond', status: 401, body: { received: false, error: reason } });
		expect(staticData).toEqual({});
	});

	test('a forged delivery does not poison the duplicate memory', () => {
		const staticData: Record<string, unknown> = {};
		handleDelivery(signed({ 'webhook-signature': 'v1,AAAA' }), standard, staticData, NOW);
		expect(handleDelivery(signed(), standard, staticData, NOW).action).toBe('run');
	});

	test('the signature is checked before the body is read: a forged malformed body gets 401, not 400', () => {
		const decision = handleDelivery({ ...signed(), rawBody: Buffer.from('{oops') }, standard, {}, NOW);
		expect(decision.status).toBe(401);
	});

	test('the secret is trimmed as pasted', () => {
		expect(handleDelivery(signed(), { ...standard, secret: ` ${WHSEC}\n` }, {}, NOW).action).toBe('run');
	});

	test('token in the query', () => {
		const config = settings({ verification: 'token', tokenLocation: 'query', queryParameterName: 'token', secret: 's3cret-token' });
		expect(handleDelivery(json({ event: 'user.created' }, {}, { token: 's3cret-token' }), config, {}, NOW).action).toBe('run');
		expect(handleDelivery(json({ event: 'user.created' }, {}, { token: 'nope' }), config, {}, NOW)).toMatchObject({
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
		const [item] = runItems(handleDelivery(json({ event: 'user.created' }, { 'x-chat-token': 's3cret-token' }), config, {}, NOW));
		expect((item.headers as Record<string, string>)['x-chat-token']).toBe('[redacted]');
		expect(handleDelivery(json({ event: 'user.created' }), config, {}, NOW).status).toBe(401);
	});

	test('HMAC of the raw body', () => {
		const body = Buffer.from('{"event":"tag.applied","data":{"user_id":4,"tag":"vip"}}');
		const signature = createHmac('sha256', 'hmac-secret').update(body).digest('hex');
		const config = settings({ verification: 'hmac', secret: 'hmac-secret', hmacHeader: 'X-Hub-Signature-256', hmacPrefix: 'sha256=' });
		const request = (value: string): DeliveryRequest => ({
			rawBody: body,
			headers: { 'content-type': 'application/json', 'x-hub-signature-256': value },
		});
		expect(runItems(handleDelivery(request(`sha256=${signature}`), config, {}, NOW))[0]).toMatchObject({ event: 'tagApplied', userId: 4 });
		expect(handleDelivery(request(`sha256=${'0'.repeat(64)}`), config, {}, NOW).status).toBe(401);
	});

	test('secret field in a form body: checked, and never in the output', () => {
		const config = settings({ verification: 'bodyField', keyField: 'key', secret: 'php-secret-key' });
		const request = form({ function: 'message-sent', key: 'php-secret-key', data: '{"message_id":"3","conversation_id":"9","note":"php-secret-key"}' });
		const decision = handleDelivery(request, config, {}, NOW);
		const [item] = runItems(decision);
		expect(item).toMatchObject({ event: 'messageCreated', messageId: '3', conversationId: '9' });
		expect(JSON.stringify(decision)).not.toContain('php-secret-key');
		expect((item.body as Record<string, unknown>).key).toBe('[redacted]');

		const wrong = form({ function: 'message-sent', key: 'guess' });
		expect(handleDelivery(wrong, config, {}, NOW)).toMatchObject({ status: 401, body: { error: 'Invalid secret key' } });
		const missing = form({ function: 'message-sent' });
		expect(handleDelivery(missing, config, {}, NOW)).toMatchObject({ status: 401, body: { error: 'Missing "key" field' } });
	});

	test('secret field holding a number is masked too', () => {
		const config = settings({ verification: 'bodyField', keyField: 'auth.key', secret: '123456' });
		const decision = handleDelivery(json({ event: 'lead', auth: { key: 123456 } }), config, {}, NOW);
		expect(JSON.stringify(decision)).not.toContain('123456');
	});

	test('every reason is free of the secret', () => {
		const secret = 'very-distinctive-secret-value';
		const requests = [json({}), json({ event: 'x' }, { 'x-signature': secret }), form({ key: `${secret}x` })];
		for (const verification of ['standardWebhooks', 'token', 'hmac', 'bodyField'] as const) {
			for (const request of requests) {
				const decision = handleDelivery(request, settings({ verification, secret }), {}, NOW);
				expect(JSON.stringify(decision)).not.toContain(secret);
			}
		}
	});
});

describe('handleDelivery: duplicates', () => {
	test('a retry with the same webhook-id does not run twice, across n8n\'s static data reloads', () => {
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
		expect(handleDelivery(request, settings({ dedupeWindowMinutes: 1 }), staticData, NOW + 120_000).action).toBe('run');
	});

	test.each<[string, DeliveryRequest, DeliveryRequest, boolean]>([
		['same envelope id', json({ id: 'e1', event: 'user.created', data: { id: 1 } }), json({ id: 'e1', event: 'user.created', data: { id: 1 } }), true],
		['same event_id header', json({ event: 'user.created' }, { 'x-event-id': 'h1' }), json({ event: 'user.created' }, { 'x-event-id': 'h1' }), true],
		['different ids', json({ id: 'e1', event: 'user.created', data: {} }), json({ id: 'e2', event: 'user.created', data: {} }), false],
		['same id, different event', json({ event: 'conversation.created' }, { 'x-event-id': 'c5' }), json({ event: 'conversation.closed' }, { 'x-event-id': 'c5' }), false],
		['flat bodies with the same resource id are not duplicates', json({ event: 'conversation.updated', id: 5, status: 'closed' }), json({ event: 'conversation.updated', id: 5, status: 'archived' }), false],
		['no id at all: never suppressed', json({ event: 'message.created' }), json({ event: 'message.created' }), false],
	])('%s', (_label, first, second, duplicate) => {
		const staticData: Record<string, unknown> = {};
		expect(handleDelivery(first, settings(), staticData, NOW).action).toBe('run');
		expect(handleDelivery(second, settings(), reload(staticData), NOW + 1000).action).toBe(duplicate ? 'respond' : 'run');
	});

	test('ignored deliveries are not remembered', () => {
		const staticData: Record<string, unknown> = {};
		handleDelivery(json({ event: 'user.created' }, { 'webhook-id': 'x1' }), settings({ events: ['tagApplied'] }), staticData, NOW);
		expect(staticData[DEDUPE_KEY]).toBeUndefined();
	});

	test('deduplication can be turned off', () => {
		const staticData: Record<string, unknown> = {};
		const request = json({ event: 'message.created' }, { 'webhook-id': 'm1' });
		handleDelivery(request, settings({ dedupeWindowMinutes: 0 }), staticData, NOW);
		expect(handleDelivery(request, settings({ dedupeWindowMinutes: 0 }), staticData, NOW).action).toBe('run');
	});

	test('in a batch, a header id is told apart by position', () => {
		const staticData: Record<string, unknown> = {};
		const request = json([{ event: 'user.created' }, { event: 'user.created' }], { 'webhook-id': 'batch_1' });
		expect(runItems(handleDelivery(request, settings(), staticData, NOW)).map((item) => item.deliveryId)).toEqual([
			'batch_1#0',
			'batch_1#1',
		]);
		expect(handleDelivery(request, settings(), staticData, NOW).action).toBe('respond');
	});
});

describe('handleDelivery: robustness', () => {
	test('headers in any case, repeated headers and odd values', () => {
		const request: DeliveryRequest = {
			rawBody: Buffer.from('{"event":"lead"}'),
			headers: { 'Content-Type': 'application/json', 'X-Event': ['user.created', 'lead'], 'x-odd': 5 as unknown as string },
		};
		expect(runItems(handleDelivery(request, settings(), {}, NOW))[0].event).toBe('userCreated');
	});

	test('no raw body: falls back to what n8n parsed', () => {
		const request: DeliveryRequest = { rawBody: undefined, body: { event: 'lead.captured', email: 'a@b.c' }, headers: {} };
		expect(runItems(handleDelivery(request, settings(), {}, NOW))[0].event).toBe('leadCaptured');
	});

	test('a raw body given as a string', () => {
		const request: DeliveryRequest = { rawBody: '{"event":"lead"}', headers: { 'content-type': 'application/json' } };
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
		const decision = handleDelivery(json({ event: 'lead' }, { 'webhook-id': 'x' }), settings(), staticData, NOW);
		expect(decision).toEqual({ action: 'respond', status: 500, body: { received: false, error: 'Delivery could not be processed' } });
	});
});

describe('eventKey: the same key the poll trigger gives the same event', () => {
	it.each([
		['a message, by its id', { event: 'message.created', data: { id: 9, conversation_id: 5 } }, 'messageCreated:9'],
		['a new user, by the user', { event: 'user.created', data: { user: { id: 'u_7' } } }, 'userCreated:u_7'],
		['a new conversation', { event: 'conversation.created', data: { conversation: { id: 'c_1' } } }, 'conversationCreated:c_1'],
		['a closing, with its time when the record has one', { event: 'conversation.closed', data: { conversation: { id: 'c_1', closed_at: '2026-03-01T10:01:00Z' } } }, 'conversationClosed:c_1@2026-03-01T10:01:00Z'],
		["a closing without one (Support Board's archive)", { function: 'conversation-status-updated', data: { conversation_id: '9', status_code: '3' } }, 'conversationClosed:9'],
		['a tag, with the tag: two tags on one user are two events', { event: 'tag.applied', data: { user_id: 'u_7', tag: 'vip' } }, 'tagApplied:u_7@vip'],
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
