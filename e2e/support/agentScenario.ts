/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';

import {
	startN8n,
	type N8nInstance,
	type N8nLine,
	type WorkflowJson,
	type WorkflowNodeJson,
} from '../harness';
import { ACTION_TYPE, deployWorkflow, SANDBOX_TOKEN } from '.';
import { startModel, toolResultsOf, toolsOf, type ScriptedModel } from './model';
import { startSandbox, type Sandbox } from '../../sandbox';

/*
 * Support Chat as an AI Agent's tool in a real n8n: a webhook starts an AI Agent whose model is
 * n8n's OpenAI Chat Model pointed at a scripted model on 127.0.0.1 (e2e/support/model.js), with four
 * Support Chat Tool nodes attached as the editor attaches them (the tool type, `ai_tool` connections,
 * node names from the operation's action). The model calls one tool per scenario; the test reads what
 * the model received (tool names, descriptions, argument schemas, the tool's result) and what the
 * sandbox received. Three agents: the newest 3.x with the Responses API and with Chat Completions, and
 * 2.2 (the last 2.x, Chat Completions only). Registered by agent.e2e.test.ts (n8n 2.x) and n8n1.e2e.test.ts.
 */

const TOOL_TYPE = `${ACTION_TYPE}Tool`;
const SEED = { users: 6, conversations: 6, tags: ['vip', 'lead'] };
const CREDENTIAL = { supportChatApi: { name: 'Support Chat sandbox' } };

interface Variant {
	label: string;
	agentVersion: number;
	responsesApi: boolean;
	path: string;
}

/** The newest AI Agent 3.x of each n8n line: 3.1 in 2.41.1, 3 in 1.123.81. */
const NEWEST_AGENT_3: Record<N8nLine, number> = { '2.x': 3.1, '1.x': 3 };

function variantsOf(line: N8nLine): Variant[] {
	const v3 = NEWEST_AGENT_3[line];
	const tag = String(v3).replace('.', '');
	return [
		{
			label: `AI Agent ${v3}, Responses API`,
			agentVersion: v3,
			responsesApi: true,
			path: `agent-${tag}-responses`,
		},
		{
			label: `AI Agent ${v3}, Chat Completions`,
			agentVersion: v3,
			responsesApi: false,
			path: `agent-${tag}-chat`,
		},
		{
			label: 'AI Agent 2.2, Chat Completions',
			agentVersion: 2.2,
			responsesApi: false,
			path: 'agent-22-chat',
		},
	];
}

/** The status filter as a user types it into Filters › Status (options fields get no AI button). */
const STATUS_FROM_AI =
	"={{ $fromAI('status', 'Only conversations in this state: active, pending or closed', 'string') }}";

/**
 * The Support Chat Tool nodes as the editor saves them: the name the editor gives (the operation's
 * action and " in Support Chat"), resource and operation, and nothing else where the tool's own
 * defaults let the model fill the inputs.
 */
const TOOLS: Array<{ name: string; parameters: Record<string, unknown> }> = [
	{ name: 'Get a user by ID in Support Chat', parameters: { resource: 'user', operation: 'get' } },
	{
		name: 'Get many conversations in Support Chat',
		parameters: {
			resource: 'conversation',
			operation: 'getAll',
			filters: { status: STATUS_FROM_AI },
		},
	},
	{
		name: 'Send a message to a conversation in Support Chat',
		parameters: { resource: 'message', operation: 'send' },
	},
	{
		name: 'Add a tag to a user in Support Chat',
		parameters: { resource: 'tag', operation: 'add' },
	},
];

const toolName = (nodeName: string) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

