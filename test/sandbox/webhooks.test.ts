/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

import type { Sandbox, WebhookStyle } from '../../sandbox';
import { parseWebhookUrls, signWebhook, startSandbox } from '../../sandbox';

const TOKEN = 'test-token';
const SECRET = `whsec_${Buffer.from('a 24-byte signing secret').toString('base64')}`;
let sb: Sandbox;

beforeAll(async () => {
	sb = await startSandbox({ token: TOKEN, seed: { users: 3, conversations: 2, tags: ['vip'] } });
});
afterAll(async () => await sb.close());
beforeEach(() => sb.reset());

// ---------------------------------------------------------------- a receiver per test

interface Received {
	path: string;
	headers: http.IncomingHttpHeaders;
	body: string;
	at: number;
}

interface Receiver {
	url(path?: string): string;
	got: Received[];
	close(): Promise<void>;
}

const receivers: Receiver[] = [];
afterEach(async () => {
	await sb.settled();
	await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** `answer(n)` gives the status of the n-th request (1-based) and may delay it. */
async function receiver(
	answer: (n: number) => number | { status: number; delayMs: number } = () => 200,
): Promise<Receiver> {
	const got: Received[] = [];
	const timers = new Set<NodeJS.Timeout>();
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			got.push({
				path: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
				at: Date.now(),
			});
			const a = answer(got.length);
			const { status, delayMs } = typeof a === 'number' ? { status: a, delayMs: 0 } : a;
			const timer = setTimeout(() => {
				timers.delete(timer);
				res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
			}, delayMs);
			timers.add(timer);
		});
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const port = (server.address() as AddressInfo).port;
	const r: Receiver = {
		url: (p = '/hook') => `http://127.0.0.1:${port}${p}`,
		got,
		close: () =>
			new Promise<void>((resolve) => {
				for (const timer of timers) clearTimeout(timer);
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
	receivers.push(r);
	return r;
}

async function api(method: string, route: string, body?: unknown) {
	const res = await fetch(`${sb.baseUrl}${route}`, {
		method,
		headers: {
			authorization: `Bearer ${TOKEN}`,
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, body: (await res.json()) as any };
}

async function control(method: string, route: string, body?: unknown) {
	const res = await fetch(`${sb.controlUrl}${route}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, body: (await res.json()) as any };
}

// ---------------------------------------------------------------- an independent reading of each style

interface Seen {
	event: string;
	id: string;
	conversationId?: string;
	userId?: string;
	messageId?: string;
	type?: string;
	source?: string;
	tag?: string;
	email?: string;
}

const header = (r: Received, name: string) => r.headers[name] as string | undefined;
const clean = (s: Seen): Seen =>
	Object.fromEntries(
		Object.entries(s).filter(([, v]) => v !== undefined && v !== null && v !== ''),
	) as unknown as Seen;

function read(style: WebhookStyle, r: Received): Seen {
	if (style === 'flat-php') {
		const form = new URLSearchParams(r.body);
		const d = JSON.parse(form.get('data')!);
		return clean({
			event: form.get('function')!,
			id: form.get('delivery_id')!,
			conversationId: d.conversation_id,
			userId: d.user_id,
			messageId: d.message_id,
			type: d.type,
			source: d.source,
			tag: d.tag,
			email: form.get('function') === 'new-email-address' ? d.email : undefined,
		});
	}
	const b = JSON.parse(r.body);
	switch (style) {
		case 'dotted': {
			const o = b.data.object;
			return clean({
				event: b.type,
				id: b.id,
				conversationId: o.object === 'conversation' ? o.id : o.conversation_id,
				userId: o.object === 'user' ? o.id : o.user_id,
				messageId: o.object === 'message' ? o.id : (o.first_message?.id ?? o.message_id),
				type: o.object === 'message' ? o.type : undefined,
				source: b.source,
				tag: b.data.tag,
				email: o.object === 'lead' ? o.email : undefined,
			});
		}
		case 'event-header':
			return clean({
				event: header(r, 'x-webhook-event')!,
				id: header(r, 'x-webhook-id')!,
				conversationId: b.conversation_id,
				userId: b.user_id,
				messageId: b.message_id,
				type: header(r, 'x-webhook-event') === 'NewMessage' ? b.type : undefined,
				source: b.source,
				tag: b.tag,
				email: header(r, 'x-webhook-event') === 'LeadCapture' ? b.email : undefined,
			});
		case 'nested': {
			const p = b.payload;
			return clean({
				event: b.webhook.event,
				id: b.webhook.event_id,
				conversationId: p.conversation?.id,
				userId: p.user?.id,
				messageId: p.message?.id,
				type: b.webhook.event === 'new_message' ? p.message?.type : undefined,
				source: b.webhook.source,
				tag: p.tag?.name,
				email: p.lead?.email,
			});
		}
		case 'human':
			return clean({
				event: b.event,
				id: b.eventId,
				conversationId: b.conversationId,
				userId: b.userId,
				messageId: b.messageId,
				type: b.event === 'New Message' ? b.message?.type : undefined,
				source: b.via?.toLowerCase(),
				tag: b.tag,
				email: b.lead?.email,
			});
	}
	throw new Error(`no reader for ${style}`);
}

/** The six kinds, in each style's words, in the order of the scenario below. */
const NAMES: Record<WebhookStyle, Record<string, string>> = {
	dotted: {
		user: 'user.created',
		conv: 'conversation.created',
		msg: 'message.created',
		tag: 'user.tag_applied',
		lead: 'contact.lead.created',
		close: 'conversation.closed',
	},
	'flat-php': {
		user: 'new-user-created',
		conv: 'new-conversation-created',
		msg: 'message-sent',
		tag: 'tag-added',
		lead: 'new-email-address',
		close: 'conversation-status-updated',
	},
	'event-header': {
		user: 'UserCreated',
		conv: 'NewConversation',
		msg: 'NewMessage',
		tag: 'TagApplied',
		lead: 'LeadCapture',
		close: 'ConversationArchived',
	},
	nested: {
		user: 'new_user',
		conv: 'new_conversation',
		msg: 'new_message',
		tag: 'tag_applied',
		lead: 'lead_captured',
		close: 'conversation_closed',
	},
	human: {
		user: 'New User Created',
		conv: 'New Conversation',
		msg: 'New Message',
		tag: 'Tag Applied',
		lead: 'Lead Captured',
		close: 'Conversation Closed',
	},
};
const CONTENT_TYPE: Record<WebhookStyle, string> = {
	dotted: 'application/json',
	'flat-php': 'application/x-www-form-urlencoded',
	'event-header': 'application/json',
	nested: 'application/json',
	human: 'application/json',
};

/** Every kind at least once: an API user, a visitor's chat, an agent's reply, a tag, a lead in a message, a close. */
async function scenario() {
	expect(
		(await api('POST', '/users', { name: 'Api Person', email: 'api@example.com' })).status,
	).toBe(201); // u_0004
	const v = sb.visitor.startConversation({ name: 'Vic Tor', message: 'Hi there' }); // u_0005, c_0003, m_0003
	expect([v.user.id, v.conversation.id, v.message.id]).toEqual(['u_0005', 'c_0003', 'm_0003']);
	await api('POST', '/messages', {
		conversation_id: 'c_0003',
		message: 'Hello Vic',
		type: 'agent',
	}); // m_0004
	await api('POST', '/tags', { user_id: 'u_0005', tag: 'vip' });
	sb.visitor.say('c_0003', 'Reach me at vic@example.com please'); // m_0005 + lead
	await api('POST', '/conversations/c_0003/close');
	await sb.settled();
}

function expected(style: WebhookStyle): Array<Omit<Seen, 'id'>> {
	const n = NAMES[style];
	// Where a style names the source, it says chat for the visitor and api for the API.
	return [
		{ event: n.user, userId: 'u_0004', source: 'api' },
		{ event: n.user, userId: 'u_0005', source: 'chat' },
		{ event: n.conv, conversationId: 'c_0003', userId: 'u_0005', messageId: 'm_0003' },
		{ event: n.msg, conversationId: 'c_0003', userId: 'u_0005', messageId: 'm_0003', type: 'user' },
		{
			event: n.msg,
			conversationId: 'c_0003',
			userId: 'u_0005',
			messageId: 'm_0004',
			type: 'agent',
		},
		{ event: n.tag, userId: 'u_0005', tag: 'vip' },
		{ event: n.msg, conversationId: 'c_0003', userId: 'u_0005', messageId: 'm_0005', type: 'user' },
		{
			event: n.lead,
			conversationId: 'c_0003',
			userId: 'u_0005',
			messageId: 'm_0005',
			email: 'vic@example.com',
		},
		{ event: n.close, conversationId: 'c_0003', userId: 'u_0005' },
	];
}

describe('payload styles', () => {
	it.each(['dotted', 'flat-php', 'event-header', 'nested', 'human'] as WebhookStyle[])(
		'%s: all six kinds, with their ids',
		async (style) => {
			const r = await receiver();
			sb.configureWebhooks({ urls: r.url(), style });
			await scenario();
			const seen = r.got.map((g) => read(style, g));
			// Every style says where a user came from; some carry the source on other events too.
			expect(
				seen.map(({ id: _id, source, ...rest }) =>
					rest.event === NAMES[style].user ? { ...rest, source } : rest,
				),
			).toEqual(expected(style));
			expect(new Set(seen.map((s) => s.id)).size).toBe(9);
			expect(
				r.got.every((g) => g.headers['content-type'] === CONTENT_TYPE[style] && g.path === '/hook'),
			).toBe(true);
			// Unsigned: no Standard Webhooks headers.
			expect(r.got.some((g) => 'webhook-signature' in g.headers)).toBe(false);
			expect(sb.deliveries.map((d) => [d.kind, d.status, d.attempt])).toEqual(
				[
					'userCreated',
					'userCreated',
					'conversationCreated',
					'messageCreated',
					'messageCreated',
					'tagApplied',
					'messageCreated',
					'leadCaptured',
					'conversationClosed',
				].map((k) => [k, 200, 1]),
			);
			expect(sb.deliveries.map((d) => d.body)).toEqual(r.got.map((g) => g.body));
		},
	);

	it('dotted: a Stripe-like envelope', async () => {
		const r = await receiver();
		sb.configureWebhooks({ urls: r.url() });
		sb.visitor.startConversation({ name: 'Vic', message: 'Hi' });
		await sb.settled();
		expect(JSON.parse(r.got[1].body)).toEqual({
			id: expect.stringMatching(/^evt_/),
			object: 'event',
			type: 'conversation.created',
			created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
			source: 'chat',
			data: {
				object: expect.objectContaining({
					object: 'conversation',
					id: 'c_0003',
					user_id: 'u_0004',
					status: 'pending',
					first_message: expect.objectContaining({ id: 'm_0003', type: 'user' }),
				}),
			},
		});
	});

	it('flat-php: a form with function, a JSON data field, status on a close, the raw secret and a delivery id', async () => {
		const r = await receiver();
		sb.configureWebhooks({ urls: r.url(), style: 'flat-php', secret: 'plain-php-secret' });
		await api('POST', '/conversations/c_0001/close');
		await sb.settled();
		const form = new URLSearchParams(r.got[0].body);
		expect([...form.keys()]).toEqual(['function', 'status', 'data', 'delivery_id', 'secret_key']);
		expect(Object.fromEntries(form)).toMatchObject({
			function: 'conversation-status-updated',
			status: 'closed',
			secret_key: 'plain-php-secret',
		});
		expect(JSON.parse(form.get('data')!)).toMatchObject({
			conversation_id: 'c_0001',
			user_id: 'u_0001',
			status: 'closed',
		});
		expect(form.get('delivery_id')).toBe(r.got[0].headers['webhook-id']);
	});

	it('event-header: the bare record, the event and the id in headers', async () => {
		const r = await receiver();
		sb.configureWebhooks({ urls: r.url(), style: 'event-header' });
		await api('POST', '/tags', { user_id: 'u_0002', tag: 'gold' });
		await sb.settled();
		expect(r.got[0].headers).toMatchObject({
			'x-webhook-event': 'TagApplied',
			'x-webhook-id': expect.stringMatching(/^evt_/),
		});
		expect(JSON.parse(r.got[0].body)).toMatchObject({
			id: 'u_0002',
			user_id: 'u_0002',
			tag: 'gold',
			tags: ['gold'],
		});
	});

	it('nested and human: envelope and payload apart; snake_case against camelCase', async () => {
		const r = await receiver();
		sb.configureWebhooks({ urls: r.url(), style: 'nested', kinds: ['messageCreated'] });
		await api('POST', '/messages', { conversation_id: 'c_0002', message: 'On it', type: 'agent' });
		sb.configureWebhooks({ style: 'human' });
		await api('POST', '/messages', { conversation_id: 'c_0002', message: 'Done', type: 'agent' });
		await sb.settled();
		const [nested, human] = r.got.map((g) => JSON.parse(g.body));
		expect(nested).toEqual({
			webhook: {
				event: 'new_message',
				event_id: expect.any(String),
				timestamp: expect.any(Number),
				source: 'api',
			},
			payload: {
				conversation: expect.objectContaining({ id: 'c_0002', user_id: 'u_0002' }),
				user: expect.objectContaining({ id: 'u_0002' }),
				message: expect.objectContaining({
					id: 'm_0003',
					conversation_id: 'c_0002',
					message: 'On it',
					type: 'agent',
				}),
			},
		});
		expect(Math.abs(nested.webhook.timestamp - Date.now() / 1000)).toBeLessThan(60);
		expect(human).toMatchObject({
			event: 'New Message',
			via: 'API',
			conversationId: 'c_0002',
			userId: 'u_0002',
			messageId: 'm_0004',
			message: { conversationId: 'c_0002', createdAt: expect.any(String), type: 'agent' },
			contact: { id: 'u_0002' },
		});
	});
});

describe('configuration', () => {
	it('parses the receiver list as typed, and every receiver gets every event', async () => {
		const [a, b, c] = await Promise.all([receiver(), receiver(), receiver()]);
		const typed = ` ${a.url('/one')},, ${b.url('/two')} ,\n${c.url()} , ${a.url('/one')}, `;
		expect(parseWebhookUrls(typed)).toEqual([a.url('/one'), b.url('/two'), c.url()]);
		expect(sb.configureWebhooks({ urls: typed }).urls).toHaveLength(3);
		await api('POST', '/users', { name: 'Three Ways' });
		sb.visitor.startConversation({ message: 'Hi' });
		await sb.settled();
		for (const r of [a, b, c])
			expect(r.got.map((g) => JSON.parse(g.body).type)).toEqual([
				'user.created',
				'user.created',
				'conversation.created',
				'message.created',
			]);
		// The same event has the same id at every receiver.
		expect(new Set([a, b, c].map((r) => JSON.parse(r.got[2].body).id)).size).toBe(1);
		expect(sb.deliveries).toHaveLength(12);
	});

	it('rejects a non-http(s) entry, naming it, and keeps the old configuration', () => {
		sb.configureWebhooks({ urls: 'http://127.0.0.1:9/a' });
		expect(() =>
			sb.configureWebhooks({ urls: 'http://127.0.0.1:9/a, ftp://files.example/x' }),
		).toThrow(/"ftp:\/\/files\.example\/x"/);
		expect(() => sb.configureWebhooks({ urls: 'not a url' })).toThrow(/"not"/);
		expect(() => sb.configureWebhooks({ style: 'xml' as WebhookStyle })).toThrow(
			/style must be one of/,
		);
		expect(() => sb.configureWebhooks({ kinds: { conversationOpened: true } as never })).toThrow(
			/unknown webhook kind conversationOpened/,
		);
		expect(() => sb.configureWebhooks({ retry: { attempts: 0 } })).toThrow(/attempts/);
		expect(sb.webhooks.urls).toEqual(['http://127.0.0.1:9/a']);
		expect(sb.configureWebhooks({ urls: ' , ' }).urls).toEqual([]);
	});

	it('sends only the kinds switched on', async () => {
		const r = await receiver();
		sb.configureWebhooks({ urls: r.url(), kinds: { messageCreated: false, userCreated: false } });
		expect(sb.webhooks.kinds).toEqual({
			conversationCreated: true,
			messageCreated: false,
			conversationClosed: true,
			userCreated: false,
			tagApplied: true,
			leadCaptured: true,
		});
		await scenario();
		expect(r.got.map((g) => JSON.parse(g.body).type)).toEqual([
			'conversation.created',
			'user.tag_applied',
			'contact.lead.created',
			'conversation.closed',
		]);

		r.got.length = 0;
		sb.configureWebhooks({ kinds: 'leadCaptured, conversationClosed' });
		sb.visitor.startConversation({ name: 'Pat', message: 'call me on +44 20 7946 0958' });
		await sb.settled();
		expect(r.got.map((g) => JSON.parse(g.body))).toEqual([
			expect.objectContaining({
				type: 'contact.lead.created',
				data: {
					object: expect.objectContaining({ phone: '+442079460958', captured_via: 'message' }),
				},
			}),
		]);
		expect(sb.emitWebhook('messageCreated')).toBeNull();
	});

	it('is empty after reset, and queued deliveries are dropped', async () => {
		const r = await receiver(() => ({ status: 200, delayMs: 100 }));
		sb.configureWebhooks({ urls: r.url(), style: 'nested', secret: SECRET, retry: 2 });
		sb.emitWebhook('userCreated');
		sb.emitWebhook('userCreated');
		sb.reset();
		expect(sb.webhooks).toEqual({
			urls: [],
			kinds: expect.objectContaining({ userCreated: true }),
			style: 'dotted',
			secret: null,
			retry: null,
			timeoutMs: 5000,
		});
		await sb.settled();
		expect(sb.deliveries).toEqual([]);
		expect(r.got.length).toBeLessThanOrEqual(1);
	});
});

// ---------------------------------------------------------------- signatures, verified independently

/** A Standard Webhooks verifier written from the scheme, not from the sandbox's code. */
function verify(
	secret: string,
	r: { headers: Record<string, unknown>; body: string },
	toleranceSeconds = 300,
): boolean {
	const id = r.headers['webhook-id'] as string | undefined;
	const timestamp = r.headers['webhook-timestamp'] as string | undefined;
	const signatures = r.headers['webhook-signature'] as string | undefined;
	if (!id || !timestamp || !signatures) return false;
	if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
	const key = secret.startsWith('whsec_')
		? Buffer.from(secret.slice(6), 'base64')
		: Buffer.from(secret, 'utf8');
	const expectedMac = createHmac('sha256', key).update(`${id}.${timestamp}.${r.body}`).digest();
	return signatures.split(' ').some((entry) => {
		const [version, value] = entry.split(',');
		const mac = Buffer.from(value ?? '', 'base64');
		return (
			version === 'v1' && mac.length === expectedMac.length && timingSafeEqual(mac, expectedMac)
		);
	});
}

describe('signatures (Standard Webhooks)', () => {
	it('matches the published test vector', () => {
		expect(
			signWebhook(
				'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
				'msg_p5jXN8AQM9LWM0D4loKWxJek',
				1614265330,
				'{"test": 2432232314}',
			),
		).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
	});

	it.each(['dotted', 'flat-php', 'event-header', 'nested', 'human'] as WebhookStyle[])(
		'%s deliveries verify',
		async (style) => {
			const r = await receiver();
			sb.configureWebhooks({ urls: r.url(), style, secret: SECRET });
			sb.visitor.startConversation({ name: 'Sig', message: 'Hi' });
			await sb.settled();
			expect(r.got).toHaveLength(3);
			for (const g of r.got) {
				expect(g.headers['webhook-id']).toMatch(/^evt_[0-9a-f]{24}$/);
				expect(g.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
				expect(verify(SECRET, g)).toBe(true);
				expect(verify(`whsec_${Buffer.from('another secret').toString('base64')}`, g)).toBe(false);
			}
			expect(read(style, r.got[0]).id).toBe(r.got[0].headers['webhook-id']);
		},
	);

	it('uses the UTF-8 bytes of a secret without whsec_', async () => {
		const r = await receiver();
		sb.configureWebhooks({ urls: r.url(), secret: 'just-text' });
		sb.emitWebhook('userCreated');
		await sb.settled();
		expect(verify('just-text', r.got[0])).toBe(true);
	});

	it('can send a wrong signature before the right one', async () => {
		const r = await receiver();
		sb.configureWebhooks({ urls: r.url(), secret: SECRET });
		expect(sb.webhookSignatureOptions({ extraInvalidSignature: true })).toEqual({
			extraInvalidSignature: true,
			tamper: null,
		});
		sb.emitWebhook('tagApplied');
		await sb.settled();
		const parts = (r.got[0].headers['webhook-signature'] as string).split(' ');
		expect(parts).toHaveLength(2);
		const only = (sig: string) => ({
			headers: { ...r.got[0].headers, 'webhook-signature': sig },
			body: r.got[0].body,
		});
		expect([
			verify(SECRET, only(parts[0])),
			verify(SECRET, only(parts[1])),
			verify(SECRET, r.got[0]),
		]).toEqual([false, true, true]);
	});

	it('spoils one event on request: body, signature, stale timestamp, unsigned', async () => {
		const r = await receiver();
		sb.configureWebhooks({ urls: r.url(), secret: SECRET });
		for (const tamper of ['body', 'signature', 'stale', 'unsigned'] as const) {
			sb.webhookSignatureOptions({ tamper });
			sb.emitWebhook('messageCreated');
		}
		sb.emitWebhook('messageCreated'); // one-shot: this one is fine again
		await sb.settled();
		expect(r.got.map((g) => verify(SECRET, g))).toEqual([false, false, false, false, true]);
		expect(JSON.parse(r.got[0].body).tampered).toBe(true);
		expect(verify(SECRET, r.got[2], 3600)).toBe(true); // stale, but rightly signed
		expect(Number(r.got[2].headers['webhook-timestamp'])).toBeLessThan(Date.now() / 1000 - 300);
		expect('webhook-signature' in r.got[3].headers).toBe(false);
		expect(sb.deliveries.map((d) => d.tamper ?? null)).toEqual([
			'body',
			'signature',
			'stale',
			'unsigned',
			null,
		]);
	});
});

// ---------------------------------------------------------------- delivery

describe('delivery', () => {
	it('retries a failure with the same id and body', async () => {
		const r = await receiver((n) => (n < 3 ? 503 : 204));
		sb.configureWebhooks({ urls: r.url(), secret: SECRET, retry: { attempts: 4, delayMs: 20 } });
		const id = sb.emitWebhook('conversationClosed');
		await sb.settled();
		expect(r.got).toHaveLength(3);
		expect(new Set(r.got.map((g) => g.headers['webhook-id']))).toEqual(new Set([id]));
		expect(new Set(r.got.map((g) => g.body)).size).toBe(1);
		expect(r.got.every((g) => verify(SECRET, g))).toBe(true);
		expect(sb.deliveries.map((d) => [d.attempt, d.status])).toEqual([
			[1, 503],
			[2, 503],
			[3, 204],
		]);
		expect(sb.deliveries[0]).toMatchObject({
			id,
			kind: 'conversationClosed',
			event: 'conversation.closed',
			style: 'dotted',
			url: r.url(),
			response: 'nope',
		});
	});

	it('logs a network error as status 0 and gives up after the last attempt; without retry, one attempt', async () => {
		const dead = await receiver();
		const url = dead.url();
		await dead.close();
		sb.configureWebhooks({ urls: url, retry: { attempts: 2, delayMs: 10 } });
		sb.emitWebhook('userCreated');
		await sb.settled();
		expect(sb.deliveries.map((d) => [d.attempt, d.status, typeof d.error])).toEqual([
			[1, 0, 'string'],
			[2, 0, 'string'],
		]);
		const r = await receiver(() => 500);
		sb.configureWebhooks({ urls: r.url(), retry: null });
		sb.emitWebhook('userCreated');
		await sb.settled();
		expect(r.got).toHaveLength(1);
	});

	it('times out a silent receiver', async () => {
		const r = await receiver(() => ({ status: 200, delayMs: 2000 }));
		sb.configureWebhooks({ urls: r.url(), timeoutMs: 100 });
		sb.emitWebhook('userCreated');
		await sb.settled();
		expect(sb.deliveries[0]).toMatchObject({ status: 0, error: expect.stringMatching(/100 ms/) });
	});

	it('does not slow the API answer, keeps order per receiver, and settled() waits for all', async () => {
		const slow = await receiver(() => ({ status: 200, delayMs: 300 }));
		const fast = await receiver();
		sb.configureWebhooks({ urls: [slow.url(), fast.url()], kinds: ['userCreated'] });
		const started = Date.now();
		for (const name of ['One', 'Two', 'Three'])
			expect((await api('POST', '/users', { name })).status).toBe(201);
		expect(Date.now() - started).toBeLessThan(300);
		await sb.settled();
		expect(Date.now() - started).toBeGreaterThanOrEqual(900);
		for (const r of [slow, fast])
			expect(r.got.map((g) => JSON.parse(g.body).data.object.name)).toEqual([
				'One',
				'Two',
				'Three',
			]);
		// One at a time per receiver: the next event waits for the slow answer.
		expect(slow.got[1].at - slow.got[0].at).toBeGreaterThanOrEqual(290);
		await expect(sb.settled()).resolves.toBeUndefined();
	});

	it('emits on demand, laying the given data over a sample', async () => {
		const r = await receiver();
		sb.configureWebhooks({ urls: r.url(), style: 'event-header' });
		const id = sb.emitWebhook('messageCreated', {
			message: { message: 'Demo text', type: 'agent' },
		});
		sb.emitWebhook('leadCaptured', {
			lead: { email: 'demo@example.com', phone: null, via: 'form' },
		});
		await sb.settled();
		expect(r.got[0].headers['x-webhook-id']).toBe(id);
		expect(JSON.parse(r.got[0].body)).toMatchObject({
			message: 'Demo text',
			type: 'agent',
			conversation_id: 'c_0002',
			user_id: 'u_0002',
			message_id: 'm_0002',
		});
		expect(JSON.parse(r.got[1].body)).toMatchObject({
			email: 'demo@example.com',
			via: 'form',
			user_id: 'u_0002',
			conversation_id: 'c_0002',
		});
		expect(() => sb.emitWebhook('nothing' as never)).toThrow(/unknown webhook kind/);
	});

	it('captures leads from the form (e-mail or phone) and from chat text', async () => {
		const r = await receiver();
		sb.configureWebhooks({ urls: r.url(), style: 'nested', kinds: ['leadCaptured'] });
		const chat = sb.visitor.startConversation({ message: 'Hello' });
		sb.visitor.say(chat.conversation.id, 'nothing to see here, 3 + 4 = 7');
		sb.visitor.say(chat.conversation.id, 'my number is +1 (555) 010-9999');
		sb.visitor.say(chat.conversation.id, 'again: +1 555 010 9999'); // nothing new
		sb.visitor.captureLead({ phone: '+15550001111', name: 'Phone Only' });
		expect(() => sb.visitor.captureLead({} as never)).toThrow(/email or phone/);
		await sb.settled();
		expect(r.got.map((g) => JSON.parse(g.body).payload.lead)).toEqual([
			{
				email: null,
				phone: '+15550109999',
				via: 'message',
				user_id: chat.user.id,
				conversation_id: chat.conversation.id,
			},
			{ email: null, phone: '+15550001111', via: 'form', user_id: 'u_0005', conversation_id: null },
		]);
		expect(sb.state.users.find((u) => u.id === chat.user.id)?.phone).toBe('+15550109999');
	});
});

describe('control API and command line', () => {
	it('configures webhooks, emits, and reads the deliveries', async () => {
		const r = await receiver();
		const set = await control('POST', '/webhooks', {
			urls: `${r.url('/x')}, ${r.url('/y')}`,
			style: 'human',
			secret: SECRET,
			kinds: { tagApplied: false },
		});
		expect(set).toMatchObject({
			status: 200,
			body: {
				urls: [r.url('/x'), r.url('/y')],
				style: 'human',
				secret: '***',
				kinds: { tagApplied: false },
			},
		});
		expect((await control('GET', '/webhooks')).body).toEqual(set.body);
		expect(
			(await control('POST', '/webhooks', { urls: 'mailto:someone@example.com' })).body.error,
		).toMatch(/"mailto:someone@example.com"/);
		expect(
			(await control('POST', '/webhooks/signature', { extraInvalidSignature: true })).body,
		).toEqual({ extraInvalidSignature: true, tamper: null });
		const emitted = await control('POST', '/webhooks/emit', { kind: 'conversationCreated' });
		expect(emitted).toMatchObject({ status: 202, body: { id: expect.stringMatching(/^evt_/) } });
		expect((await control('POST', '/webhooks/emit', { kind: 'tagApplied' })).body).toEqual({
			id: null,
		});
		await control('POST', '/visitor/conversations', { name: 'Ctl', message: 'Hi' });
		const log = (await control('GET', '/deliveries?settled=1')).body;
		expect(
			log.map((d: { event: string; url: string }) => `${d.event} ${new URL(d.url).pathname}`),
		).toEqual(
			expect.arrayContaining([
				'New Conversation /x',
				'New Conversation /y',
				'New User Created /x',
				'New Message /y',
			]),
		);
		expect(log).toHaveLength(8);
		expect(
			log.every((d: { headers: Record<string, string>; body: string }) => verify(SECRET, d)),
		).toBe(true);
		expect((await control('GET', '/deliveries?since=6')).body).toHaveLength(2);
		await control('DELETE', '/deliveries');
		expect(sb.deliveries).toHaveLength(0);
	});

	it('takes webhook flags on the command line', async () => {
		const r = await receiver();
		const cli = path.join(__dirname, '../../sandbox/cli.js');
		const child = spawn(
			process.execPath,
			[
				cli,
				'--port',
				'0',
				'--seed-users',
				'1',
				'--seed-conversations',
				'0',
				'--webhook-urls',
				`${r.url()}, `,
				'--webhook-style',
				'flat-php',
				'--webhook-secret',
				SECRET,
			],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		try {
			const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
			const controlUrl = chunk
				.toString()
				.split('\n')[0]
				.replace('/script/include/api', '/_sandbox');
			await fetch(`${controlUrl}/visitor/leads`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ email: 'cli@example.com' }),
			});
			await (await fetch(`${controlUrl}/deliveries?settled=1`)).json();
			expect(r.got.map((g) => new URLSearchParams(g.body).get('function'))).toEqual([
				'new-user-created',
				'new-email-address',
			]);
			expect(
				r.got.every(
					(g) => verify(SECRET, g) && new URLSearchParams(g.body).get('secret_key') === SECRET,
				),
			).toBe(true);
		} finally {
			child.kill('SIGTERM');
			await once(child, 'exit');
		}
	});
});
