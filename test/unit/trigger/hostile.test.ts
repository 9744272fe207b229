/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Deliveries written by an attacker or a broken sender (issue 8): huge names, words that are also
 * names on Object.prototype, services that mark an agent's message only by role or by ids, echoed
 * secrets in every encoding. Each table below is a class of input, not one example.
 */
import fc from 'fast-check';

import type { DeliveryRequest } from '../../../nodes/SupportChat/trigger/delivery';
import type { TriggerSettings } from '../../../nodes/SupportChat/trigger/settings';
import { triggerSettings } from './settings';
import { handleDelivery } from '../../../nodes/SupportChat/trigger/handle';
import { detectEvent } from '../../../nodes/SupportChat/trigger/detect';
import { hasClosedStatus } from '../../../nodes/SupportChat/trigger/status';
import { MAX_NAME_LENGTH, normaliseEventName, splitWords } from '../../../nodes/SupportChat/trigger/words';
import { isOwnMessage } from '../../../nodes/SupportChat/trigger/loops';
import { parseBody } from '../../../nodes/SupportChat/trigger/body';
import { deliveryId } from '../../../nodes/SupportChat/trigger/deliveryId';
import { parseForm } from '../../../nodes/SupportChat/trigger/form';
import { extractIds } from '../../../nodes/SupportChat/trigger/ids';

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

	test.each(hostileNames)('a 100,000-character event name (%s) is not read: unknown, reported cut', (_label, name) => {
		expect(normaliseEventName(name)).toEqual([]);
		const detected = detectEvent({ event: name }, {});
		expect(detected.event).toBe('unknown');
		const passedOn = deliver(json({ event: name }), { unknownEvents: 'passOn' });
		expect(passedOn.action === 'run' && passedOn.items[0].json.eventName).toBe(`${name.trim().slice(0, MAX_NAME_LENGTH)}…`);
	});

	test.each(hostileNames)('the same name (%s) in a header, as a status and as a sender type: answered 200', (_label, name) => {
		const inHeader = deliver(json({ data: {} }, { 'x-event': name }), { unknownEvents: 'passOn' });
		expect(inHeader.status).toBe(200);
		expect(inHeader.action === 'run' && String(inHeader.items[0].json.eventName).length).toBe(MAX_NAME_LENGTH + 1);

		expect(hasClosedStatus({ data: { status: name } })).toBe(false);
		const status = deliver(json({ event: 'conversation.updated', data: { status: name } }));
		expect(status).toMatchObject({ status: 200, body: { ignored: expect.stringMatching(/^unrecognised event/) } });

		const sender = deliver(json({ event: 'message.created', data: { sender_type: name, role: name } }));
		expect(sender.action).toBe('run');
	});

	test('the answer quotes at most 80 characters of an unrecognised name', () => {
		const answer = deliver(json({ event: long('Z') }));
		expect(answer).toMatchObject({ status: 200, body: { ignored: `unrecognised event "${'Z'.repeat(80)}…"` } });
	});

	test.each([
		['the item', MAX_NAME_LENGTH, { unknownEvents: 'passOn' as const }],
		['the answer', 80, {}],
	])('a secret where %s cuts the name is masked first, so no part of it shows', (_label, at, overrides) => {
		const secret = 'abcdefghij1234';
		const name = `${'x'.repeat(at - 5)}${secret}`;
		const result = deliver(json({ event: name }), { verification: 'none', secret, ...overrides });
		const shown = JSON.stringify(result);
		expect(shown).not.toContain('abcde');
		expect(shown).toContain(`${'x'.repeat(at - 5)}[reda…`);
	});

	test('names up to the limit are read as before', () => {
		const name = `message.created.${'x'.repeat(MAX_NAME_LENGTH - 'message.created.'.length)}`;
		expect(name).toHaveLength(MAX_NAME_LENGTH);
		expect(normaliseEventName(name)).toEqual(['message', 'create', 'x'.repeat(MAX_NAME_LENGTH - 16)]);
	});

	test('a Content-Type of 100,000 characters is cut before its charset is looked for', () => {
		const contentType = `application/json; ${'charset '.repeat(12_500)}`;
		expect(parseBody('{"event":"lead"}', contentType)).toEqual({ ok: true, body: { event: 'lead' } });
	});

	test('a thousand `a[]=` fields: one list of a thousand, in order', () => {
		const form = parseForm(Array.from({ length: 1000 }, (_, index) => `a[]=${index}`).join('&'));
		expect(Object.keys(form.a as object)).toHaveLength(1000);
		expect((form.a as Record<string, string>)['999']).toBe('999');
	});

	/** The splitting rules as they were written with regular expressions, for short names only. */
	function splitByRegex(name: string): string[] {
		const spaced = name
			.replace(/([\da-z])([A-Z])/g, '$1 $2')
			// eslint-disable-next-line regexp/no-super-linear-move -- the old rule, run here on short text only
			.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
			.toLowerCase();
		return spaced.split(/[^\da-z]+/).filter((word) => word !== '');
	}

	test('the one-pass splitter splits as the regular expressions did', () => {
		const alphabet = fc.constantFrom(...'aAbBzZ09._- XyHTMLParserv2'.split(''));
		fc.assert(
			fc.property(fc.array(alphabet, { maxLength: 40 }).map((chars) => chars.join('')), (name) => {
				expect(splitWords(name)).toEqual(splitByRegex(name));
			}),
			{ numRuns: 3000 },
		);
		expect(normaliseEventName('HTMLParserCreated')).toEqual(['html', 'parser', 'create']);
		expect(normaliseEventName('ABCMessageSent')).toEqual(['abc', 'message', 'send']);
	});
});

