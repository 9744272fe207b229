/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The Support Chat Trigger in n8n-core's real webhook context, fed by the deliveries the sandbox
 * really sends over HTTP, and workflows of trigger plus action nodes that react and call the service
 * back. What is asserted is what a user notices: which deliveries start a run, with which items, what
 * the service is answered, and what the service's data looks like afterwards.
 */
import * as http from 'node:http';

import type { IConnections, IDataObject, INode, INodeParameters } from 'n8n-workflow';

import type {
	Sandbox,
	WebhookDelivery,
	WebhookKind,
	WebhookStyle,
	WebhookTamper,
} from '../../sandbox';
import { startSandbox, WEBHOOK_STYLES } from '../../sandbox';
import type { ReceivedDelivery, Receiver, SavedWorkflow } from '../helpers/receiver';
import { startReceiver } from '../helpers/receiver';
import {
	ACTION_TYPE,
	byId,
	calls,
	credentialsFor,
	runAction,
	TOKEN,
	TRIGGER_TYPE,
} from '../helpers/supportChat';

const SECRET = `whsec_${Buffer.from('engine-test signing key, 32 bytes').toString('base64')}`;
const STYLES = WEBHOOK_STYLES as readonly WebhookStyle[];

let sandbox: Sandbox;
let receiver: Receiver;

beforeAll(async () => {
	sandbox = await startSandbox({ token: TOKEN });
	receiver = await startReceiver({ sandbox });
});
afterAll(async () => {
	await receiver.close();
	await sandbox.close();
});
beforeEach(() => {
	sandbox.reset();
	receiver.reset();
});
afterEach(async () => {
	await receiver.settled();
});

// ------------------------------------------------------------------------------------------ helpers

/** The credentials of a workflow: the sandbox's API, and the webhook secret the trigger checks with. */
const credentials = (webhookSecret?: string) =>
	credentialsFor(sandbox, webhookSecret === undefined ? {} : { webhookSecret });

/** The body a delivery carried, as the trigger should hand it on: JSON, or form fields with `data` read as JSON. */
function parsedBody(sent: WebhookDelivery): IDataObject {
	if (sent.headers['content-type'] === 'application/json')
		return JSON.parse(sent.body) as IDataObject;
	const fields: IDataObject = Object.fromEntries(new URLSearchParams(sent.body));
	fields.data = JSON.parse(fields.data as string) as IDataObject;
	return fields;
}

/** The sandbox's log entry of the attempt a receiver delivery answered. */
function sentFor(delivery: ReceivedDelivery): WebhookDelivery {
	const found = sandbox.deliveries.find(
		(entry) =>
			entry.url.endsWith(`/${delivery.endpoint}`) &&
			entry.body === delivery.rawBody.toString('utf8'),
	);
	if (found === undefined)
		throw new Error(
			`No sandbox delivery matches delivery ${delivery.index} to ${delivery.endpoint}`,
		);
	return found;
}

/** A visitor chats, leaves an e-mail address in a message, gets tagged and the chat is closed: all six kinds. */
async function everyKindOfEvent() {
	const started = sandbox.visitor.startConversation({
		name: 'Ada Lovelace',
		message: 'Hi, do you ship to Norway?',
	});
	const leadMessage = sandbox.visitor.say(
		started.conversation.id,
		'Write to me at ada@example.com',
	);
	await runAction(sandbox, {
		resource: 'tag',
		operation: 'add',
		userId: byId(started.user.id),
		tag: 'vip',
	});
	await runAction(sandbox, {
		resource: 'conversation',
		operation: 'close',
		conversationId: byId(started.conversation.id),
	});
	return { ...started, leadMessage };
}

/** What a sender that is not the sandbox posts: bytes and headers exactly as given. */
function post(
	url: string,
	body: string,
	headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
	return new Promise((resolve, reject) => {
		const request = http.request(
			url,
			{
				method: 'POST',
				headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					resolve({
						status: response.statusCode ?? 0,
						body: text === '' ? undefined : (JSON.parse(text) as unknown),
					});
				});
			},
		);
		request.on('error', reject);
		request.end(body);
	});
}

