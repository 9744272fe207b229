/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { startN8n, type Execution, type N8nInstance, type WorkflowJson } from '../harness';
import {
	deployWorkflow,
	exactExecutions,
	lastExecutionId,
	readWorkflow,
	SANDBOX_TOKEN,
} from '../support';
import { connectMcpClient } from '../support/mcpClient';
import { startSandbox, type Sandbox } from '../../sandbox';

/*
 * Support Chat Tool behind n8n's own MCP server: a published workflow with an MCP Server Trigger and
 * three Support Chat Tool nodes on its Tools input (`fixtures/mcp-server.workflow.json`, attached as
 * the editor attaches them, each input left to the model with `$fromAI`). A real MCP client, the
 * official SDK, connects to the production URL from this process, lists the tools, calls them, and
 * the test reads what the client got, what the sandbox received and holds, and what n8n recorded.
 */

type McpClient = Awaited<ReturnType<typeof connectMcpClient>>;
type ToolResult = Awaited<ReturnType<McpClient['callTool']>>;

const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';
/** The MCP client's own secret for the copy of the workflow behind the trigger's Bearer Auth. */
const CLIENT_TOKEN = 'mcp-client-e2e-token';

let n8n: N8nInstance;
let sandbox: Sandbox;
let workflowId: string;
let mcpUrl: string;
let guardedUrl: string;
let client: McpClient;

const mcpTrigger = (workflow: WorkflowJson) => {
	const node = workflow.nodes.find((entry) => entry.type === MCP_TRIGGER_TYPE);
	if (!node) throw new Error('the workflow has no MCP Server Trigger');
	return node;
};

/** The same tools behind a second trigger that asks MCP clients for a bearer token. */
function guardedCopy(workflow: WorkflowJson): WorkflowJson {
	const trigger = mcpTrigger(workflow);
	const guarded = {
		...trigger,
		webhookId: 'e8f1b0c2-6d0a-4b8e-9c35-7a2d4f1e6b20',
		parameters: {
			...trigger.parameters,
			path: `${trigger.parameters.path}-guarded`,
			authentication: 'bearerAuth',
		},
		credentials: { httpBearerAuth: { name: 'MCP clients' } },
	};
	return { ...workflow, nodes: workflow.nodes.map((node) => (node === trigger ? guarded : node)) };
}

beforeAll(async () => {
	sandbox = await startSandbox({
		token: SANDBOX_TOKEN,
		seed: { users: 3, conversations: 9, tags: ['vip'] },
	});
	n8n = await startN8n({ mode: 'regular', packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR });
	const workflow = readWorkflow('mcp-server.workflow.json');
	const known = new Set<string>();
	({ id: workflowId } = await deployWorkflow(n8n, sandbox, workflow, { publish: true, known }));
	await n8n.importCredentials({
		name: 'MCP clients',
		type: 'httpBearerAuth',
		data: { token: CLIENT_TOKEN },
	});
	const guarded = guardedCopy(workflow);
	await deployWorkflow(n8n, sandbox, guarded, {
		publish: true,
		known,
		name: 'Support Chat behind MCP, bearer auth',
	});
	mcpUrl = n8n.mcpUrl(String(mcpTrigger(workflow).parameters.path));
	guardedUrl = n8n.mcpUrl(String(mcpTrigger(guarded).parameters.path));
	client = await connectMcpClient(mcpUrl);
});

afterAll(async () => {
	await client?.close();
	await n8n?.stop();
	await sandbox?.close();
});

/** The one text part of a tool result: n8n puts the tool's whole answer there. */
function onlyText(result: ToolResult): string {
	expect(result.content).toEqual([{ type: 'text', text: expect.any(String) }]);
	const text = (result.content as Array<{ text: string }>)[0].text;
	expect(text).not.toContain(SANDBOX_TOKEN);
	return text;
}

