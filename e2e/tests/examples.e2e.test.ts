/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import path from 'node:path';

import { startN8n, type N8nInstance, type WorkflowJson } from '../harness';
import {
	ACTION_TYPE,
	deployWorkflow,
	exactExecutions,
	exampleFiles,
	readWorkflow,
	SANDBOX_TOKEN,
	TRIGGER_TYPE,
	triggerPath,
	WEBHOOK_SECRET,
} from '../support';
import { startSandbox, type Sandbox } from '../../sandbox';

/*
 * The example workflows of examples/*.json, imported into a real n8n through its public API the way a
 * user brings them in: n8n must accept each one, know every node type and version it uses, and read
 * it back unchanged. lead-escalation is published and run by a real delivery from the sandbox.
 * Skipped (and no n8n started) while the repository has no examples.
 */

const files = exampleFiles();
const describeExamples = files.length > 0 ? describe : describe.skip;

describeExamples('example workflows', () => {
	let n8n: N8nInstance;
	let sandbox: Sandbox;
	let knownTypes: Set<string>;
	const known = new Set<string>();
	const imported = new Map<string, { id: string; workflow: WorkflowJson }>();

	beforeAll(async () => {
		sandbox = await startSandbox({
			token: SANDBOX_TOKEN,
			seed: { users: 20, conversations: 10, tags: ['vip', 'lead'] },
		});
		n8n = await startN8n({ mode: 'regular', packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR });
		knownTypes = new Set(
			(await n8n.nodeTypes()).flatMap((type: { name: string; version: number | number[] }) =>
				(Array.isArray(type.version) ? type.version : [type.version]).map(
					(version) => `${type.name}@${version}`,
				),
			),
		);
	});

	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.close();
	});

	test.each(files.map((file) => [path.basename(file), file]))(
		'%s is accepted by n8n',
		async (_name, file) => {
			const workflow = readWorkflow(file);
			expect(
				workflow.nodes.some((node) => node.type === ACTION_TYPE || node.type === TRIGGER_TYPE),
			).toBe(true);
			const unknown = workflow.nodes.filter(
				(node) => !knownTypes.has(`${node.type}@${node.typeVersion}`),
			);
			expect(unknown.map((node) => `${node.name}: ${node.type}@${node.typeVersion}`)).toEqual([]);

			const deployed = await deployWorkflow(n8n, sandbox, workflow, { publish: false, known });
			imported.set(path.basename(file), { id: deployed.id, workflow });
			const stored = await n8n.api('GET', `/workflows/${deployed.id}`);
			expect(
				stored.nodes.map((node: { name: string; type: string }) => `${node.name}: ${node.type}`),
			).toEqual(workflow.nodes.map((node) => `${node.name}: ${node.type}`));
			expect(stored.connections).toEqual(workflow.connections ?? {});
		},
	);

	const leadFile = files.find((file) => /lead-escalation/.test(path.basename(file)));
	(leadFile ? test : test.skip)(
		'lead-escalation is published and handles a real lead',
		async () => {
			const { id, workflow } = imported.get(path.basename(leadFile as string)) ?? {
				id: '',
				workflow: undefined,
			};
			expect(workflow).toBeDefined();
			await n8n.publishWorkflow(id);
			const trigger = (workflow as WorkflowJson).nodes.find((node) => node.type === TRIGGER_TYPE);
			expect(trigger?.webhookId).toBeDefined();
			sandbox.configureWebhooks({
				urls: n8n.webhookUrl(triggerPath(trigger!)),
				secret: WEBHOOK_SECRET,
				style: 'dotted',
			});

			const visitor = sandbox.visitor.startConversation({
				name: 'Grace Hopper',
				message: 'Hello there',
			});
			sandbox.clearLog();
			sandbox.visitor.say(visitor.conversation.id, 'Please mail me at grace@example.com');
			await sandbox.settled();
			const [run] = await exactExecutions(n8n, id, { count: 1, timeoutMs: 60_000 });
			expect(run.status).toBe('success');
			const calls = sandbox.requests.map((r) => `${r.method} ${r.path}`);
			expect(calls).toEqual(
				expect.arrayContaining([
					'POST /tags',
					`POST /conversations/${visitor.conversation.id}/assign`,
					'POST /messages',
				]),
			);
		},
	);
});
