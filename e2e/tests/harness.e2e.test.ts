/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import fs from 'node:fs';
import path from 'node:path';

import { startN8n, type N8nInstance, type WorkflowJson } from '../harness';

/*
 * The harness's own plumbing, with n8n's built-in nodes only: workflows imported and published through
 * the public API, production webhooks answered (by the webhook process in queue mode, executed by a
 * worker), executions read back, the CLI runner. The package's scenarios build on exactly these.
 */

const fixture = (name: string) =>
	JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', name), 'utf8')) as WorkflowJson;

async function echoRoundTrip(n8n: N8nInstance) {
	const workflow = await n8n.importWorkflow(fixture('webhook-echo.workflow.json'));
	await n8n.publishWorkflow(workflow.id);
	const response = await n8n.webhook('POST', 'e2e-echo', { value: 'hi' });
	expect(response.status).toBe(200);
	expect(response.body).toEqual({ echo: 'hi', doubled: 'hihi' });
	const [execution] = await n8n.waitForExecutions(workflow.id);
	expect(execution.status).toBe('success');
	expect(execution.mode).toBe('webhook');
	expect(Object.keys(execution.data.resultData.runData)).toEqual(['Webhook', 'Echo']);
	return execution;
}

describe('regular mode', () => {
	let n8n: N8nInstance;
	beforeAll(async () => {
		n8n = await startN8n({ mode: 'regular', packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR });
	});
	afterAll(async () => {
		await n8n?.stop();
	});

	test('one process on loopback, webhooks served by main', () => {
		expect(n8n.processes.map((p) => p.name)).toEqual(['main']);
		expect(n8n.webhookBaseUrl).toBe(n8n.baseUrl);
		expect(n8n.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	});

	test('a published workflow answers its production webhook', async () => {
		await echoRoundTrip(n8n);
	});

	test('the CLI runs a workflow from its manual trigger', async () => {
		const workflow = await n8n.importWorkflow(fixture('manual-hello.workflow.json'));
		const run = await n8n.executeWorkflowCli(workflow.id);
		expect(
			run.data.resultData.runData.Hello[0].data.main[0].map((item: { json: unknown }) => item.json),
		).toEqual([{ hello: 'world' }]);
	});

	test('the internal API answers as the owner, the public API with the key', async () => {
		const me = await n8n.rest('GET', '/rest/login');
		expect(me.data.email).toBe(n8n.owner.email);
		const workflows = await n8n.api('GET', '/workflows');
		expect(workflows.data.length).toBeGreaterThanOrEqual(2);
	});
});

describe('queue mode', () => {
	let n8n: N8nInstance;
	beforeAll(async () => {
		n8n = await startN8n({ mode: 'queue', packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR });
	});
	afterAll(async () => {
		await n8n?.stop();
	});

	test('main, a worker and a webhook process, each on its own port', () => {
		expect(n8n.processes.map((p) => p.name)).toEqual(['main', 'worker1', 'webhook']);
		expect(n8n.webhookBaseUrl).not.toBe(n8n.baseUrl);
	});

	test('a production webhook goes through the webhook process and runs on the worker', async () => {
		const execution = await echoRoundTrip(n8n);
		expect(fs.readFileSync(n8n.logs.worker1, 'utf8')).toContain(
			`Worker finished execution ${execution.id} `,
		);
	});

	test('the main process does not serve production webhooks', async () => {
		const response = await fetch(`${n8n.baseUrl}/webhook/e2e-echo`, { method: 'POST' });
		expect(response.status).not.toBe(200);
	});
});