const requestLines = () => sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`);

/** The MCP Server Trigger's item in a run: which tool was called, with what. */
const triggerJson = (run: Execution) =>
	run.data.resultData.runData['MCP Server Trigger'][0].data.main[0][0].json;

/** Calls a tool and returns the result with the one run of the workflow the call started. */
async function callOnce(
	name: string,
	args: Record<string, unknown>,
): Promise<{ result: ToolResult; run: Execution }> {
	const afterId = await lastExecutionId(n8n, workflowId);
	sandbox.clearLog();
	const result = await client.callTool({ name, arguments: args });
	const [run] = await exactExecutions(n8n, workflowId, { count: 1, afterId });
	return { result, run };
}

describe('Streamable HTTP, the transport n8n recommends', () => {
	test('the client lists the three Support Chat tools, each with a description and its $fromAI inputs as the schema', async () => {
		const { tools } = await client.listTools();
		const byName = new Map(tools.map((tool) => [tool.name, tool]));
		// n8n names a tool after its node: "Get user" → Get_user.
		expect([...byName.keys()].sort()).toEqual(['Find_conversations', 'Get_user', 'Tag_user']);
		for (const [name, what] of [
			['Get_user', /user/i],
			['Tag_user', /tag/i],
			['Find_conversations', /conversation/i],
		] as const) {
			expect(byName.get(name)?.description).toEqual(expect.stringMatching(what));
		}
		const schema = (name: string) => {
			const { properties, required, type } = byName.get(name)!.inputSchema;
			return { type, properties, required: [...(required ?? [])].sort() };
		};
		// Get user keeps the node's own tool default: the input is described for the model. Tag user
		// holds what the editor's "let the model define this" button writes: a key and no description.
		expect(schema('Get_user')).toEqual({
			type: 'object',
			properties: {
				userId: {
					type: 'string',
					description: 'ID of the user, as in the id field of a Support Chat user record',
				},
			},
			required: ['userId'],
		});
		expect(schema('Tag_user')).toEqual({
			type: 'object',
			properties: { User: { type: 'string' }, Tag: { type: 'string' } },
			required: ['Tag', 'User'],
		});
		expect(schema('Find_conversations')).toEqual({
			type: 'object',
			properties: { Limit: { type: 'number' }, Status: { type: 'string' } },
			required: ['Limit', 'Status'],
		});
	});

	test("User → Get: the client receives the sandbox's user; the sandbox saw that one call, authorised; n8n recorded one run", async () => {
		const user = sandbox.state.users[1];
		const { result, run } = await callOnce('Get_user', { userId: user.id });
		expect(result.isError).toBeFalsy();
		const records = JSON.parse(onlyText(result));
		expect(records).toEqual([
			expect.objectContaining({ id: user.id, name: user.name, email: user.email }),
		]);
		expect(requestLines()).toEqual([`GET /users/${user.id} 200`]);
		expect(sandbox.requests[0].headers.authorization).toBe('Bearer ***');
		expect(run).toMatchObject({ status: 'success', mode: 'webhook' });
		expect(triggerJson(run).mcpToolCall).toEqual({
			toolName: 'Get_user',
			arguments: { userId: user.id },
			sourceNodeName: 'Get user',
		});
	});

	test('Tag → Add to User: the tag the client names lands on the user in the sandbox', async () => {
		const user = sandbox.state.users[0];
		expect(user.tags).not.toContain('mcp-lead');
		const { result } = await callOnce('Tag_user', { User: user.id, Tag: 'mcp-lead' });
		expect(result.isError).toBeFalsy();
		expect(JSON.parse(onlyText(result))).toEqual([
			expect.objectContaining({ id: user.id, tags: expect.arrayContaining(['mcp-lead']) }),
		]);
		expect(requestLines()).toEqual(['POST /tags 201']);
		expect(sandbox.requests[0].body).toEqual({ user_id: user.id, tag: 'mcp-lead' });
		expect(sandbox.state.users.find((entry) => entry.id === user.id)?.tags).toContain('mcp-lead');
	});

	test('Conversation → Get Many with a status filter and a limit: the closed ones, as many as asked', async () => {
		const closed = sandbox.state.conversations
			.filter((c) => c.status === 'closed')
			.map((c) => c.id);
		expect(closed.length).toBeGreaterThan(2);
		const { result } = await callOnce('Find_conversations', { Status: 'closed', Limit: 2 });
		expect(result.isError).toBeFalsy();
		const conversations: Array<{ id: string; status: string }> = JSON.parse(onlyText(result));
		expect(conversations.map((c) => [c.id, c.status])).toEqual(
			closed.slice(0, 2).map((id) => [id, 'closed']),
		);
		expect(requestLines()).toEqual(['GET /conversations 200']);
		expect(sandbox.requests[0].query).toMatchObject({ status: 'closed' });
	});

	test("an unknown user id: the client gets the tool's answer { error } with the service's message and our hint", async () => {
		const { result, run } = await callOnce('Get_user', { userId: 'u_missing' });
		// As n8n's own tools do, a failed call is answered, not thrown (docs/ai-tool.md › Errors):
		// thrown, AI Agent 2.x would hand its model an empty message. On Error › Stop Workflow throws.
		expect(result.isError).toBeFalsy();
		expect(JSON.parse(onlyText(result))).toEqual([
			{
				error:
					'The service answered GET /users/u_missing with 404: User u_missing not found. ' +
					'The user was not found. Check the ID, and that the Base URL in the credentials points at your service.',
			},
		]);
		// A 404 is final: one request, no retry.
		expect(requestLines()).toEqual(['GET /users/u_missing 404']);
		// The run in n8n's executions list shows the same on the tool's node.
		const [toolRun] = run.data.resultData.runData['Get user'];
		expect(toolRun.data.ai_tool[0][0].json.response).toEqual([
			{ error: expect.stringContaining('Check the ID') },
		]);
	});
});

test('SSE, which n8n marks deprecated, serves the same tools at the same URL', async () => {
	const sse = await connectMcpClient(mcpUrl, { transport: 'sse' });
	try {
		const { tools } = await sse.listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual([
			'Find_conversations',
			'Get_user',
			'Tag_user',
		]);
		const user = sandbox.state.users[2];
		sandbox.clearLog();
		const result = await sse.callTool({ name: 'Get_user', arguments: { userId: user.id } });
		expect(JSON.parse(onlyText(result))).toEqual([
			expect.objectContaining({ id: user.id, email: user.email }),
		]);
		expect(requestLines()).toEqual([`GET /users/${user.id} 200`]);
	} finally {
		await sse.close();
	}
});

test("the trigger's Bearer Auth: a client without the token, or with a wrong one, is refused (403); with it, it gets the tools", async () => {
	sandbox.clearLog();
	await expect(connectMcpClient(guardedUrl)).rejects.toMatchObject({ code: 403 });
	await expect(
		connectMcpClient(guardedUrl, { headers: { authorization: 'Bearer not-the-token' } }),
	).rejects.toMatchObject({
		code: 403,
		message: expect.stringContaining('Authorization data is wrong!'),
	});
	const allowed = await connectMcpClient(guardedUrl, {
		headers: { authorization: `Bearer ${CLIENT_TOKEN}` },
	});
	try {
		const { tools } = await allowed.listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual([
			'Find_conversations',
			'Get_user',
			'Tag_user',
		]);
	} finally {
		await allowed.close();
	}
	// Listing tools asks nothing of the service.
	expect(sandbox.requests).toEqual([]);
});
