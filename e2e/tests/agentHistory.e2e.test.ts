/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { randomUUID } from 'node:crypto';

import { startN8n, type N8nInstance, type WorkflowJson, type WorkflowNodeJson } from '../harness';
import { ACTION_TYPE, deployWorkflow } from '../support';
import { startModel, toolResultsOf, type ScriptedModel } from '../support/model';
import { startSandbox, type Sandbox } from '../../sandbox';

/*
 * An AI Agent answers a Support Board visitor with the conversation's history, in a real n8n 2.41.1: a
 * webhook starts an AI Agent 3.1 whose model (the scripted model of e2e/support/model.js) first calls
 * the Message → Get Many tool, then sends a reply through Message → Send that answers the visitor's
 * latest message as it read it in the history. The test reads what the model received and what the
 * sandbox playing Support Board stored.
 */

const TOKEN = 'sb-e2e-agent-token-7c1d';
const TOOL_TYPE = `${ACTION_TYPE}Tool`;
const HISTORY_TOOL = 'Get many messages of a conversation to read its history in Support Chat';
const SEND_TOOL = 'Send a message to a conversation in Support Chat';
// n8n names a tool after its node, cut to the 64 characters OpenAI takes: the editor's name for the
// history tool is longer.
const toolName = (nodeName: string) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64);

let n8n: N8nInstance;
let sandbox: Sandbox;
let model: ScriptedModel;

function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	x: number,
	y = 0,
): WorkflowNodeJson {
	return { id: randomUUID(), name, type, typeVersion, position: [x, y], parameters };
}

/** Webhook → AI Agent, with the model and the two Support Chat tools as the editor saves them. */
function agentWorkflow(): WorkflowJson {
	const credentials = { supportChatApi: { name: 'Support Board sandbox' } };
	const tools = [
		{ name: HISTORY_TOOL, parameters: { resource: 'message', operation: 'getAll' } },
		{ name: SEND_TOOL, parameters: { resource: 'message', operation: 'send' } },
	].map((tool, index) => ({
		...node(tool.name, TOOL_TYPE, 1, tool.parameters, 300 + index * 120, 200),
		credentials,
	}));
	return {
		name: 'An agent answers with the history',
		nodes: [
			{
				...node(
					'Webhook',
					'n8n-nodes-base.webhook',
					2.1,
					{ httpMethod: 'POST', path: 'agent-history', responseMode: 'lastNode', options: {} },
					0,
				),
				webhookId: randomUUID(),
			},
			node(
				'AI Agent',
				'@n8n/n8n-nodes-langchain.agent',
				3.1,
				{
					promptType: 'define',
					text: '={{ $json.body.prompt }}',
					hasOutputParser: false,
					options: {},
				},
				220,
			),
			{
				...node(
					'OpenAI Chat Model',
					'@n8n/n8n-nodes-langchain.lmChatOpenAi',
					1.3,
					{
						model: { __rl: true, mode: 'id', value: 'gpt-4.1-mini' },
						responsesApiEnabled: false,
						options: {},
					},
					120,
					200,
				),
				credentials: { openAiApi: { name: 'Scripted model' } },
			},
			...tools,
		],
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

beforeAll(async () => {
	sandbox = await startSandbox({ api: 'support-board', token: TOKEN, seed: { users: 3 } });
	model = await startModel();
	n8n = await startN8n({ mode: 'regular', packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR });
	await n8n.importCredentials({
		name: 'Scripted model',
		type: 'openAiApi',
		data: { apiKey: model.apiKey, url: model.baseUrl, header: false },
	});
	await deployWorkflow(n8n, sandbox, agentWorkflow(), {
		publish: true,
		credentials: {
			api: 'supportBoard',
			baseUrl: sandbox.supportBoard!.installUrl,
			apiToken: TOKEN,
			allowHttp: false,
			webhookSecret: 'unused-here',
		},
	});
});

afterAll(async () => {
	await n8n?.stop();
	await model?.close();
	await sandbox?.close();
});

test('the agent reads the conversation oldest first, then its one reply answers the latest question, stored in that conversation', async () => {
	const board = sandbox.supportBoard!;
	const { conversation } = await board.visitor.start({
		message: 'Hi, I ordered a lamp last week.',
		email: 'lena@example.com',
		first_name: 'Lena',
	});
	const conversationId = String(conversation.id);
	await board.visitor.say(conversationId, 'Where is order 4471?');
	await board.settled();
	sandbox.clearLog();

	model.script({
		tool: toolName(HISTORY_TOOL),
		args: { conversationId },
		// What a model that read the history does: it answers the visitor's latest message.
		then: (output) => {
			const history = JSON.parse(output) as Array<{ user_type: string; text: string }>;
			const latest = history.filter((m) => m.user_type !== 'admin').at(-1);
			return {
				tool: toolName(SEND_TOOL),
				args: { conversationId, message: `About "${latest?.text}": it ships today.` },
			};
		},
	});
	const response = await n8n.webhook('POST', 'agent-history', {
		prompt: `A visitor wrote in conversation ${conversationId}: answer them.`,
	});
	expect(response.status).toBe(200);

	// The model got the history as Simplify gives it, oldest first, with who wrote each message.
	const requests = [...model.requests];
	expect(requests).toHaveLength(3);
	const [history] = toolResultsOf(requests[1]);
	expect(JSON.parse(history.output)).toEqual([
		expect.objectContaining({ sender_name: 'Lena', text: 'Hi, I ordered a lamp last week.' }),
		expect.objectContaining({ sender_name: 'Lena', text: 'Where is order 4471?' }),
	]);

	// One reply, in that conversation, answering the latest message; nothing sent twice.
	const reply = 'About "Where is order 4471?": it ships today.';
	const [sent] = toolResultsOf(requests[2]).slice(-1);
	expect(JSON.parse(sent.output)).toEqual([expect.objectContaining({ message: reply })]);
	// The history, then the reply: Send reads the conversation for its channel (a web chat has none).
	expect(sandbox.requests.map((r) => r.function)).toEqual([
		'get-conversation',
		'get-conversation',
		'send-message',
	]);
	expect(sandbox.requests[2].body).toEqual(
		expect.objectContaining({ conversation_id: conversationId, message: reply, token: '***' }),
	);
	const stored = await fetch(board.apiUrl, {
		method: 'POST',
		body: JSON.stringify({
			function: 'get-conversation',
			token: TOKEN,
			conversation_id: conversationId,
		}),
	});
	const messages = ((await stored.json()) as { response: { messages: Array<{ message: string }> } })
		.response.messages;
	expect(messages.map((m) => m.message)).toEqual([
		'Hi, I ordered a lamp last week.',
		'Where is order 4471?',
		reply,
	]);
	// The agent's answer is the webhook's response, after the reply was stored.
	expect(response.body).toMatchObject({ output: expect.stringContaining('it ships today') });
});