const started = (name?: string) => receiver.deliveries(name).filter((delivery) => delivery.started);
const eventsOf = (deliveries: ReceivedDelivery[]) =>
	deliveries.flatMap((delivery) => delivery.items.map((item) => item.event));

// A workflow as the editor saves it.
const triggerNode = (parameters: INodeParameters): INode => ({
	parameters,
	id: '3f1f7c1e-7a4e-4a55-9a0e-2b8f3c6d1a01',
	name: 'Support Chat Trigger',
	type: TRIGGER_TYPE,
	typeVersion: 1,
	position: [0, 0],
	webhookId: '9d1c2b3a-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
	credentials: { supportChatApi: { id: 'Yx2kq0bS1fGd7w3L', name: 'Support Chat account' } },
});

const actionNode = (
	name: string,
	position: [number, number],
	parameters: INodeParameters,
): INode => ({
	parameters,
	id: `${name.toLowerCase().replace(/\s+/g, '-')}-0000-4000-8000-000000000000`,
	name,
	type: ACTION_TYPE,
	typeVersion: 1,
	position,
	credentials: { supportChatApi: { id: 'Yx2kq0bS1fGd7w3L', name: 'Support Chat account' } },
});

function chain(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

const FROM_TRIGGER = "={{ $('Support Chat Trigger').item.json.conversationId }}";

/** Answers every New Message by sending one as agent: the workflow that would loop without loop prevention. */
const autoReply = (triggerParameters: INodeParameters): SavedWorkflow => ({
	nodes: [
		triggerNode(triggerParameters),
		actionNode('Reply', [220, 0], {
			resource: 'message',
			operation: 'send',
			conversationId: { __rl: true, value: '={{ $json.conversationId }}', mode: 'id' },
			message: 'Thanks, we got your message',
		}),
	],
	connections: chain('Support Chat Trigger', 'Reply'),
});

// ------------------------------------------------------------------ every payload style, every kind

describe.each(STYLES)('payload style %s', (style) => {
	it("emits one item per delivery, with the canonical event, the records' ids and the parsed body", async () => {
		const main = receiver.endpoint('main', { trigger: { events: ['*'] } });
		const second = receiver.endpoint('second', { trigger: { events: ['*'] } });
		sandbox.configureWebhooks({ urls: `${main}, ${second}`, style });

		const { user, conversation, message, leadMessage } = await everyKindOfEvent();
		await receiver.settled();

		const kinds: WebhookKind[] = [
			'userCreated',
			'conversationCreated',
			'messageCreated',
			'messageCreated',
			'leadCaptured',
			'tagApplied',
			'conversationClosed',
		];
		expect(sandbox.deliveries.filter((sent) => sent.url === main).map((sent) => sent.kind)).toEqual(
			kinds,
		);
		for (const name of ['main', 'second']) {
			const deliveries = receiver.deliveries(name);
			expect(deliveries.map((delivery) => delivery.status)).toEqual(kinds.map(() => 200));
			expect(deliveries.map((delivery) => delivery.body)).toEqual(
				kinds.map(() => ({ received: true })),
			);
			expect(deliveries.map((delivery) => delivery.items.length)).toEqual(kinds.map(() => 1));
			expect(eventsOf(deliveries)).toEqual(kinds);
		}
		// Both URLs got the same bytes.
		expect(receiver.deliveries('second').map((delivery) => delivery.rawBody.toString())).toEqual(
			receiver.deliveries('main').map((delivery) => delivery.rawBody.toString()),
		);

		const items = receiver.deliveries('main').map((delivery) => delivery.items[0]);
		const expected: IDataObject[] = [
			{ event: 'userCreated', userId: user.id, conversationId: null, messageId: null },
			// The opening message comes with the new conversation (the dotted style calls it `first_message`).
			{
				event: 'conversationCreated',
				conversationId: conversation.id,
				userId: user.id,
				messageId: message.id,
			},
			{
				event: 'messageCreated',
				conversationId: conversation.id,
				userId: user.id,
				messageId: message.id,
			},
			{
				event: 'messageCreated',
				conversationId: conversation.id,
				userId: user.id,
				messageId: leadMessage.id,
			},
			{
				event: 'leadCaptured',
				conversationId: conversation.id,
				userId: user.id,
				messageId: leadMessage.id,
			},
			{ event: 'tagApplied', userId: user.id, conversationId: null, messageId: null },
			{
				event: 'conversationClosed',
				conversationId: conversation.id,
				userId: user.id,
				messageId: null,
			},
		];
		items.forEach((item, index) => expect(item).toMatchObject(expected[index]));

		receiver.deliveries('main').forEach((delivery) => {
			const sent = sentFor(delivery);
			expect(delivery.items[0].body).toEqual(parsedBody(sent));
			expect(delivery.items[0].eventName).toBe(sent.event);
		});
	});
});

// ------------------------------------------------------------------------------------- event filter

describe('event filter', () => {
	it.each(STYLES)(
		'%s: with only Lead Captured selected, other kinds are answered 200 and start nothing',
		async (style) => {
			sandbox.configureWebhooks({
				urls: receiver.endpoint('leads', { trigger: { events: ['leadCaptured'] } }),
				style,
			});

			const { user } = await everyKindOfEvent();
			await receiver.settled();

			const deliveries = receiver.deliveries('leads');
			expect(deliveries).toHaveLength(7);
			expect(deliveries.every((delivery) => delivery.status === 200)).toBe(true);
			expect(eventsOf(started('leads'))).toEqual(['leadCaptured']);
			expect(started('leads')[0].items[0]).toMatchObject({ userId: user.id });
			const ignored = deliveries.filter((delivery) => !delivery.started);
			expect(ignored).toHaveLength(6);
			for (const delivery of ignored) {
				expect(delivery.response).toEqual({ noWebhookResponse: true });
				expect(delivery.body).toEqual({
					received: true,
					ignored: expect.stringMatching(/^event \w+ not selected$/),
				});
			}
		},
	);
});

// --------------------------------------------------------------------------------- Standard Webhooks

describe('Standard Webhooks verification (secret in the credentials)', () => {
	const signed = () =>
		receiver.endpoint('signed', {
			trigger: { events: ['*'], verification: 'standardWebhooks' },
			credentials: credentials(SECRET),
		});

	it.each(STYLES)('%s: signed deliveries start runs', async (style) => {
		sandbox.configureWebhooks({ urls: signed(), style, secret: SECRET });

		sandbox.visitor.startConversation({ name: 'Grace Hopper', message: 'Hello' });
		await receiver.settled();

		const deliveries = receiver.deliveries('signed');
		expect(deliveries.map((delivery) => [delivery.status, delivery.started])).toEqual([
			[200, true],
			[200, true],
			[200, true],
		]);
		expect(eventsOf(deliveries)).toEqual(['userCreated', 'conversationCreated', 'messageCreated']);
		// The delivery id is the signed webhook-id, whatever the style.
		expect(deliveries.map((delivery) => delivery.items[0].deliveryId)).toEqual(
			deliveries.map((delivery) => delivery.headers['webhook-id']),
		);
	});

	it.each<[WebhookTamper, string]>([
		['body', 'Invalid signature'],
		['signature', 'Invalid signature'],
		['stale', 'Timestamp outside the allowed tolerance'],
		['unsigned', 'Missing webhook-id, webhook-timestamp or webhook-signature header'],
	])(
		'a delivery spoiled by tamper mode %s is answered 401 and starts nothing',
		async (tamper, reason) => {
			sandbox.configureWebhooks({ urls: signed(), secret: SECRET, kinds: ['userCreated'] });

			sandbox.webhookSignatureOptions({ tamper });
			sandbox.emitWebhook('userCreated');
			sandbox.emitWebhook('userCreated');
			await receiver.settled();

			const [spoiled, genuine] = receiver.deliveries('signed');
			expect(sandbox.deliveries.map((sent) => sent.tamper)).toEqual([tamper, undefined]);
			expect(spoiled).toMatchObject({
				status: 401,
				body: { received: false, error: reason },
				started: false,
				items: [],
			});
			expect(spoiled.response).toEqual({ noWebhookResponse: true });
			expect(sandbox.deliveries[0].status).toBe(401);
			expect(genuine).toMatchObject({ status: 200, started: true });
		},
	);

	it('refused deliveries are not remembered: a retry is refused again and nothing is stored', async () => {
		sandbox.configureWebhooks({
			urls: signed(),
			secret: SECRET,
			kinds: ['userCreated'],
			retry: { attempts: 2, delayMs: 0 },
		});

		// The tampered body is refused; the sender retries the same id and the same spoiled body.
		sandbox.webhookSignatureOptions({ tamper: 'body' });
		sandbox.emitWebhook('userCreated');
		await receiver.settled();
		expect(receiver.deliveries('signed').map((delivery) => delivery.status)).toEqual([401, 401]);
		expect(receiver.staticData('signed')).toEqual({});
	});

	it('passes the two-signature variant (a wrong signature before the right one)', async () => {
		sandbox.configureWebhooks({ urls: signed(), secret: SECRET });
		sandbox.webhookSignatureOptions({ extraInvalidSignature: true });

		sandbox.visitor.startConversation({ message: 'Two signatures' });
		await receiver.settled();

		const deliveries = receiver.deliveries('signed');
		expect(deliveries).toHaveLength(3);
		expect(
			deliveries.every((delivery) => delivery.headers['webhook-signature'].split(' ').length === 2),
		).toBe(true);
		expect(deliveries.every((delivery) => delivery.status === 200 && delivery.started)).toBe(true);
	});

	it('refuses every delivery when the credentials hold another secret, or none', async () => {
		const other = receiver.endpoint('other', {
			trigger: { events: ['*'], verification: 'standardWebhooks' },
			credentials: credentials(`whsec_${Buffer.from('another key entirely').toString('base64')}`),
		});
		const none = receiver.endpoint('none', {
			trigger: { events: ['*'], verification: 'standardWebhooks' },
			credentials: credentials(),
		});
		sandbox.configureWebhooks({ urls: [other, none], secret: SECRET, kinds: ['userCreated'] });

		sandbox.emitWebhook('userCreated');
		await receiver.settled();

		expect(receiver.deliveries('other')).toEqual([
			expect.objectContaining({
				status: 401,
				started: false,
				body: { received: false, error: 'Invalid signature' },
			}),
		]);
		expect(receiver.deliveries('none')).toEqual([
			expect.objectContaining({
				status: 401,
				started: false,
				body: { received: false, error: 'Webhook secret not configured' },
			}),
		]);
	});
});

// ----------------------------------------------------------------------- secret field in the body

describe('secret field in the body (flat-php secret_key)', () => {
	const PHP_SECRET = 'php-shared-secret-7d41';
	const php = (webhookSecret: string) =>
		receiver.endpoint('php', {
			trigger: { events: ['*'], verification: 'bodyField', keyField: 'secret_key' },
			credentials: credentials(webhookSecret),
		});

	it('runs when secret_key matches, and the secret never reaches the items', async () => {
		sandbox.configureWebhooks({ urls: php(PHP_SECRET), style: 'flat-php', secret: PHP_SECRET });

		const { user } = sandbox.visitor.startConversation({ name: 'Alan Turing', message: 'Hello' });
		await receiver.settled();

		const deliveries = receiver.deliveries('php');
		expect(deliveries.map((delivery) => delivery.rawBody.toString())).toEqual(
			deliveries.map(() => expect.stringContaining(`secret_key=${PHP_SECRET}`)),
		);
		expect(deliveries.map((delivery) => [delivery.status, delivery.started])).toEqual([
			[200, true],
			[200, true],
			[200, true],
		]);
		expect(deliveries[0].items[0]).toMatchObject({
			event: 'userCreated',
			userId: user.id,
			body: { secret_key: '[redacted]' },
		});
		expect(JSON.stringify(deliveries.map((delivery) => delivery.items))).not.toContain(PHP_SECRET);
	});

	it('answers 401 for a wrong secret_key, and for none', async () => {
		sandbox.configureWebhooks({
			urls: php('not-the-secret'),
			style: 'flat-php',
			secret: PHP_SECRET,
			kinds: ['userCreated'],
		});
		sandbox.emitWebhook('userCreated');
		sandbox.configureWebhooks({ secret: null });
		sandbox.emitWebhook('userCreated');
		await receiver.settled();

		expect(receiver.deliveries('php')).toEqual([
			expect.objectContaining({
				status: 401,
				started: false,
				body: { received: false, error: 'Invalid secret key' },
			}),
			expect.objectContaining({
				status: 401,
				started: false,
				body: { received: false, error: 'Missing "secret_key" field' },
			}),
		]);
	});
});

// ------------------------------------------------------------------------------- retries, dedupe

describe("a sender's retry of a delivery already handled", () => {
	/** Greets every new conversation: a retry that ran twice would greet twice. */
	const greeter = (verification: 'none' | 'standardWebhooks'): SavedWorkflow => ({
		nodes: [
			triggerNode({ events: ['conversationCreated'], verification }),
			actionNode('Greet', [220, 0], {
				resource: 'message',
				operation: 'send',
				conversationId: { __rl: true, value: '={{ $json.conversationId }}', mode: 'id' },
				message: 'Hello! An agent will be with you shortly.',
			}),
		],
		connections: chain('Support Chat Trigger', 'Greet'),
	});

	async function retried(
		style: WebhookStyle,
		spoil: 500 | 'drop',
		verification: 'none' | 'standardWebhooks',
	) {
		const url = receiver.endpoint('greeter', {
			workflow: greeter(verification),
			credentials: credentials(SECRET),
		});
		sandbox.configureWebhooks({
			urls: url,
			style,
			kinds: ['conversationCreated'],
			retry: { attempts: 3, delayMs: 0 },
			secret: verification === 'none' ? null : SECRET,
		});
		// The trigger handles the first attempt and a run starts; the sender never gets the answer.
		receiver.spoilNext('greeter', spoil);

		const { conversation } = sandbox.visitor.startConversation({ message: 'Anyone there?' });
		await receiver.settled();

		expect(sandbox.deliveries.map((sent) => [sent.attempt, sent.status])).toEqual([
			[1, spoil === 500 ? 500 : 0],
			[2, 200],
		]);
		const [first, retry] = receiver.deliveries('greeter');
		expect(first).toMatchObject({ status: 200, started: true, spoiled: spoil });
		expect(retry).toMatchObject({
			status: 200,
			started: false,
			body: { received: true, ignored: 'duplicate delivery' },
		});
		// The memory of the delivery went through JSON between the two calls, as n8n saves static data.
		const saved = Object.values(receiver.staticData('greeter')['node:Support Chat Trigger'] ?? {});
		expect(saved).toContainEqual(
			expect.objectContaining({ seen: expect.arrayContaining([expect.any(Array)]) }),
		);

		expect(receiver.runs('greeter')).toHaveLength(1);
		expect(receiver.runs('greeter')[0].status).toBe('success');
		const greetings = sandbox.state.messages.filter(
			(m) => m.conversation_id === conversation.id && m.type === 'agent',
		);
		expect(greetings.map((m) => m.message)).toEqual(['Hello! An agent will be with you shortly.']);
		expect(calls(sandbox)).toEqual(['POST /messages']);
	}

	const unsignedStyles = STYLES.filter((style) => style !== 'nested');
	describe.each<500 | 'drop'>([500, 'drop'])('first answer spoiled (%s)', (spoil) => {
		it.each(unsignedStyles)(
			'%s, unsigned: the id in the payload stops the second run',
			async (style) => {
				await retried(style, spoil, 'none');
			},
		);

		it.each(STYLES)('%s, Standard Webhooks: the webhook-id stops the second run', async (style) => {
			await retried(style, spoil, 'standardWebhooks');
		});

		// The nested style carries its delivery id only in `webhook.event_id` (DELIVERY_META_OBJECTS,
		// trigger/payloadStyles.ts): without it an unsigned nested delivery would have no id, and its
		// retry would greet the visitor twice.
		it('nested, unsigned: the webhook.event_id stops the second run', async () => {
			await retried('nested', spoil, 'none');
		});
	});
});

// ----------------------------------------------------------------------------- loop prevention

describe('loop prevention', () => {
	it.each(STYLES)(
		"%s: a visitor's message starts the reply workflow, its agent reply and other agent messages start nothing",
		async (style) => {
			sandbox.configureWebhooks({
				urls: receiver.endpoint('replies', {
					workflow: autoReply({ events: ['messageCreated'] }),
					credentials: credentials(),
				}),
				style,
				kinds: ['messageCreated'],
			});
			const { conversation } = sandbox.visitor.startConversation({ message: 'Is anybody there?' });
			await receiver.settled();

			// An agent message sent through the action node, as another workflow would.
			await runAction(sandbox, {
				resource: 'message',
				operation: 'send',
				conversationId: byId(conversation.id),
				message: 'Sent from another workflow',
			});
			await receiver.settled();

			const deliveries = receiver.deliveries('replies');
			expect(deliveries.map((delivery) => sentFor(delivery).kind)).toEqual([
				'messageCreated',
				'messageCreated',
				'messageCreated',
			]);
			expect(deliveries.map((delivery) => [delivery.status, delivery.started])).toEqual([
				[200, true],
				[200, false],
				[200, false],
			]);
			for (const own of deliveries.slice(1)) {
				expect(own.body).toEqual({ received: true, ignored: 'own message (sender type agent)' });
			}
			expect(receiver.runs('replies')).toHaveLength(1);
			expect(sandbox.state.messages.map((m) => [m.type, m.message])).toEqual([
				['user', 'Is anybody there?'],
				['agent', 'Thanks, we got your message'],
				['agent', 'Sent from another workflow'],
			]);
		},
	);
});

// ------------------------------------------------------------------- the call-back round trip

describe('on Lead Captured: tag the user, assign the conversation, answer the visitor', () => {
	const leadWorkflow: SavedWorkflow = {
		nodes: [
			triggerNode({ events: ['leadCaptured'], verification: 'standardWebhooks', options: {} }),
			actionNode('Tag as lead', [220, 0], {
				resource: 'tag',
				operation: 'add',
				userId: { __rl: true, value: '={{ $json.userId }}', mode: 'id' },
				tag: 'lead',
			}),
			actionNode('Assign to sales', [440, 0], {
				resource: 'conversation',
				operation: 'assign',
				conversationId: { __rl: true, value: FROM_TRIGGER, mode: 'id' },
				assignee: 'agent_sales',
			}),
			actionNode('Tell the visitor', [660, 0], {
				resource: 'message',
				operation: 'send',
				conversationId: { __rl: true, value: FROM_TRIGGER, mode: 'id' },
				message: 'Thanks, a sales agent will contact you',
			}),
		],
		connections: chain(
			'Support Chat Trigger',
			'Tag as lead',
			'Assign to sales',
			'Tell the visitor',
		),
	};

	const leaveLead: Record<string, (conversationId: string) => void> = {
		'an e-mail address in a chat message': (conversationId) =>
			void sandbox.visitor.say(conversationId, 'Sure, my e-mail is lin@example.org'),
		'the lead form': (conversationId) =>
			void sandbox.visitor.captureLead({ email: 'lin@example.org', conversationId }),
	};

	describe.each(STYLES)('payload style %s', (style) => {
		it.each(Object.keys(leaveLead))('lead through %s', async (how) => {
			const main = receiver.endpoint('leads', {
				workflow: leadWorkflow,
				credentials: credentials(SECRET),
			});
			// The second URL: an audit trigger listening to everything on the same deliveries.
			const audit = receiver.endpoint('audit', {
				trigger: { events: ['*'], verification: 'standardWebhooks' },
				credentials: credentials(SECRET),
			});
			sandbox.configureWebhooks({ urls: `${main},${audit}`, style, secret: SECRET });

			const { user, conversation } = sandbox.visitor.startConversation({
				name: 'Lin Wei',
				message: 'Do you offer volume pricing?',
			});
			expect(conversation.status).toBe('pending');
			await receiver.settled();
			expect(started('leads')).toEqual([]);

			leaveLead[how](conversation.id);
			await receiver.settled();

			// One run, from the lead delivery, that went through every node.
			expect(eventsOf(started('leads'))).toEqual(['leadCaptured']);
			const [run] = receiver.runs('leads');
			expect(receiver.runs('leads')).toHaveLength(1);
			expect(run.status).toBe('success');
			expect(run.output('Support Chat Trigger')[0].json).toMatchObject({
				userId: user.id,
				conversationId: conversation.id,
			});
			expect(run.output('Tell the visitor')).toHaveLength(1);

			// The service's state afterwards.
			const after = sandbox.state;
			expect(after.users.find((u) => u.id === user.id)).toMatchObject({
				email: 'lin@example.org',
				tags: ['lead'],
			});
			expect(after.conversations.find((c) => c.id === conversation.id)).toMatchObject({
				assignee_id: 'agent_sales',
				status: 'active',
			});
			expect(
				after.messages.filter((m) => m.conversation_id === conversation.id && m.type === 'agent'),
			).toEqual([expect.objectContaining({ message: 'Thanks, a sales agent will contact you' })]);
			expect(calls(sandbox)).toEqual([
				'POST /tags',
				`POST /conversations/${conversation.id}/assign`,
				'POST /messages',
			]);
			expect(sandbox.requests.map((request) => request.body)).toEqual([
				{ user_id: user.id, tag: 'lead' },
				{ agent_id: 'agent_sales' },
				{
					conversation_id: conversation.id,
					message: 'Thanks, a sales agent will contact you',
					type: 'agent',
				},
			]);

			// The round trip's own events reached both URLs; none started another run.
			const leadIndex = receiver.deliveries('leads').findIndex((delivery) => delivery.started);
			const afterRun = receiver.deliveries('leads').slice(leadIndex + 1);
			expect(afterRun.map((delivery) => sentFor(delivery).kind)).toEqual([
				'tagApplied',
				'messageCreated',
			]);
			expect(afterRun.every((delivery) => delivery.status === 200 && !delivery.started)).toBe(true);
			const auditAgentMessage = receiver
				.deliveries('audit')
				.filter((delivery) => sentFor(delivery).kind === 'messageCreated')
				.at(-1);
			expect(auditAgentMessage).toMatchObject({
				status: 200,
				started: false,
				body: { received: true, ignored: 'own message (sender type agent)' },
			});
			expect(receiver.deliveries('audit').map((delivery) => delivery.rawBody.toString())).toEqual(
				receiver.deliveries('leads').map((delivery) => delivery.rawBody.toString()),
			);
		});
	});
});

// ---------------------------------------------------------------------------------- malformed

describe('malformed bodies', () => {
	let url: string;
	beforeEach(() => {
		url = receiver.endpoint('raw', { trigger: { events: ['*'] } });
	});

	it.each<[string, string, Record<string, string>, string]>([
		[
			'broken JSON labelled text/plain',
			'{"event":"message.created","data":{"id":',
			{ 'content-type': 'text/plain' },
			'Malformed JSON body',
		],
		[
			'broken JSON without a content type',
			'{"event":"message.created",',
			{},
			'Malformed JSON body',
		],
		[
			'broken JSON inside a form field',
			`function=message-sent&data=${encodeURIComponent('{"message_id":"m_1","conversation_id":')}&delivery_id=evt_1`,
			{ 'content-type': 'application/x-www-form-urlencoded' },
			'Field "data" is not valid JSON',
		],
	])('%s: 400, nothing started', async (_name, body, headers, error) => {
		const answer = await post(url, body, headers);
		await receiver.settled();

		expect(answer).toEqual({ status: 400, body: { received: false, error } });
		expect(receiver.deliveries('raw')).toEqual([
			expect.objectContaining({ status: 400, started: false, items: [] }),
		]);
	});

	it("broken JSON labelled application/json: n8n's body parser answers 422 before the trigger runs", async () => {
		const answer = await post(url, '{"event":', { 'content-type': 'application/json' });
		await receiver.settled();

		expect(answer).toMatchObject({
			status: 422,
			body: { message: 'Failed to parse request body' },
		});
		expect(receiver.deliveries('raw')).toEqual([
			expect.objectContaining({ status: 422, started: false }),
		]);
	});
});
