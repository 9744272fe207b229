/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { startN8n, type N8nInstance } from '../harness';
import { deployWorkflow, exactExecutions, lastExecutionId, readWorkflow } from '../support';
import { startSandbox, type Sandbox } from '../../sandbox';

/*
 * Support Board in a real n8n: the escalation workflow (fixtures/support-board-escalation.workflow.json:
 * on New Conversation, mark the user as a lead, assign the conversation to the sales agent, tell the
 * visitor) with credentials for Support Board's Web API, published; the sandbox's Support Board mode
 * sends its webhooks, as the product does (once, with the Secret key in the body), to the production URL.
 */

const TOKEN = 'sb-e2e-admin-token-5d6e7f';
const KEY = 'sb-e2e-secret-key-1a2b';
let n8n: N8nInstance;
let sandbox: Sandbox;
let workflowId: string;
let agentId: string;

/**
 * Publishes a fixture on a Support Board sandbox: the named node assigns to the sandbox's agent, the
 * credentials speak its Web API, and its webhook setting points at the production URL.
 */
async function publishOn(
	board: Sandbox,
	file: string,
	assignNode: string,
	token: string,
	key: string,
) {
	const agent = String(Number(board.supportBoard!.data.staff!.agent.id.slice(2)));
	const workflow = readWorkflow(file);
	const assign = workflow.nodes.find((node) => node.name === assignNode)!;
	assign.parameters = { ...assign.parameters, assignee: agent };
	const deployed = await deployWorkflow(n8n, board, workflow, {
		credentials: {
			api: 'supportBoard',
			baseUrl: board.supportBoard!.installUrl,
			apiToken: token,
			allowHttp: false,
			webhookSecret: key,
		},
	});
	board.supportBoard!.configureWebhooks({ url: deployed.triggerUrl as string, key, active: true });
	return { workflowId: deployed.id, agentId: agent };
}

beforeAll(async () => {
	sandbox = await startSandbox({
		api: 'support-board',
		token: TOKEN,
		seed: { users: 12, conversations: 4 },
	});
	n8n = await startN8n({ mode: 'regular', packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR });
	({ workflowId, agentId } = await publishOn(
		sandbox,
		'support-board-escalation.workflow.json',
		'Assign to sales',
		TOKEN,
		KEY,
	));
});

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

const functions = () => sandbox.requests.map((r) => r.function);

test('a visitor starts a chat: one run marks the lead, assigns the conversation and answers, through the Web API', async () => {
	sandbox.clearLog();
	const { conversation, user } = await sandbox.supportBoard!.visitor.start({
		message: 'Do you ship to Norway?',
		email: 'ada@example.com',
		first_name: 'Ada',
	});
	await sandbox.supportBoard!.settled();
	const [run] = await exactExecutions(n8n, workflowId, { count: 1, timeoutMs: 60_000 });
	// The run's own calls make the product send more webhooks (the agent's message): none starts a run.
	await sandbox.supportBoard!.settled();
	expect(run).toMatchObject({ status: 'success', mode: 'webhook', finished: true });
	const item = run.data.resultData.runData['New Conversation'][0].data.main[0][0].json;
	expect(item).toMatchObject({
		event: 'conversationCreated',
		conversationId: String(conversation.id),
		userId: String(user.id),
	});
	// Message → Send reads the conversation for its channel first (a web chat has none).
	expect(functions()).toEqual([
		'update-user',
		'update-conversation-agent',
		'get-conversation',
		'send-message',
	]);
	expect(sandbox.requests.map((r) => r.body)).toEqual([
		expect.objectContaining({ user_id: String(user.id), user_type: 'lead', token: '***' }),
		expect.objectContaining({ conversation_id: String(conversation.id), agent_id: agentId }),
		expect.objectContaining({ conversation_id: String(conversation.id) }),
		expect.objectContaining({ conversation_id: String(conversation.id), user_id: -1 }),
	]);
	const deliveries = sandbox.supportBoard!.deliveries.map((d) => `${d.function} ${d.status}`);
	expect(deliveries).toEqual(
		expect.arrayContaining(['new-conversation-created 200', 'message-sent 200']),
	);
	const stored = await fetch(sandbox.supportBoard!.apiUrl, {
		method: 'POST',
		body: JSON.stringify({ function: 'get-user', token: TOKEN, user_id: user.id }),
	});
	expect(((await stored.json()) as { response: { user_type: string } }).response.user_type).toBe(
		'lead',
	);
});

