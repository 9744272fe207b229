/**
 * Property tests over hostile bodies and headers (issue 8): whatever arrives, handleDelivery answers
 * 200, 400 or 401, never throws, never 500s, and the webhook secret appears in no answer and no item
 * in any encoding.
 */
import fc from 'fast-check';

import type { DeliveryRequest } from '../../../nodes/SupportChat/trigger/delivery';
import { handleDelivery } from '../../../nodes/SupportChat/trigger/handle';
import type { TriggerSettings } from '../../../nodes/SupportChat/trigger/settings';
import { VERIFICATION_SCHEMES } from '../../../nodes/SupportChat/trigger/settings';
import { triggerSettings } from './settings';
import { DeliveryMemory } from '../../../nodes/SupportChat/trigger/dedupe';

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
	fc.constantFrom(...PROTO, 'message.created', 'message-sent', 'conversation.updated', 'agent', 'visitor', 'closed', 'user_id', 'conversation_user_id', 'data', 'event', 'type', 'status', 'sender', 'role'),
	fc.constantFrom(...ENCODED),
	fc.string({ maxLength: 12 }),
	fc.nat({ max: 1000 }).chain((length) => fc.constantFrom('A', 'aB', '1A', '.', 'x ').map((unit) => unit.repeat(length))),
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
	fc.array(fc.tuple(word, word), { maxLength: 6 }).map((pairs) => pairs.map(([key, entry]) => `${encodeURIComponent(key)}=${encodeURIComponent(entry)}`).join('&')),
	fc.array(fc.tuple(word, word, word), { maxLength: 4 }).map((pairs) => pairs.map(([a, b, entry]) => `${a}[${b}]=${entry}`).join('&')),
);

const headers = fc.dictionary(
	fc.oneof(fc.constantFrom(...PROTO, 'x-event', 'x-acme-event', 'webhook-id', 'x-event-id', 'authorization', 'x-webhook-token', 'x-signature'), word),
	fc.oneof(word, fc.array(word, { maxLength: 2 })),
	{ maxKeys: 6 },
);

const request: fc.Arbitrary<DeliveryRequest> = fc.record({
	rawBody,
	headers: fc.tuple(fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', ''), headers).map(([type, rest]) => ({ ...rest, 'content-type': type })),
	query: fc.dictionary(fc.oneof(word, fc.constant('token')), word, { maxKeys: 3 }),
});

const chosen = fc.record({
	events: fc.constantFrom<string[]>(['*'], ['messageCreated'], ['conversationClosed', 'leadCaptured']),
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
				const decision = handleDelivery(req, settings, {}, 1_750_000_000_000, { memory });
				expect([200, 400, 401]).toContain(decision.status);
				for (const text of strings(decision)) {
					for (const trace of TRACES) expect(text.includes(trace) ? text : '').toBe('');
				}
				// The same delivery again, in the same process: never a second run.
				const again = handleDelivery(req, settings, {}, 1_750_000_000_000, { memory });
				if (decision.action === 'run' && settings.dedupeWindowMinutes > 0 && decision.items.every((item) => item.json.deliveryId !== null)) {
					expect(again.action).toBe('respond');
				}
			}),
			{ numRuns: 1500 },
		);
	});
});
