/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import fs from 'node:fs';

import {
	ensureN8n,
	N8N_LINES,
	PACKAGE_NAME,
	startN8n,
	type N8nInstance,
	type WorkflowJson,
} from '../harness';
import { ACTION_TYPE, deployWorkflow, SANDBOX_TOKEN } from '../support';
import { describeAgentScenarios } from '../support/agentScenario';
import { describeLeadEscalation } from '../support/leadEscalation';
import { startSandbox, type Sandbox } from '../../sandbox';
import { hintForStatus } from '../../nodes/SupportChat/transport/errors';

/*
 * The package in a real install of the last n8n 1.x (installed by the harness into a cache folder of
 * its own, run on the machine's Node), installed as n8n installs a community package: the
 * lead-escalation scenario with the workflow activated (1.x has no "publish"), Return All over several
 * pages, and whether the derived AI tool type is offered without and with
 * N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE.
 */

const N8N1 = N8N_LINES['1.x'].n8n;
const TOOL_TYPE = `${PACKAGE_NAME}.supportChatTool`;

// The first run installs n8n 1.x (about 5 minutes); later runs find it in the cache. Registered before
// the scenario's own beforeAll, so that the install has a timeout of its own.
beforeAll(async () => {
	await ensureN8n({ line: '1.x' });
}, 20 * 60_000);

const context = describeLeadEscalation('regular', { n8nLine: '1.x' });

describe(`n8n ${N8N1}`, () => {
	test('is the release that ran the scenario, in one process, with the workflow active', async () => {
		const { n8n, workflowId, runs } = context;
		const { data: settings } = await n8n.rest('GET', '/rest/settings');
		expect(settings.versionCli).toBe(N8N1);
		expect(n8n.processes.map((p) => p.name)).toEqual(['main']);
		expect(await n8n.api('GET', `/workflows/${workflowId}`)).toMatchObject({
			id: workflowId,
			active: true,
		});
		expect(runs).toHaveLength(3);
		for (const run of runs) expect(run.mode).toBe('webhook');
	});

	test('logged no failure about the package', () => {
		const complaints = fs
			.readFileSync(context.n8n.logs.main, 'utf8')
			.split('\n')
			.filter((line) => line.includes(PACKAGE_NAME) || /supportChat/i.test(line))
			.filter((line) => /error|fail|warn|unknown|could not/i.test(line));
		expect(complaints).toEqual([]);
	});

	// The credential type has no declarative test: 1.x, like 2.x, must find the nodes' testedBy function.
	test('tests the credentials with the nodes’ function: the service’s own message for a wrong token', async () => {
		const { n8n, sandbox } = context;
		const data = (apiToken: string) => ({
			baseUrl: sandbox.origin,
			apiToken,
			allowHttp: false,
			webhookSecret: '',
		});
		const [credential] = await n8n.importCredentials({
			name: 'Credential test',
			type: 'supportChatApi',
			data: data(SANDBOX_TOKEN),
		});
		const test = async (apiToken: string) =>
			(
				await n8n.rest('POST', '/rest/credentials/test', {
					credentials: { ...credential, data: data(apiToken) },
				})
			).data;
		expect(await test(SANDBOX_TOKEN)).toEqual({ status: 'OK', message: 'Connection successful' });
		expect(await test('wrong-token')).toEqual({
			status: 'Error',
			message: `The service answered GET /tags with 401: Invalid bearer token. ${hintForStatus(401)}`,
		});
	});

	test(`offers ${TOOL_TYPE} without N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE`, async () => {
		const types = await context.n8n.nodeTypes();
		const names = types
			.map((type) => type.name)
			.filter((name) => name.startsWith(`${PACKAGE_NAME}.`));
		expect(names.sort()).toEqual(
			[
				ACTION_TYPE,
				TOOL_TYPE,
				`${PACKAGE_NAME}.supportChatTrigger`,
				`${PACKAGE_NAME}.supportChatPollTrigger`,
			].sort(),
		);
		const tool = types.find((type) => type.name === TOOL_TYPE);
		expect(tool).toMatchObject({ displayName: 'Support Chat Tool', outputs: ['ai_tool'] });
	});
});

