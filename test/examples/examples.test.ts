/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The example workflows in examples/, checked the way n8n treats them, then run.
 *
 * Static: each file is a workflow as n8n exports it; its connections name existing nodes; OUR nodes
 * pass the checks n8n itself makes: the editor's (`NodeHelpers.getNodeParametersIssues` over the
 * parameters resolved with their defaults) and the server's on publish (the same call over the
 * parameters as saved, plus `validateNodeCredentials`), and their parameters are in the form the
 * editor saves (defaults left out). Foreign nodes are n8n core nodes only, at n8n 2.41.1's versions.
 *
 * Runs: lead-escalation end to end: the sandbox delivers a signed `leadCaptured` webhook to a
 * receiver that hands it to the trigger's real `webhook()` (n8n-core's WebhookContext); the items it
 * returns start the example's workflow in the engine against the sandbox, in every payload style the
 * sandbox sends. The other examples use n8n core nodes (Filter, Schedule Trigger, Data table), which
 * are not installed in this package and cannot run here: the end-to-end suite imports them into a
 * real n8n. What can run here runs: our nodes against the sandbox, with the core nodes replaced by
 * the stand-ins of coreStandIns.ts (Filter conditions evaluated by n8n-core's own filter code).
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { DirectoryLoader } from 'n8n-core';
import { NodeHelpers, validateNodeCredentials } from 'n8n-workflow';
import type {
	IConnections,
	IDataObject,
	INode,
	INodeParameterResourceLocator,
	INodeType,
} from 'n8n-workflow';

import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import { SupportChatPollTrigger } from '../../nodes/SupportChat/SupportChatPollTrigger.node';
import { SupportChatTrigger } from '../../nodes/SupportChat/SupportChatTrigger.node';
import type { Sandbox, WebhookKind, WebhookStyle } from '../../sandbox';
import { startSandbox, WEBHOOK_STYLES } from '../../sandbox';
import type { EngineRun, WebhookResult } from '../helpers/engine';
import { callWebhook, runWorkflow } from '../helpers/engine';
import { ACTION_TYPE, credentialsFor, TOKEN, TRIGGER_TYPE } from '../helpers/supportChat';
import type { CoreNodeType } from './coreStandIns';
import { CORE_VERSIONS, coreStandIns } from './coreStandIns';

const EXAMPLES_DIR = path.join(__dirname, '..', '..', 'examples');
const FILES = [
	'auto-tag-by-keyword.json',
	'catch-up-both-triggers.json',
	'close-idle-conversations.json',
	'lead-escalation.json',
	'sync-new-users.json',
];
const CREDENTIAL_NAME = 'Support Chat account';
const SECRET = `whsec_${Buffer.from('examples-test-signing-secret').toString('base64')}`;
const POLL_TRIGGER_TYPE = 'n8n-nodes-support-chat.supportChatPollTrigger';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface ExampleWorkflow {
	name: string;
	nodes: INode[];
	connections: IConnections;
	settings: IDataObject;
	pinData: IDataObject;
}

/** As n8n's loader hands a poller to the editor: with the Poll Times parameter it adds to every node that polls. */
function asLoaded<T extends INodeType>(type: T): T {
	// The loader's own method (private in its typings): the parameter as n8n adds it, not a copy.
	DirectoryLoader.prototype['applySpecialNodeParameters'].call(undefined, type);
	return type;
}

const OUR_TYPES: Record<string, INodeType> = {
	[ACTION_TYPE]: new SupportChat(),
	[TRIGGER_TYPE]: new SupportChatTrigger(),
	[POLL_TRIGGER_TYPE]: asLoaded(new SupportChatPollTrigger()),
};

function load(file: string): ExampleWorkflow {
	return JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as ExampleWorkflow;
}

function node(workflow: ExampleWorkflow, name: string): INode {
	const found = workflow.nodes.find((entry) => entry.name === name);
	if (found === undefined) throw new Error(`no node "${name}"`);
	return found;
}

const ours = (workflow: ExampleWorkflow) =>
	workflow.nodes.filter((entry) => OUR_TYPES[entry.type] !== undefined);

describe('the examples folder', () => {
	it('holds exactly the documented examples', () => {
		expect(readdirSync(EXAMPLES_DIR).sort()).toEqual(FILES);
	});

	it('gives every trigger its own webhook id, so all examples can be active in one n8n', () => {
		const ids = FILES.flatMap((file) => load(file).nodes.map((entry) => entry.webhookId)).filter(
			Boolean,
		);
		expect(ids.length).toBe(4);
		expect(new Set(ids).size).toBe(ids.length);
	});
});

describe.each(FILES)('%s', (file) => {
	let workflow: ExampleWorkflow;
	beforeAll(() => {
		workflow = load(file);
	});

	it('is a workflow as n8n exports it', () => {
		expect(Object.keys(workflow).sort()).toEqual([
			'connections',
			'name',
			'nodes',
			'pinData',
			'settings',
		]);
		expect(workflow.name).toMatch(/^Support Chat: /);
		expect(workflow.settings).toEqual({ executionOrder: 'v1' });
		expect(workflow.pinData).toEqual({});
		for (const entry of workflow.nodes) {
			expect(entry).toEqual(
				expect.objectContaining({
					id: expect.stringMatching(UUID),
					name: expect.any(String),
					type: expect.any(String),
					typeVersion: expect.any(Number),
					position: [expect.any(Number), expect.any(Number)],
					parameters: expect.any(Object),
				}),
			);
		}
	});

	it('has unique node ids and names', () => {
		const ids = workflow.nodes.map((entry) => entry.id);
		const names = workflow.nodes.map((entry) => entry.name);
		expect(new Set(ids).size).toBe(ids.length);
		expect(new Set(names).size).toBe(names.length);
	});

	it('connects only nodes that exist, and every node but the triggers has an input', () => {
		const names = new Set(workflow.nodes.map((entry) => entry.name));
		const targets = new Set<string>();
		for (const [source, byType] of Object.entries(workflow.connections)) {
			expect(names).toContain(source);
			expect(Object.keys(byType)).toEqual(['main']);
			for (const output of byType.main) {
				for (const connection of output ?? []) {
					expect(names).toContain(connection.node);
					expect(connection).toEqual({ node: connection.node, type: 'main', index: 0 });
					targets.add(connection.node);
				}
			}
		}
		const roots = workflow.nodes.filter((entry) => !targets.has(entry.name));
		expect(roots.length).toBeGreaterThanOrEqual(1);
		for (const root of roots) expect(root.type).toMatch(/Trigger$/);
	});

	it('uses our node types at their versions and n8n core nodes at n8n 2.41.1 versions, nothing else', () => {
		for (const entry of workflow.nodes) {
			const ourType = OUR_TYPES[entry.type];
			if (ourType !== undefined) {
				expect(entry.typeVersion).toBe(ourType.description.version);
			} else {
				expect(entry.type).toMatch(/^n8n-nodes-base\./);
				expect(entry.typeVersion).toBe(CORE_VERSIONS[entry.type as CoreNodeType]);
			}
		}
	});

	it("passes the parameter checks of n8n's editor and of its publish step", () => {
		for (const entry of ours(workflow)) {
			const { description } = OUR_TYPES[entry.type];
			const resolved = NodeHelpers.getNodeParameters(
				description.properties,
				entry.parameters,
				true,
				false,
				entry,
				description,
			);
			expect(resolved).not.toBeNull();
			const inEditor = NodeHelpers.getNodeParametersIssues(
				description.properties,
				{ ...entry, parameters: resolved! },
				description,
			);
			const onPublish = NodeHelpers.getNodeParametersIssues(
				description.properties,
				entry,
				description,
			);
			expect({ node: entry.name, inEditor, onPublish }).toEqual({
				node: entry.name,
				inEditor: null,
				onPublish: null,
			});
		}
	});

	it('saves our parameters as the editor does: defaults left out, nothing the node does not know', () => {
		for (const entry of ours(workflow)) {
			const { description } = OUR_TYPES[entry.type];
			const saved = NodeHelpers.getNodeParameters(
				description.properties,
				entry.parameters,
				false,
				false,
				entry,
				description,
			);
			expect({ node: entry.name, parameters: saved }).toEqual({
				node: entry.name,
				parameters: entry.parameters,
			});
		}
	});

	it('gives our nodes the Support Chat credentials where they need them', () => {
		for (const entry of ours(workflow)) {
			expect({
				node: entry.name,
				issues: validateNodeCredentials(entry, OUR_TYPES[entry.type]),
			}).toEqual({ node: entry.name, issues: [] });
			expect(entry.credentials).toEqual({
				supportChatApi: { id: expect.any(String), name: CREDENTIAL_NAME },
			});
		}
		for (const entry of workflow.nodes.filter(
			(candidate) => OUR_TYPES[candidate.type] === undefined,
		)) {
			expect(entry.credentials).toBeUndefined();
		}
	});

	it('picks users and conversations with resource locators in their saved form', () => {
		for (const entry of ours(workflow)) {
			for (const name of ['userId', 'conversationId']) {
				const value = entry.parameters[name] as INodeParameterResourceLocator | undefined;
				if (value === undefined) continue;
				expect(value).toEqual({
					__rl: true,
					mode: 'id',
					value: expect.stringMatching(/^=\{\{ .+ \}\}$/),
				});
			}
		}
	});

	it('verifies deliveries and has a webhook id on its Support Chat trigger, if it has one', () => {
		for (const entry of workflow.nodes.filter((candidate) => candidate.type === TRIGGER_TYPE)) {
			// Standard Webhooks for the service of the description; Support Board's Secret key in the body.
			expect(['standardWebhooks', 'bodyField']).toContain(entry.parameters.verification);
			expect(entry.webhookId).toMatch(UUID);
		}
	});
});

// ---------------------------------------------------------------- runs

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		token: TOKEN,
		pagination: 'page',
		pageSize: 3,
		seed: { users: 6, conversations: 9, tags: ['vip'] },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

const credentials = () => credentialsFor(sandbox, { webhookSecret: SECRET });

/** Node types for a run: ours and the core stand-ins. */
const engineTypes = (): Record<string, INodeType> => ({ ...OUR_TYPES, ...coreStandIns });

interface Delivery {
	webhook: WebhookResult;
	/** The workflow run the delivery started, if it started one. */
	run?: EngineRun;
}

interface Receiver {
	url: string;
	deliveries: Delivery[];
	/** Resolves once every delivery received so far has been answered and its run has ended. */
	idle(): Promise<void>;
	close(): Promise<void>;
}

/**
 * What n8n does with a webhook call to a production URL, in-process: the trigger's `webhook()` runs
 * under n8n-core's WebhookContext (static data kept between calls, as n8n saves it), the answer goes
 * back at once (response mode onReceived), and when the trigger returned items, the example's
 * workflow runs from the trigger with them.
 */
async function receiver(workflow: ExampleWorkflow, triggerName: string): Promise<Receiver> {
	const trigger = node(workflow, triggerName);
	const deliveries: Delivery[] = [];
	const pending = new Set<Promise<void>>();
	let staticData: IDataObject = {};

	async function handle(
		request: http.IncomingMessage,
		body: Buffer,
		response: http.ServerResponse,
	) {
		const headers = Object.fromEntries(
			Object.entries(request.headers).map(([name, value]) => [
				name,
				Array.isArray(value) ? value.join(', ') : String(value),
			]),
		);
		const webhook = await callWebhook({
			node: trigger,
			nodeType: OUR_TYPES[TRIGGER_TYPE],
			credentials: credentials(),
			staticData,
			request: { method: request.method, headers, body },
		});
		staticData = webhook.staticData;
		const answer =
			typeof webhook.responseBody === 'string'
				? webhook.responseBody
				: JSON.stringify(webhook.responseBody);
		response.writeHead(webhook.status, { 'content-type': 'application/json' }).end(answer);
		const delivery: Delivery = { webhook };
		deliveries.push(delivery);
		const items = webhook.response.workflowData?.[0];
		if (items !== undefined) {
			delivery.run = await runWorkflow({
				workflow: {
					nodes: workflow.nodes,
					connections: workflow.connections,
					settings: { executionOrder: 'v1' },
				},
				nodeTypes: engineTypes(),
				credentials: credentials(),
				startNode: triggerName,
				startItems: items.map((item) => item.json),
				mode: 'webhook',
			});
		}
	}

	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const done = handle(request, Buffer.concat(chunks), response).catch((error: Error) => {
				if (!response.headersSent) response.writeHead(500).end(error.message);
				throw error;
			});
			pending.add(done);
			void done.finally(() => pending.delete(done)).catch(() => {});
		});
	});
	server.listen(0, '127.0.0.1');
	await new Promise((resolve) => server.once('listening', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/webhook/${trigger.webhookId}/webhook`,
		deliveries,
		idle: async () => {
			while (pending.size > 0) await Promise.all([...pending]);
		},
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

let open: Receiver | undefined;
afterEach(async () => {
	await open?.close();
	open = undefined;
});

/** Points the sandbox's webhooks at a receiver for `workflow`, as its dashboard would be set up. */
async function deliverTo(
	workflow: ExampleWorkflow,
	triggerName: string,
	kind: WebhookKind,
	style: WebhookStyle,
) {
	open = await receiver(workflow, triggerName);
	sandbox.configureWebhooks({ urls: open.url, kinds: [kind], style, secret: SECRET });
	return open;
}

async function settle(target: Receiver): Promise<void> {
	await sandbox.settled();
	await target.idle();
}

function expectSuccess(run: EngineRun | undefined): EngineRun {
	expect(run).toBeDefined();
	expect({ status: run!.status, error: run!.error()?.message }).toEqual({
		status: 'success',
		error: undefined,
	});
	return run!;
}

const apiCalls = () => sandbox.requests.map((request) => `${request.method} ${request.path}`);

describe('lead-escalation.json, end to end', () => {
	const workflow = load('lead-escalation.json');

	it.each(WEBHOOK_STYLES)(
		'a lead left in the chat is tagged, assigned and answered (%s payloads)',
		async (style) => {
			const target = await deliverTo(workflow, 'Lead Captured', 'leadCaptured', style);
			const { user, conversation } = sandbox.visitor.startConversation({
				name: 'Ada Lovelace',
				message: 'Do you ship to Norway?',
			});
			sandbox.clearLog();

			sandbox.visitor.say(conversation.id, 'Please write to me at ada@example.com');
			await settle(target);

			expect(sandbox.deliveries).toHaveLength(1);
			expect(sandbox.deliveries[0]).toMatchObject({ kind: 'leadCaptured', status: 200 });
			expect(JSON.parse(sandbox.deliveries[0].response ?? '')).toEqual({ received: true });
			const [delivery] = target.deliveries;
			expect(delivery.webhook.response.workflowData?.[0][0].json).toMatchObject({
				event: 'leadCaptured',
				userId: user.id,
				conversationId: conversation.id,
			});

			expectSuccess(delivery.run);
			expect(apiCalls()).toEqual([
				'POST /tags',
				`POST /conversations/${conversation.id}/assign`,
				'POST /messages',
			]);
			expect(sandbox.state.users.find((entry) => entry.id === user.id)?.tags).toEqual(['lead']);
			expect(
				sandbox.state.conversations.find((entry) => entry.id === conversation.id)?.assignee_id,
			).toBe('7');
			expect(
				sandbox.state.messages.filter((entry) => entry.conversation_id === conversation.id).at(-1),
			).toMatchObject({
				type: 'agent',
				message: 'Thanks for leaving your details! One of our sales team will reply here shortly.',
			});
		},
	);

	it('a forged delivery is answered 401 and changes nothing', async () => {
		const target = await deliverTo(workflow, 'Lead Captured', 'leadCaptured', 'dotted');
		const { conversation } = sandbox.visitor.startConversation({ message: 'Hi' });
		sandbox.clearLog();
		sandbox.webhookSignatureOptions({ tamper: 'signature' });

		sandbox.visitor.say(conversation.id, 'mail me: grace@example.com');
		await settle(target);

		expect(sandbox.deliveries[0]).toMatchObject({ status: 401 });
		expect(JSON.parse(sandbox.deliveries[0].response ?? '')).toEqual({
			received: false,
			error: 'Invalid signature',
		});
		expect(target.deliveries[0].run).toBeUndefined();
		expect(apiCalls()).toEqual([]);
	});
});

describe('auto-tag-by-keyword.json, our part (Filter by stand-in)', () => {
	const workflow = load('auto-tag-by-keyword.json');

	it.each(WEBHOOK_STYLES)(
		'tags the writer by the words of the message, and ignores our own messages (%s payloads)',
		async (style) => {
			const target = await deliverTo(workflow, 'New Message', 'messageCreated', style);
			const started = sandbox.visitor.startConversation({ name: 'Visitor', message: 'Hello' });
			const userId = started.user.id;
			const tagsOf = () => sandbox.state.users.find((entry) => entry.id === userId)?.tags;
			await settle(target);
			expect(tagsOf()).toEqual([]);

			sandbox.visitor.say(started.conversation.id, 'I was CHARGED twice, where is my Invoice?');
			await settle(target);
			expect(tagsOf()).toEqual(['billing']);

			sandbox.visitor.say(started.conversation.id, 'Could I book a demo and get a quote?');
			await settle(target);
			expect(tagsOf()).toEqual(['billing', 'sales']);

			// Sent as agent: the workflow's own side. Loop protection leaves it out, though it names a price.
			await fetch(`${sandbox.baseUrl}/messages`, {
				method: 'POST',
				headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
				body: JSON.stringify({
					conversation_id: started.conversation.id,
					message: 'Our price list: …',
					type: 'agent',
				}),
			});
			await settle(target);
			const last = target.deliveries.at(-1)!;
			expect(last.webhook.responseBody).toEqual(
				JSON.stringify({ received: true, ignored: 'own message (sender type agent)' }),
			);
			expect(last.run).toBeUndefined();

			for (const { run } of target.deliveries) if (run) expectSuccess(run);
			expect(target.deliveries.filter(({ run }) => run !== undefined)).toHaveLength(3);
			expect(apiCalls().filter((call) => call === 'POST /tags')).toHaveLength(2);
		},
	);
});

describe('catch-up-both-triggers.json, our part after Remove Duplicates (Filter by stand-in, Support Board)', () => {
	const workflow = load('catch-up-both-triggers.json');
	const part = ['New messages only', 'Reply as the agent'];
	let board: Sandbox;
	beforeAll(async () => {
		board = await startSandbox({
			api: 'support-board',
			token: TOKEN,
			seed: { users: 3, conversations: 2 },
		});
	});
	afterAll(async () => await board.close());

	it('answers a New Message once, as the agent, in its conversation; other events get no reply', async () => {
		const sb = board.supportBoard!;
		const chat = await sb.visitor.start({ message: 'Hello', first_name: 'Ada' });
		const conversationId = String(chat.conversation.id);
		board.clearLog();

		const run = expectSuccess(
			await runWorkflow({
				workflow: {
					nodes: workflow.nodes.filter((entry) => part.includes(entry.name)),
					connections: { [part[0]]: workflow.connections[part[0]] },
				},
				nodeTypes: engineTypes(),
				credentials: credentialsFor(board, { api: 'supportBoard', baseUrl: sb.installUrl }),
				startNode: part[0],
				// Items as either trigger gives them after Remove Duplicates.
				startItems: [
					{
						event: 'userCreated',
						eventKey: `userCreated:${chat.user.id}`,
						userId: String(chat.user.id),
						conversationId: null,
					},
					{
						event: 'conversationCreated',
						eventKey: `conversationCreated:${conversationId}`,
						conversationId,
					},
					{
						event: 'messageCreated',
						eventKey: `messageCreated:${chat.message.id}`,
						conversationId,
						messageId: String(chat.message.id),
					},
				],
				mode: 'trigger',
			}),
		);

		const reply = node(workflow, part[1]).parameters.message;
		expect(run.output(part[1])).toHaveLength(1);
		// The conversation is read first for its channel (a web chat has none: the reply is stored only).
		expect(board.requests.map((request) => request.function)).toEqual([
			'get-conversation',
			'send-message',
		]);
		// -1: the admin whose token it is writes, as Support Board's own agents do.
		expect(board.requests[1].body).toMatchObject({
			function: 'send-message',
			conversation_id: conversationId,
			user_id: -1,
			message: reply,
		});
		const last = board.state.messages.at(-1) as { user_id?: string; message: string; type: string };
		expect(last).toMatchObject({ user_id: sb.data.admin.id, message: reply, type: 'agent' });
	});
});

describe('close-idle-conversations.json, our part (Schedule Trigger and Filter by stand-ins)', () => {
	const workflow = load('close-idle-conversations.json');

	it('closes active conversations quiet for over 24 hours, after a closing message, and nothing else', async () => {
		// The seeded conversations were last updated in 2024; this one is updated now.
		const fresh = await fetch(`${sandbox.baseUrl}/conversations`, {
			method: 'POST',
			headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
			body: JSON.stringify({
				user_id: sandbox.state.users[0].id,
				status: 'active',
				message: 'Still there?',
			}),
		});
		const freshId = ((await fresh.json()) as { id: string }).id;
		const idle = sandbox.state.conversations
			.filter((entry) => entry.status === 'active' && entry.id !== freshId)
			.map((entry) => entry.id);
		const before = structuredClone(sandbox.state.conversations);
		expect(idle.length).toBeGreaterThan(1);
		sandbox.clearLog();

		const run = expectSuccess(
			await runWorkflow({
				workflow: { nodes: workflow.nodes, connections: workflow.connections },
				nodeTypes: engineTypes(),
				credentials: credentials(),
				startNode: 'Every hour',
				mode: 'trigger',
			}),
		);

		expect(run.output('Get active conversations')).toHaveLength(idle.length + 1);
		expect(run.output('Idle for 24 hours').map((item) => item.json.id)).toEqual(idle);
		expect(run.output('Idle for 24 hours', 1).map((item) => item.json.id)).toEqual([freshId]);
		const pages = apiCalls().filter((call) => call === 'GET /conversations');
		expect(pages.length).toBeGreaterThan(1);
		expect(
			sandbox.requests.every(
				(request) => request.path !== '/conversations' || request.query.status === 'active',
			),
		).toBe(true);
		expect(apiCalls().slice(pages.length)).toEqual([
			...idle.map(() => 'POST /messages'),
			...idle.map((id) => `POST /conversations/${id}/close`),
		]);
		for (const id of idle) {
			expect(sandbox.state.conversations.find((entry) => entry.id === id)?.status).toBe('closed');
			expect(
				sandbox.state.messages.filter((entry) => entry.conversation_id === id).at(-1),
			).toMatchObject({
				type: 'agent',
				message: expect.stringMatching(/^We are closing this conversation/),
			});
		}
		const untouched = (entry: { id: string }) => !idle.includes(entry.id);
		expect(sandbox.state.conversations.filter(untouched)).toEqual(before.filter(untouched));
	});
});

describe('sync-new-users.json, our part (Filter and Data table by stand-ins)', () => {
	const workflow = load('sync-new-users.json');

	it.each(WEBHOOK_STYLES)(
		'maps a new user to the row upserted by e-mail (%s payloads)',
		async (style) => {
			const target = await deliverTo(workflow, 'New User Created', 'userCreated', style);

			const { user } = sandbox.visitor.startConversation({
				name: 'Grace Hopper',
				email: 'grace@example.com',
				phone: '+15551234567',
				message: 'Hello',
			});
			await settle(target);

			const run = expectSuccess(target.deliveries[0]?.run);
			expect(run.output('Upsert row by email').map((item) => item.json)).toEqual([
				{
					operation: 'upsert',
					row: {
						user_id: user.id,
						name: 'Grace Hopper',
						email: 'grace@example.com',
						phone: '+15551234567',
						tags: '',
					},
					match: [{ keyName: 'email', condition: 'eq', keyValue: 'grace@example.com' }],
				},
			]);
			expect(apiCalls()).toEqual([`GET /users/${user.id}`]);
		},
	);

	it('leaves out a user without an e-mail address, who has nothing to be matched by', async () => {
		const target = await deliverTo(workflow, 'New User Created', 'userCreated', 'dotted');

		const { user } = sandbox.visitor.startConversation({ name: 'Anonymous', message: 'Hello' });
		await settle(target);

		const run = expectSuccess(target.deliveries[0]?.run);
		expect(run.output('Has an email')).toEqual([]);
		expect(run.output('Has an email', 1).map((item) => item.json.id)).toEqual([user.id]);
		expect(run.ran('Upsert row by email')).toBe(false);
		expect(apiCalls()).toEqual([`GET /users/${user.id}`]);
	});
});