test('a delivery with another Secret key is answered 401 and starts nothing', async () => {
	const after = await lastExecutionId(n8n, workflowId);
	sandbox.supportBoard!.configureWebhooks({ key: 'not-the-secret-key' });
	const from = sandbox.supportBoard!.deliveries.length;
	await sandbox.supportBoard!.visitor.start({ message: 'Hello?', first_name: 'Mallory' });
	await sandbox.supportBoard!.settled();
	await exactExecutions(n8n, workflowId, { count: 0, afterId: after });
	const refused = sandbox.supportBoard!.deliveries.slice(from);
	expect(refused.length).toBeGreaterThan(0);
	expect(refused.every((d) => d.status === 401)).toBe(true);
	sandbox.supportBoard!.configureWebhooks({ key: KEY });
});

/*
 * The lead-escalation example adapted to Support Board (fixtures/support-board-lead-escalation.workflow.json):
 * the product has no tags, so the lead is marked by User → Update with the Extra Body Field `user_type`
 * = `lead`; its follow-up form (`new-email-address`, read as Lead Captured) names only a name and an
 * e-mail, so the workflow finds the visitor by that e-mail (User → Get Many, `search`) and their chat
 * (Conversation → Get Many, kept where `conversation_user_id` is the visitor) before it assigns the chat
 * to the sandbox's agent and answers. A sandbox of its own: Support Board has one webhook URL.
 */