describe('Return All: User → Get Many over several pages', () => {
	const USERS = 45;
	const PAGE_SIZE = 20;
	const workflow: WorkflowJson = {
		name: 'Support Chat: every user',
		nodes: [
			{
				id: 'b6a0c0de-0001-4000-8000-000000000001',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: 'b6a0c0de-0001-4000-8000-0000000000aa',
				parameters: {
					httpMethod: 'POST',
					path: 'support-chat-every-user',
					responseMode: 'lastNode',
					responseData: 'allEntries',
					options: {},
				},
			},
			{
				id: 'b6a0c0de-0001-4000-8000-000000000002',
				name: 'Get all users',
				type: ACTION_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: { resource: 'user', operation: 'getAll', returnAll: true },
				credentials: { supportChatApi: { name: 'Support Chat Return All' } },
			},
		],
		connections: { Webhook: { main: [[{ node: 'Get all users', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};

	let sandbox: Sandbox;
	let answer: { status: number; body: any };
	let output: Array<Record<string, any>>;

	beforeAll(async () => {
		sandbox = await startSandbox({
			token: SANDBOX_TOKEN,
			pageSize: PAGE_SIZE,
			pagination: 'link',
			seed: { users: USERS },
		});
		const { n8n } = context;
		const { id } = await deployWorkflow(n8n, sandbox, workflow, { publish: true });
		answer = await n8n.webhook('POST', 'support-chat-every-user', {});
		const [run] = await n8n.waitForExecutions(id);
		expect(run).toMatchObject({ status: 'success', mode: 'webhook' });
		output = run.data.resultData.runData['Get all users'][0].data.main[0].map(
			(item: { json: Record<string, any> }) => item.json,
		);
	});

	afterAll(async () => {
		await sandbox?.close();
	});

	test('the service was asked for each page once, authorised', () => {
		expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(
			Array(3).fill('GET /users 200'),
		);
		expect(sandbox.requests.map((r) => r.query.page)).toEqual([undefined, '2', '3']);
		for (const request of sandbox.requests)
			expect(request.headers.authorization).toBe('Bearer ***');
	});

	test("every user is in the output once, in the service's order, and in the webhook's answer", () => {
		const ids = sandbox.state.users.map((user) => user.id);
		expect(ids).toHaveLength(USERS);
		expect(output.map((user) => user.id)).toEqual(ids);
		expect(answer.status).toBe(200);
		expect((answer.body as Array<{ id: string }>).map((user) => user.id)).toEqual(ids);
	});
});

// n8n 1.123 has no such setting any more (nothing in it reads the variable): set or not, the tool type
// is derived from every node with usableAsTool. A second start shows the variable changes nothing.
describe('with N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE=true', () => {
	let n8n: N8nInstance;

	beforeAll(async () => {
		n8n = await startN8n({
			n8nLine: '1.x',
			packed: context.n8n.package,
			env: { N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true' },
		});
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	test(`${TOOL_TYPE} is offered the same as without it`, async () => {
		const toolOf = async (instance: N8nInstance) =>
			(await instance.nodeTypes()).find((type) => type.name === TOOL_TYPE);
		const withVariable = await toolOf(n8n);
		expect(withVariable).toMatchObject({ displayName: 'Support Chat Tool', outputs: ['ai_tool'] });
		expect(withVariable).toEqual(await toolOf(context.n8n));
	});
});

// The same agent scenarios as in 2.41.1 (AI Agent 3.1 over both OpenAI APIs, and 2.2), without
// N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: what the model is offered, what it gets back, errors with hints.
describe(`Support Chat Tool under an AI Agent in n8n ${N8N1}`, () => {
	describeAgentScenarios({ n8nLine: '1.x' });
});