// -------------------------------------------------------- class 12: words that Object.prototype has

describe('class 12: every Object.prototype name is only a word', () => {
	const names = Object.getOwnPropertyNames(Object.prototype);
	const variants = names.flatMap((name) => [name, name.toLowerCase(), name.toUpperCase()]);

	test('there are names to try', () => {
		expect(names).toEqual(expect.arrayContaining(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']));
	});

	test.each(variants)('%s through every table', (word) => {
		expect(normaliseEventName(word)).toEqual(expect.any(Array));
		expect(normaliseEventName(word).every((entry) => typeof entry === 'string')).toBe(true);
		expect(detectEvent({ event: word }, {}).event).toBe('unknown');
		expect(detectEvent({ data: {} }, { 'x-event': word }).event).toBe('unknown');
		expect(hasClosedStatus({ status: word })).toBe(false);
		expect(extractIds({ type: word, id: 5 })).toEqual({ conversationId: null, userId: null, messageId: null });
		expect(extractIds({ object: word, id: 5 }, 'user')).toEqual({ conversationId: null, userId: 5, messageId: null });
		expect(isOwnMessage({ data: { sender_type: word, type: word, sender: word, role: word } }, { ignoreOwnTypes: true, ignoredSenderIds: [] }).own).toBe(false);
		expect(deliveryId({}, { [word]: 'x' })).toBeUndefined();
	});

	test.each(variants)('%s through handleDelivery as event name, status, field name, header name and sender type: never 500', (word) => {
		const requests: Array<[string, DeliveryRequest]> = [
			['event name', json({ event: word })],
			['event name in a header', json({ data: {} }, { 'x-event': word })],
			['event name in a vendor header', json({ data: {} }, { [`x-${word}-event`]: word })],
			['status', json({ event: 'conversation.updated', data: { status: word, state: word } })],
			['action', json({ event: 'conversation', action: word })],
			['kind of record', json({ event: 'message.created', data: { object: word, type: word, id: 1 } })],
			['field name', json({ event: 'message.created', [word]: word, data: { [word]: { [word]: 1 } } })],
			['form field name', { rawBody: `function=message-sent&${word}=1&${word}[a]=2&a[${word}]=3&${word}[]=4`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
			['header name', json({ event: 'message.created' }, { [word]: word, [word.toLowerCase()]: 'x' })],
			['sender type', json({ event: 'message.created', data: { sender_type: word, sender: word, from: word, role: word, author: { type: word } } })],
			['delivery id', json({ event: 'message.created', event_id: word }, { 'webhook-id': word })],
		];
		for (const verification of ['none', 'bodyField', 'token'] as const) {
			for (const [, request] of requests) {
				const decision = deliver({ ...request, query: { [word]: word, token: word } }, {
					verification,
					secret: 'a-long-enough-secret',
					keyField: word,
					queryParameterName: word,
					unknownEvents: 'passOn',
				});
				expect([200, 400, 401]).toContain(decision.status);
			}
		}
	});

	test('a header named __proto__ with a list value is kept as a header, not a prototype', () => {
		const decision = handleDelivery(
			{ rawBody: '{"event":"lead"}', headers: JSON.parse('{"content-type":"application/json","__proto__":["a","b"]}') as Record<string, string[]> },
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
		['PHP message-sent: user_id is not the conversation\'s visitor', { function: 'message-sent', data: { user_id: '7', conversation_user_id: '3', message: 'Hi' } }, 'user_id 7 is not conversation_user_id 3'],
		['the same, numbers, flat', { function: 'message-sent', user_id: 12, conversation_user_id: 4 }, 'user_id 12 is not conversation_user_id 4'],
		['camelCase ids', { event: 'message.created', data: { userId: 'u_9', conversationUserId: 'u_1' } }, 'userId u_9 is not conversationUserId u_1'],
		['sender_id next to conversation_user_id', { event: 'message.created', data: { sender_id: 5, conversation_user_id: 6 } }, 'sender_id 5 is not conversation_user_id 6'],
		['sender: "agent"', { event: 'message.created', data: { sender: 'agent', text: 'Hi' } }, 'sender type agent'],
		['from: "operator"', { event: 'message.created', data: { from: 'operator' } }, 'sender type operator'],
		['role: "assistant"', { event: 'message.created', data: { role: 'assistant' } }, 'sender type assistant'],
		['role in a nested message', { event: 'message.created', data: { message: { role: 'Agent' } } }, 'sender type agent'],
		['author: "bot"', { event: 'message.created', data: { author: 'bot' } }, 'sender type bot'],
	])('%s: own', (_label, body, reason) => {
		expect(isOwnMessage(body, ON)).toEqual({ own: true, reason });
		const decision = deliver(json(body), { events: ['messageCreated'] });
		expect(decision).toMatchObject({ status: 200, action: 'respond', body: { ignored: `own message (${reason})` } });
	});

	test.each<[string, Record<string, unknown>]>([
		['PHP message-sent by the visitor: ids equal', { function: 'message-sent', data: { user_id: '3', conversation_user_id: '3', message: 'Hi' } }],
		['ids equal as number and text', { function: 'message-sent', data: { user_id: 3, conversation_user_id: '3' } }],
		['only the sender id', { function: 'message-sent', data: { user_id: '3' } }],
		['an empty owner', { function: 'message-sent', data: { user_id: '3', conversation_user_id: '' } }],
		['sender: "visitor"', { event: 'message.created', data: { sender: 'visitor' } }],
		['role: "user"', { event: 'message.created', data: { role: 'user' } }],
		['from: "customer"', { event: 'message.created', data: { from: 'customer' } }],
		['a visitor type wins over differing ids', { event: 'message.created', data: { type: 'visitor', user_id: 8, conversation_user_id: 3 } }],
		['a sender object without a type', { event: 'message.created', data: { sender: { id: 3, name: 'Ada' } } }],
		['a sender name that is no type', { event: 'message.created', data: { sender: 'Ada Lovelace' } }],
	])('%s: the visitor\'s, starts the workflow', (_label, body) => {
		expect(isOwnMessage(body, ON).own).toBe(false);
		expect(deliver(json(body), { events: ['messageCreated'] }).action).toBe('run');
	});

	test('with Ignore Own Messages off, all of them run', () => {
		const body = { function: 'message-sent', data: { user_id: '7', conversation_user_id: '3', sender: 'agent' } };
		expect(deliver(json(body), { events: ['messageCreated'], ignoreOwnMessages: false }).action).toBe('run');
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
	const traces = [SECRET, encodeURIComponent(SECRET), base64.slice(0, Math.floor(Buffer.byteLength(SECRET) / 3) * 4)];
	const strings = (value: unknown): string[] => {
		if (typeof value === 'string') return [value];
		if (Array.isArray(value)) return value.flatMap(strings);
		if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, entry]) => [key, ...strings(entry)]);
		return [];
	};

	test.each(forms)('%s copy in a field, a key, a header, an event name and a delivery id', (_label, copy) => {
		for (const unknownEvents of ['ignore', 'passOn'] as const) {
			const requests = [
				json({ event: 'message.created', data: { note: `echo ${copy} echo`, [copy]: 1 } }, { 'x-echo': `x ${copy}`, 'webhook-id': copy }),
				json({ event: `x${copy}`.repeat(3) }),
				json({ data: {} }, { 'x-event': `${'y'.repeat(70)}${copy}` }),
			];
			for (const request of requests) {
				const decision = deliver(request, { secret: SECRET, unknownEvents, verification: 'none' });
				const seen = strings(decision);
				for (const trace of traces) expect(seen.filter((text) => text.includes(trace))).toEqual([]);
			}
		}
	});

	test('a Standard Webhooks secret: its base64 key alone is masked too', () => {
		const secret = `whsec_${Buffer.from('a key of thirty-two bytes, really').toString('base64')}`;
		const key = secret.slice('whsec_'.length);
		const decision = deliver(json({ event: 'lead', data: { echoed: key } }), { secret, verification: 'none' });
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
			detectEvent({}, headers);
			deliveryId({}, headers);
			expect(reads.lists).toBe(1);
			const afterFirst = reads.lookups;
			for (let entry = 0; entry < 100; entry++) {
				detectEvent({}, headers);
				deliveryId({}, headers);
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