describe('the lead-escalation example on Support Board: a lead through the follow-up form', () => {
	let leads: Sandbox;
	let leadWorkflowId: string;
	const LEAD_TOKEN = 'sb-e2e-leads-admin-token-9a8b';
	const LEAD_KEY = 'sb-e2e-leads-secret-key-7c6d';
	let leadAgentId: string;

	beforeAll(async () => {
		leads = await startSandbox({
			api: 'support-board',
			token: LEAD_TOKEN,
			seed: { users: 12, conversations: 4 },
		});
		({ workflowId: leadWorkflowId, agentId: leadAgentId } = await publishOn(
			leads,
			'support-board-lead-escalation.workflow.json',
			'Assign to sales agent',
			LEAD_TOKEN,
			LEAD_KEY,
		));
	});

	afterAll(async () => {
		await leads?.close();
	});

	const leadFunctions = () => leads.requests.map((r) => r.function);

	test('a visitor leaves an e-mail: one run marks the lead, assigns the chat and answers; its own calls start nothing', async () => {
		// The visitor's chat first: its deliveries (a new conversation, a message) are no lead and start nothing.
		const { conversation, user } = await leads.supportBoard!.visitor.start({
			message: 'What does the enterprise plan cost?',
			first_name: 'Grace',
		});
		await leads.supportBoard!.settled();
		await exactExecutions(n8n, leadWorkflowId, { count: 0 });
		leads.clearLog();
		const from = leads.supportBoard!.deliveries.length;
		await leads.supportBoard!.visitor.followUp({
			conversationId: conversation.id,
			email: 'grace@example.com',
			name: 'Grace Hopper',
		});
		await leads.supportBoard!.settled();
		const [run] = await exactExecutions(n8n, leadWorkflowId, { count: 1, timeoutMs: 60_000 });
		// The run's own calls make the product send more webhooks (the agent's message): none starts a run.
		await leads.supportBoard!.settled();
		await exactExecutions(n8n, leadWorkflowId, { count: 1 });
		expect(run).toMatchObject({ status: 'success', mode: 'webhook', finished: true });
		const runData = run.data.resultData.runData;
		const item = runData['Lead Captured'][0].data.main[0][0].json;
		expect(item).toMatchObject({
			event: 'leadCaptured',
			eventName: 'new-email-address',
			eventKey: 'leadCaptured:@grace@example.com',
			userId: null,
			conversationId: null,
		});
		expect(item.data).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper' });
		expect(JSON.stringify(item)).not.toContain(LEAD_KEY);
		expect(
			runData['Find the visitor'][0].data.main[0].map((i: { json: { id: unknown } }) =>
				String(i.json.id),
			),
		).toEqual([String(user.id)]);
		expect(
			runData["The visitor's chat"][0].data.main[0].map(
				(i: { json: { conversation_id: unknown } }) => String(i.json.conversation_id),
			),
		).toEqual([String(conversation.id)]);
		expect(runData['Tell the visitor'][0].data.main[0]).toHaveLength(1);

		expect(leadFunctions()).toEqual([
			'get-users',
			'update-user',
			'get-conversations',
			'update-conversation-agent',
			'get-conversation',
			'send-message',
		]);
		expect(leads.requests.map((r) => r.body)).toEqual([
			expect.objectContaining({ search: 'grace@example.com', token: '***' }),
			expect.objectContaining({ user_id: String(user.id), user_type: 'lead', token: '***' }),
			expect.objectContaining({ status_code: 'all', token: '***' }),
			expect.objectContaining({
				conversation_id: String(conversation.id),
				agent_id: leadAgentId,
				token: '***',
			}),
			expect.objectContaining({ conversation_id: String(conversation.id), token: '***' }),
			expect.objectContaining({
				conversation_id: String(conversation.id),
				user_id: -1,
				token: '***',
			}),
		]);
		const deliveries = leads.supportBoard!.deliveries.slice(from);
		expect(deliveries[0]).toMatchObject({ function: 'new-email-address', status: 200 });
		// What the run caused: answered 200, each with the reason it started nothing.
		const caused = deliveries.slice(1);
		expect(caused.map((d) => d.function)).toEqual(expect.arrayContaining(['message-sent']));
		expect(caused.every((d) => d.status === 200)).toBe(true);
		expect(caused.every((d) => /ignored/.test(d.response ?? ''))).toBe(true);

		const stored = await fetch(leads.supportBoard!.apiUrl, {
			method: 'POST',
			body: JSON.stringify({ function: 'get-user', token: LEAD_TOKEN, user_id: user.id }),
		});
		expect(
			((await stored.json()) as { response: { user_type: string; email: string } }).response,
		).toMatchObject({ user_type: 'lead', email: 'grace@example.com' });
		const chat = await fetch(leads.supportBoard!.apiUrl, {
			method: 'POST',
			body: JSON.stringify({
				function: 'get-conversation',
				token: LEAD_TOKEN,
				conversation_id: conversation.id,
			}),
		});
		const { response } = (await chat.json()) as {
			response: { details: { agent_id: unknown }; messages: Array<{ message: string }> };
		};
		expect(String(response.details.agent_id)).toBe(leadAgentId);
		expect(response.messages.at(-1)?.message).toBe(
			'Thanks for leaving your details! One of our sales team will reply here shortly.',
		);
	});

	test('a follow-up delivery with another Secret key is answered 401 and starts nothing', async () => {
		const after = await lastExecutionId(n8n, leadWorkflowId);
		leads.supportBoard!.configureWebhooks({ key: 'not-the-secret-key' });
		const { conversation } = await leads.supportBoard!.visitor.start({
			message: 'Call me back?',
			first_name: 'Mallory',
		});
		const from = leads.supportBoard!.deliveries.length;
		await leads.supportBoard!.visitor.followUp({
			conversationId: conversation.id,
			email: 'mallory@example.com',
		});
		await leads.supportBoard!.settled();
		await exactExecutions(n8n, leadWorkflowId, { count: 0, afterId: after });
		const refused = leads.supportBoard!.deliveries.slice(from);
		expect(refused.map((d) => `${d.function} ${d.status}`)).toEqual(['new-email-address 401']);
		leads.supportBoard!.configureWebhooks({ key: LEAD_KEY });
	});
});
