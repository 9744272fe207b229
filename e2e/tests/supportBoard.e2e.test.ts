/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; README › Development › Lint */
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

beforeAll(async () => {
	sandbox = await startSandbox({ api: 'support-board', token: TOKEN, seed: { users: 12, conversations: 4 } });
	agentId = String(Number(sandbox.supportBoard!.data.staff!.agent.id.slice(2)));
	n8n = await startN8n({ mode: 'regular', packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR });
	const workflow = readWorkflow('support-board-escalation.workflow.json');
	const assign = workflow.nodes.find((node) => node.name === 'Assign to sales')!;
	assign.parameters = { ...assign.parameters, assignee: agentId };
	const deployed = await deployWorkflow(n8n, sandbox, workflow, {
		credentials: { api: 'supportBoard', baseUrl: sandbox.supportBoard!.installUrl, apiToken: TOKEN, allowHttp: false, webhookSecret: KEY },
	});
	workflowId = deployed.id;
	sandbox.supportBoard!.configureWebhooks({ url: deployed.triggerUrl as string, key: KEY, active: true });
});

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

const functions = () => sandbox.requests.map((r) => r.function);

test('a visitor starts a chat: one run marks the lead, assigns the conversation and answers, through the Web API', async () => {
	sandbox.clearLog();
	const { conversation, user } = await sandbox.supportBoard!.visitor.start({ message: 'Do you ship to Norway?', email: 'ada@example.com', first_name: 'Ada' });
	await sandbox.supportBoard!.settled();
	const [run] = await exactExecutions(n8n, workflowId, { count: 1, timeoutMs: 60_000 });
	// The run's own calls make the product send more webhooks (the agent's message): none starts a run.
	await sandbox.supportBoard!.settled();
	expect(run).toMatchObject({ status: 'success', mode: 'webhook', finished: true });
	const item = run.data.resultData.runData['New Conversation'][0].data.main[0][0].json;
	expect(item).toMatchObject({ event: 'conversationCreated', conversationId: String(conversation.id), userId: String(user.id) });
	expect(functions()).toEqual(['update-user', 'update-conversation-agent', 'send-message']);
	expect(sandbox.requests.map((r) => r.body)).toEqual([
		expect.objectContaining({ user_id: String(user.id), user_type: 'lead', token: '***' }),
		expect.objectContaining({ conversation_id: String(conversation.id), agent_id: agentId }),
		expect.objectContaining({ conversation_id: String(conversation.id), user_id: -1 }),
	]);
	const deliveries = sandbox.supportBoard!.deliveries.map((d) => `${d.function} ${d.status}`);
	expect(deliveries).toEqual(expect.arrayContaining(['new-conversation-created 200', 'message-sent 200']));
	const stored = await fetch(sandbox.supportBoard!.apiUrl, { method: 'POST', body: JSON.stringify({ function: 'get-user', token: TOKEN, user_id: user.id }) });
	expect(((await stored.json()) as { response: { user_type: string } }).response.user_type).toBe('lead');
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