function agentWorkflow(variant: Variant): WorkflowJson {
	const node = (
		name: string,
		type: string,
		typeVersion: number,
		parameters: Record<string, unknown>,
		x: number,
		y = 0,
	): WorkflowNodeJson => ({
		id: randomUUID(),
		name,
		type,
		typeVersion,
		position: [x, y],
		parameters,
	});
	const webhook = {
		...node(
			'Webhook',
			'n8n-nodes-base.webhook',
			2.1,
			{ httpMethod: 'POST', path: variant.path, responseMode: 'lastNode', options: {} },
			0,
		),
		webhookId: randomUUID(),
	};
	const agent = node(
		'AI Agent',
		'@n8n/n8n-nodes-langchain.agent',
		variant.agentVersion,
		{ promptType: 'define', text: '={{ $json.body.prompt }}', hasOutputParser: false, options: {} },
		220,
	);
	const model = {
		...node(
			'OpenAI Chat Model',
			'@n8n/n8n-nodes-langchain.lmChatOpenAi',
			1.3,
			{
				model: { __rl: true, mode: 'id', value: 'gpt-4.1-mini' },
				responsesApiEnabled: variant.responsesApi,
				options: {},
			},
			120,
			200,
		),
		credentials: { openAiApi: { name: 'Scripted model' } },
	};
	const tools = TOOLS.map((tool, index) => ({
		...node(tool.name, TOOL_TYPE, 1, tool.parameters, 300 + index * 120, 200),
		credentials: CREDENTIAL,
	}));
	return {
		name: `Support Chat as a tool: ${variant.label}`,
		nodes: [webhook, agent, model, ...tools],
		connections: {
			Webhook: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
			...Object.fromEntries(
				tools.map((tool) => [
					tool.name,
					{ ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
				]),
			),
		},
		settings: { executionOrder: 'v1' },
	};
}

export function describeAgentScenarios(options: { n8nLine?: N8nLine } = {}): void {
	const VARIANTS = variantsOf(options.n8nLine ?? '2.x');
	let n8n: N8nInstance;
	let sandbox: Sandbox;
	let model: ScriptedModel;

	beforeAll(async () => {
		sandbox = await startSandbox({ token: SANDBOX_TOKEN, seed: SEED });
		model = await startModel();
		n8n = await startN8n({
			mode: 'regular',
			n8nLine: options.n8nLine,
			packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR,
		});
		await n8n.importCredentials({
			name: 'Scripted model',
			type: 'openAiApi',
			data: { apiKey: model.apiKey, url: model.baseUrl, header: false },
		});
		const known = new Set<string>();
		for (const variant of VARIANTS)
			await deployWorkflow(n8n, sandbox, agentWorkflow(variant), { publish: true, known });
	});

	afterAll(async () => {
		if (process.env.SUPPORT_CHAT_E2E_MODEL_LOG)
			fs.writeFileSync(process.env.SUPPORT_CHAT_E2E_MODEL_LOG, JSON.stringify(modelLog, null, 2));
		await n8n?.stop();
		await model?.close();
		await sandbox?.close();
	});

	/** Every model request of the suite, by scenario, for `SUPPORT_CHAT_E2E_MODEL_LOG`. */
	const modelLog: Record<string, unknown> = {};

	/**
	 * One agent run: the model is told which tool to call with which arguments, the webhook starts the
	 * workflow, and the agent's answer comes back as the webhook's response.
	 */
	async function ask(
		variant: Variant,
		scenario: string,
		tool: string,
		args: Record<string, unknown>,
	) {
		sandbox.clearLog();
		model.script({ tool: toolName(tool), args });
		const response = await n8n.webhook('POST', variant.path, { prompt: `Scenario: ${scenario}` });
		const requests = [...model.requests];
		modelLog[`${variant.label}: ${scenario}`] = requests;
		// Every turn went to the API the agent is set up for, with the credential's key.
		expect(requests.map((request) => `${request.api} ${request.authorised}`)).toEqual(
			requests.map(() => `${variant.responsesApi ? 'responses' : 'chat'} true`),
		);
		return { response, requests };
	}

	describe.each(VARIANTS)('$label', (variant) => {
		test('the model is offered each tool with a name and description that say what it does, and typed, described arguments', async () => {
			const target = sandbox.state.users[0];
			const { requests } = await ask(variant, 'offer', 'Get a user by ID in Support Chat', {
				userId: target.id,
			});
			expect(requests.length).toBeGreaterThanOrEqual(1);
			const offered = Object.fromEntries(toolsOf(requests[0]).map((tool) => [tool.name, tool]));
			expect(Object.keys(offered).sort()).toEqual(TOOLS.map((tool) => toolName(tool.name)).sort());

			expect(offered.Get_a_user_by_ID_in_Support_Chat.description).toBe(
				'Get a user by ID in Support Chat',
			);
			expect(offered.Get_many_conversations_in_Support_Chat.description).toBe(
				'Get many conversations in Support Chat',
			);
			expect(offered.Send_a_message_to_a_conversation_in_Support_Chat.description).toBe(
				'Send a message to a conversation in Support Chat',
			);
			expect(offered.Add_a_tag_to_a_user_in_Support_Chat.description).toBe(
				'Add a tag to a user in Support Chat',
			);

			const argumentsOf = (name: string) => offered[name].parameters;
			expect(argumentsOf('Get_a_user_by_ID_in_Support_Chat')).toMatchObject({
				type: 'object',
				required: ['userId'],
				properties: {
					userId: { type: 'string', description: expect.stringMatching(/^ID of the user/) },
				},
			});
			expect(argumentsOf('Get_many_conversations_in_Support_Chat')).toMatchObject({
				required: ['status'],
				properties: {
					status: {
						type: 'string',
						description: expect.stringContaining('active, pending or closed'),
					},
				},
			});
			expect(argumentsOf('Send_a_message_to_a_conversation_in_Support_Chat')).toMatchObject({
				required: expect.arrayContaining(['conversationId', 'message']),
				properties: {
					conversationId: {
						type: 'string',
						description: expect.stringMatching(/^ID of the conversation/),
					},
					message: { type: 'string', description: expect.stringMatching(/^Text of the message/) },
				},
			});
			expect(argumentsOf('Add_a_tag_to_a_user_in_Support_Chat')).toMatchObject({
				required: expect.arrayContaining(['userId', 'tag']),
				properties: {
					userId: { type: 'string', description: expect.stringMatching(/^ID of the user/) },
					tag: { type: 'string', description: expect.stringMatching(/^Name of the tag/) },
				},
			});
			for (const tool of Object.values(offered)) {
				expect(Object.keys(tool.parameters.properties).sort()).toEqual(
					[...tool.parameters.required].sort(),
				);
			}
		});

		test('User → Get: the model gets the sandbox’s record of the user it asked for', async () => {
			const target = sandbox.state.users[2];
			const { response, requests } = await ask(
				variant,
				'user get',
				'Get a user by ID in Support Chat',
				{ userId: target.id },
			);
			expect(response.status).toBe(200);
			expect(requests).toHaveLength(2);
			const [result] = toolResultsOf(requests[1]);
			// Simplify is on by default in the tool type: the fields people use, as the service holds them.
			const { id, name, email, phone, tags } = target;
			expect(JSON.parse(result.output)).toEqual([{ id, name, email, phone, tags }]);
			expect(response.body).toMatchObject({ output: expect.stringContaining(target.id) });
			// The sandbox logs the header redacted; a wrong token would have been answered 401.
			expect(
				sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status} ${r.headers.authorization}`),
			).toEqual([`GET /users/${target.id} 200 Bearer ***`]);
		});

		test('Conversation → Get Many with a status filter: the model gets exactly the conversations in that state', async () => {
			const { requests } = await ask(
				variant,
				'conversations',
				'Get many conversations in Support Chat',
				{ status: 'pending' },
			);
			expect(requests).toHaveLength(2);
			const pending = sandbox.state.conversations.filter((c) => c.status === 'pending');
			expect(pending.length).toBeGreaterThan(0);
			expect(pending.length).toBeLessThan(sandbox.state.conversations.length);
			const [result] = toolResultsOf(requests[1]);
			expect(JSON.parse(result.output)).toEqual(
				pending.map((c) =>
					expect.objectContaining({
						id: c.id,
						status: 'pending',
						user_id: c.user_id,
						subject: c.subject,
					}),
				),
			);
			expect(sandbox.requests).toHaveLength(1);
			expect(sandbox.requests[0]).toMatchObject({
				method: 'GET',
				path: '/conversations',
				status: 200,
				query: { status: 'pending' },
			});
			expect(sandbox.requests[0].headers.authorization).toBe('Bearer ***');
		});

		test('Message → Send: the message reaches the conversation and the model gets the stored message', async () => {
			const conversation = sandbox.state.conversations[1];
			const text = `We are looking into it (${variant.path})`;
			const { requests } = await ask(
				variant,
				'send',
				'Send a message to a conversation in Support Chat',
				{
					conversationId: conversation.id,
					message: text,
				},
			);
			expect(requests).toHaveLength(2);
			const stored = sandbox.state.messages.filter(
				(m) => m.conversation_id === conversation.id && m.message === text,
			);
			expect(stored).toHaveLength(1);
			const [result] = toolResultsOf(requests[1]);
			expect(JSON.parse(result.output)).toEqual([JSON.parse(JSON.stringify(stored[0]))]);
			expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
				'POST /messages 201',
			]);
			expect(sandbox.requests[0].body).toEqual({
				conversation_id: conversation.id,
				message: text,
				type: 'agent',
			});
			expect(sandbox.requests[0].headers.authorization).toBe('Bearer ***');
		});

		test('Tag → Add to User: the user carries the tag and the model gets the service’s answer', async () => {
			const user = sandbox.state.users[3];
			const tag = `agent-${variant.path}`;
			const { requests } = await ask(variant, 'tag', 'Add a tag to a user in Support Chat', {
				userId: user.id,
				tag,
			});
			expect(requests).toHaveLength(2);
			expect(sandbox.state.users[3].tags).toContain(tag);
			// The service answers with the tagged user.
			const [result] = toolResultsOf(requests[1]);
			expect(JSON.parse(result.output)).toEqual([
				JSON.parse(JSON.stringify(sandbox.state.users[3])),
			]);
			expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
				'POST /tags 201',
			]);
			expect(sandbox.requests[0].body).toEqual({ user_id: user.id, tag });
			expect(sandbox.requests[0].headers.authorization).toBe('Bearer ***');
		});

		test('an unknown user id: the model gets the error with its hint, and the run goes on to the answer', async () => {
			const { response, requests } = await ask(
				variant,
				'unknown user',
				'Get a user by ID in Support Chat',
				{ userId: 'u_missing' },
			);
			expect(response.status).toBe(200);
			expect(requests).toHaveLength(2);
			const [result] = toolResultsOf(requests[1]);
			expect(JSON.parse(result.output)).toEqual([
				{
					error:
						'The service answered GET /users/u_missing with 404: User u_missing not found. ' +
						'The user was not found. Check the ID, and that the Base URL in the credentials points at your service.',
				},
			]);
			expect(response.body).toMatchObject({ output: expect.stringContaining('Check the ID') });
			expect(
				sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status} ${r.headers.authorization}`),
			).toEqual(['GET /users/u_missing 404 Bearer ***']);
		});
	});
}
