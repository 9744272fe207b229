/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Support Board's deliveries through the Support Chat Trigger in n8n-core's real webhook context, then
 * a run of the workflow from the items the trigger returned. Bodies in the product's exact shapes
 * (Support Board 3.8.7, `{function, key, data, sender-url}`), verified with Secret Field in Body `key`
 * as its users set it up; names, e-mails, passwords and tokens are made up. What is asserted is what a
 * user notices: which deliveries start a run, with which ids, and that neither the webhook key nor a
 * visitor's password, hash or login token appears anywhere in the answer, the items or the run.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChatTrigger } from '../../nodes/SupportChat/SupportChatTrigger.node';
import { DELIVERY_REGISTRY } from '../../nodes/SupportChat/trigger/dedupe';
import type { WebhookResult } from '../helpers/engine';
import { callWebhook, runWorkflow } from '../helpers/engine';
import { TRIGGER_TYPE } from '../helpers/supportChat';

const KEY = 'sb-engine-key-5Rw7';
const PASSWORD = 'Visitor-Pass-5512';
const HASH = '$2y$10$ZyXwVuTsRqPoNmLkJiHgFe9876543210zyxwvutsrqponmlkjihgf';
const TOKEN = '9a8b7c6d5e4f30211a2b3c4d5e6f708192a3b4c5';
const SECRETS = [KEY, PASSWORD, HASH, TOKEN];

/** Hands its input on: a node after the trigger, so that the run's data holds the items a second time. */
class Passthrough implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Passthrough',
		name: 'passthrough',
		group: ['transform'],
		version: 1,
		description: 'Hands its input on',
		defaults: { name: 'Passthrough' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

const trigger = new SupportChatTrigger();
const credentials = {
	types: [new SupportChatApi()],
	data: {
		supportChatApi: {
			baseUrl: 'http://127.0.0.1:1',
			apiToken: 'token-not-used',
			webhookSecret: KEY,
		},
	},
};
const parameters: INodeParameters = {
	events: ['*'],
	verification: 'bodyField',
	keyField: 'key',
	options: { unknownEvents: 'passOn' },
};
const triggerNode: INode = {
	id: '5b0a7d00-0000-4000-8000-000000000001',
	name: 'Support Chat Trigger',
	type: TRIGGER_TYPE,
	typeVersion: 1,
	position: [0, 0],
	webhookId: '5b0a7d00-0000-4000-8000-0000000000aa',
	parameters,
	credentials: { supportChatApi: { id: 'sb1', name: 'Support Board' } },
};
const nextNode: INode = {
	id: 'p1',
	name: 'Next',
	type: 'test.passthrough',
	typeVersion: 1,
	position: [200, 0],
	parameters: {},
};

/** A delivery as the product posts it: one JSON body, no signature, no delivery id. */
const delivery = (fn: string, data: unknown) => ({
	headers: {
		'content-type': 'application/json',
		'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)',
	},
	body: JSON.stringify({
		function: fn,
		key: KEY,
		data,
		'sender-url': 'https://shop.example.test/help',
	}),
});

async function deliver(
	request: ReturnType<typeof delivery>,
	staticData?: IDataObject,
	key = KEY,
): Promise<WebhookResult> {
	const data = { supportChatApi: { ...credentials.data.supportChatApi, webhookSecret: key } };
	return await callWebhook({
		node: triggerNode,
		nodeType: trigger,
		credentials: { ...credentials, data },
		request,
		staticData,
		workflowId: 'wf-sb',
	});
}

/** The items the trigger started the workflow with, after a run of the workflow from them. */
async function runFrom(
	result: WebhookResult,
): Promise<{ items: IDataObject[]; everything: string }> {
	const started = result.response.workflowData?.[0] ?? [];
	const run = await runWorkflow({
		workflow: {
			nodes: [triggerNode, nextNode],
			connections: {
				'Support Chat Trigger': { main: [[{ node: 'Next', type: 'main', index: 0 }]] },
			},
		},
		nodeTypes: { [TRIGGER_TYPE]: trigger, 'test.passthrough': new Passthrough() },
		credentials,
		startItems: started.map((item) => item.json),
		startNode: 'Support Chat Trigger',
	});
	expect(run.status).toBe('success');
	return {
		items: run.output('Next').map((item) => item.json),
		everything: JSON.stringify([result, run.run]),
	};
}

const conversation = {
	user_id: '6',
	first_name: 'Ana',
	last_name: 'Diaz',
	user_type: 'user',
	id: '4',
	title: 'Order',
	status_code: '2',
	agent_id: null,
	tags: [],
	busy: false,
};

beforeEach(() => DELIVERY_REGISTRY.clear());

describe('Support Board deliveries in the engine', () => {
	it.each<[string, unknown, IDataObject]>([
		[
			'new-conversation-created',
			{ messages: [], details: conversation },
			{ event: 'conversationCreated', conversationId: '4', userId: '6' },
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
			{ event: 'messageCreated', conversationId: '4', userId: 6, messageId: 17 },
		],
		[
			'registration',
			{
				id: 'registration',
				conversation_id: 'false',
				user: {
					first_name: 'Ana',
					email: 'ana@example.test',
					password: PASSWORD,
					'password-check': PASSWORD,
					id: '6',
				},
			},
			{ event: 'userCreated', userId: '6', conversationId: null },
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
					password: HASH,
					conversation_id: '4',
				},
			},
			{ event: 'unknown', eventName: 'login', userId: '6', conversationId: '4' },
		],
		[
			'new-email-address',
			{ id: 'sb-follow-up', name: 'Ana Diaz', email: 'ana@example.test' },
			{ event: 'leadCaptured', userId: null },
		],
	])(
		'%s: starts a run with its ids; the key and the visitor’s secrets appear nowhere',
		async (fn, data, expected) => {
			const result = await deliver(delivery(fn, data));
			expect(result.status).toBe(200);
			const { items, everything } = await runFrom(result);
			expect(items).toEqual([expect.objectContaining(expected)]);
			expect((items[0].body as IDataObject).key).toBe('[redacted]');
			for (const secret of SECRETS) expect(everything).not.toContain(secret);
		},
	);

	it('new-messages after an agent reply starts nothing: the workflow’s own answer does not trigger it', async () => {
		const messages = [
			{
				details: {
					id: '18',
					user_id: '1',
					message: 'On its way',
					user_type: 'admin',
					first_name: 'Ada',
				},
			},
		];
		const result = await deliver(delivery('new-messages', { messages, conversation_id: '4' }));
		expect(result.response.workflowData).toBeUndefined();
		expect(JSON.parse(String(result.responseBody))).toEqual({
			received: true,
			ignored: 'own message (sender type admin)',
		});
	});

	it('two byte-identical archives of one conversation start two runs, in production with static data saved between', async () => {
		const archive = delivery('conversation-status-updated', {
			conversation_id: '4',
			status_code: 3,
		});
		const first = await deliver(archive);
		const second = await deliver(archive, first.staticData);
		for (const result of [first, second]) {
			expect(result.response.workflowData?.[0].map((item) => item.json)).toEqual([
				expect.objectContaining({
					event: 'conversationClosed',
					conversationId: '4',
					deliveryId: null,
				}),
			]);
		}
	});

	it('a delivery with another key is refused 401 and starts nothing', async () => {
		const result = await deliver(
			delivery('message-sent', { user_id: '6', conversation_user_id: '6', conversation_id: '4' }),
			undefined,
			'the-right-key-0000',
		);
		expect(result.status).toBe(401);
		expect(result.response.workflowData).toBeUndefined();
		expect(JSON.stringify(result)).not.toContain(KEY);
	});
});
