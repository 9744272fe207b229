/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import fc from 'fast-check';

import { TRIGGER_DEFAULTS } from '../../../nodes/SupportChat/trigger/settings';
import type { DeliveryRequest } from '../../../nodes/SupportChat/trigger/delivery';
import { handleDelivery } from '../../../nodes/SupportChat/trigger/handle';
import type { TriggerSettings } from '../../../nodes/SupportChat/trigger/settings';
import { VERIFICATION_SCHEMES } from '../../../nodes/SupportChat/trigger/settings';

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

const headerValue = fc.oneof(headerText, fc.array(headerText, { maxLength: 3 }), fc.constant(undefined));

const bodyText = fc.oneof(
	fc.json(),
	fc.jsonValue().map((value) => JSON.stringify({ event: 'message.created', data: value })),
	fc
		.record({
			function: fc.constantFrom('message-sent', 'new-conversation-created', 'conversation-status-updated', 'x'),
			key: fc.constantFrom(SECRET, 'wrong', ''),
			data: fc.oneof(fc.json(), fc.string()),
		})
		.map((fields) => new URLSearchParams(fields).toString()),
	fc.string({ maxLength: 200 }),
	fc.constantFrom('data[a][b]=1&data[a]=2&a[]=x&__proto__[y]=1', '{"event":', '[]', '[1,{}]', 'null', '%', '=&=&', '\uFEFF'),
);

const rawBody = fc.oneof(
	bodyText.map((text) => Buffer.from(text, 'utf8')),
	fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
	bodyText,
	fc.constantFrom(undefined, null),
);

const request: fc.Arbitrary<DeliveryRequest> = fc.record({
	rawBody,
	body: fc.oneof(fc.constant(undefined), fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue())),
	headers: fc.dictionary(headerName, headerValue, { maxKeys: 8 }),
	query: fc.oneof(
		fc.constant(undefined),
		fc.dictionary(fc.constantFrom('token', 'key', 'x'), fc.oneof(fc.string(), fc.array(fc.string()), fc.constant(SECRET))),
	),
});

const triggerSettings: fc.Arbitrary<TriggerSettings> = fc.record({
	events: fc.subarray(['*', 'conversationCreated', 'messageCreated', 'conversationClosed', 'userCreated', 'tagApplied', 'leadCaptured', 'bogus']),
	verification: fc.constantFrom(...VERIFICATION_SCHEMES),
	secret: fc.constantFrom(SECRET, '', `whsec_${Buffer.from(SECRET).toString('base64')}`),
	// Every setting is present, as TriggerSettings requires. Odd values (an empty name, a tolerance that is
	// not a number) stay in, though readSettings turns them into defaults: handleDelivery must not fail on
	// them when called some other way.
	timestampTolerance: fc.oneof(fc.constant(TRIGGER_DEFAULTS.timestampTolerance), fc.integer({ min: -5, max: 1000 }), fc.constant(Number.NaN)),
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

const now = fc.oneof(fc.constant(1_750_000_000_000), fc.integer({ min: 0, max: 4_000_000_000_000 }));

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
				const query = { ...(typeof req.query === 'object' && req.query ? req.query : {}), token: 'not-it' };
				const headers = Object.fromEntries(
					Object.entries(req.headers).filter(([, value]) => !JSON.stringify(value ?? '').includes(SECRET)),
				);
				const body = Buffer.isBuffer(req.rawBody) && req.rawBody.includes(SECRET) ? Buffer.from('{}') : req.rawBody;
				const safe = typeof body === 'string' && body.includes(SECRET) ? '{}' : body;
				const decision = handleDelivery(
					{ rawBody: safe, body: undefined, headers, query },
					{ ...config, verification, secret: SECRET, tokenLocation: 'query', queryParameterName: 'token' },
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
