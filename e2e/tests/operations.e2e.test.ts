/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { startN8n, type Execution, type N8nInstance } from '../harness';
import { deployWorkflow, readWorkflow, SANDBOX_TOKEN } from '../support';
import { startSandbox, type PaginationStyle, type Sandbox } from '../../sandbox';

/*
 * Every action operation, in one published workflow run by a real n8n against the sandbox over HTTP:
 * a webhook starts it, thirteen Support Chat nodes (each resource and operation once) call the
 * service, and the test reads both sides: what the sandbox received and holds, and what n8n stored
 * as the execution. Return All pages through every list (three pages of users), once for each of two
 * page shapes the node has to recognise on its own.
 */

const SEED = { users: 45, conversations: 25, tags: ['vip', 'lead', 'newsletter'] };

let n8n: N8nInstance;
let sandbox: Sandbox;
let workflowId: string;

beforeAll(async () => {
	sandbox = await startSandbox({ token: SANDBOX_TOKEN, pageSize: 20, seed: SEED });
	n8n = await startN8n({ mode: 'regular', packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR });
	({ id: workflowId } = await deployWorkflow(
		n8n,
		sandbox,
		readWorkflow('all-operations.workflow.json'),
		{ publish: true },
	));
});

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

/** The JSON of every item a node put out in the run. */
function output(execution: Execution, node: string): Array<Record<string, any>> {
	const runs = execution.data.resultData.runData[node];
	expect(runs).toHaveLength(1);
	return runs[0].data.main[0].map((item: { json: Record<string, any> }) => item.json);
}

async function runOnce(): Promise<Execution> {
	const before = await n8n.executions({ includeData: false, workflowId });
	const response = await n8n.webhook('POST', 'support-chat-all-operations', {});
	expect(response.status).toBe(200);
	const [execution] = await n8n.waitForExecutions(workflowId, { afterId: before.at(-1)?.id });
	return execution;
}

describe.each<PaginationStyle>(['link', 'next-url'])(
	'every operation, pages in the %s style',
	(pagination) => {
		let execution: Execution;
		let usersBefore: string[];

		beforeAll(async () => {
			sandbox.reset();
			sandbox.configure({ pagination });
			usersBefore = sandbox.state.users.map((user) => user.id);
			execution = await runOnce();
		});

		test('n8n stored a successful webhook execution of all fourteen nodes', () => {
			expect(execution).toMatchObject({ status: 'success', mode: 'webhook', finished: true });
			expect(execution.data.resultData.error).toBeUndefined();
			expect(execution.data.resultData.lastNodeExecuted).toBe('Delete user');
			expect(Object.keys(execution.data.resultData.runData)).toEqual([
				'Webhook',
				'Create user',
				'Get user',
				'Update user',
				'Add tag',
				'Create conversation',
				'Get conversation',
				'Assign conversation',
				'Send message',
				'Close conversation',
				'Get all users',
				'Get closed conversations',
				'Get all tags',
				'Delete user',
			]);
		});

		test('the sandbox received each request once, in order, all authorised', () => {
			const [created] = output(execution, 'Create user');
			const [conversation] = output(execution, 'Create conversation');
			const u = created.id as string;
			const c = conversation.id as string;
			const closedCount = sandbox.state.conversations.filter(
				(entry) => entry.status === 'closed',
			).length;
			expect(closedCount).toBeLessThan(20);
			// A bare array without a Link header gives no sign of being the only page: the node then asks for
			// page 2 and stops at the empty answer. With next_page_url it knows at once.
			const singlePage = pagination === 'link' ? 2 : 1;
			expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
				'POST /users 201',
				`GET /users/${u} 200`,
				`PUT /users/${u} 200`,
				'POST /tags 201',
				'POST /conversations 201',
				`GET /conversations/${c} 200`,
				`POST /conversations/${c}/assign 200`,
				'POST /messages 201',
				`POST /conversations/${c}/close 200`,
				// 46 users in pages of 20.
				'GET /users 200',
				'GET /users 200',
				'GET /users 200',
				...Array.from({ length: singlePage }, () => 'GET /conversations 200'),
				...Array.from({ length: singlePage }, () => 'GET /tags 200'),
				`DELETE /users/${u} 200`,
			]);
			for (const request of sandbox.requests)
				expect(request.headers.authorization).toBe('Bearer ***');
			const userPages = sandbox.requests
				.filter((r) => r.method === 'GET' && r.path === '/users')
				.map((r) => r.query.page);
			expect(userPages).toEqual([undefined, '2', '3']);
			expect(sandbox.requests[0].body).toEqual({
				name: 'Ada Lovelace',
				email: 'ada@example.com',
				phone: '+441234567890',
				tags: ['vip'],
			});
			expect(sandbox.requests[6].body).toEqual({ agent_id: 'agent_e2e' });
			expect(sandbox.requests[7].body).toEqual({
				conversation_id: c,
				message: 'We are on it',
				type: 'agent',
			});
		});

		test('each node put out what the service answered', () => {
			const [created] = output(execution, 'Create user');
			expect(created).toMatchObject({
				name: 'Ada Lovelace',
				email: 'ada@example.com',
				tags: ['vip'],
			});
			expect(output(execution, 'Get user')).toEqual([
				expect.objectContaining({ id: created.id, email: 'ada@example.com' }),
			]);
			expect(output(execution, 'Update user')).toEqual([
				expect.objectContaining({ id: created.id, name: 'Ada King' }),
			]);
			const [conversation] = output(execution, 'Create conversation');
			expect(conversation).toMatchObject({
				user_id: created.id,
				status: 'active',
				subject: 'End-to-end',
			});
			expect(output(execution, 'Assign conversation')).toEqual([
				expect.objectContaining({ id: conversation.id, assignee_id: 'agent_e2e' }),
			]);
			expect(output(execution, 'Send message')).toEqual([
				expect.objectContaining({
					conversation_id: conversation.id,
					message: 'We are on it',
					type: 'agent',
				}),
			]);
			expect(output(execution, 'Close conversation')).toEqual([
				expect.objectContaining({ id: conversation.id, status: 'closed' }),
			]);
			expect(output(execution, 'Delete user')).toEqual([{ id: created.id, deleted: true }]);
		});

		test('Return All brought every record across the pages, in order', () => {
			const [created] = output(execution, 'Create user');
			expect(output(execution, 'Get all users').map((user) => user.id)).toEqual([
				...usersBefore,
				created.id,
			]);
			const closed = sandbox.state.conversations
				.filter((entry) => entry.status === 'closed')
				.map((entry) => entry.id);
			expect(output(execution, 'Get closed conversations').map((entry) => entry.id)).toEqual(
				closed,
			);
			expect(output(execution, 'Get all tags').map((tag) => tag.name)).toEqual(
				sandbox.state.tags.map((tag) => tag.name),
			);
		});

		test('the sandbox holds the result: user gone, conversation assigned and closed, message stored', () => {
			const [created] = output(execution, 'Create user');
			const [conversation] = output(execution, 'Create conversation');
			expect(sandbox.state.users.some((user) => user.id === created.id)).toBe(false);
			expect(
				sandbox.state.conversations.find((entry) => entry.id === conversation.id),
			).toMatchObject({
				status: 'closed',
				assignee_id: 'agent_e2e',
			});
			expect(
				sandbox.state.messages
					.filter((m) => m.conversation_id === conversation.id)
					.map((m) => [m.type, m.message]),
			).toEqual([
				['user', 'Hello from n8n'],
				['agent', 'We are on it'],
			]);
		});
	},
);
