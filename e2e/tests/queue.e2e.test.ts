/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import fs from 'node:fs';

import { describeLeadEscalation } from '../support/leadEscalation';

/*
 * Queue mode, as n8n is scaled: a main process (editor, API, activation), an `n8n worker` and an
 * `n8n webhook` process, Redis for the queue and PostgreSQL for the data. The sandbox's deliveries go
 * to the webhook process, which verifies and filters them and queues the run; the worker executes it,
 * and the action node's calls back to the service come from the worker.
 */

const context = describeLeadEscalation('queue');

test('main, worker and webhook processes on PostgreSQL and Redis', () => {
	const { n8n } = context;
	expect(n8n.processes.map((p) => p.name)).toEqual(['main', 'worker1', 'webhook']);
	expect(n8n.webhookBaseUrl).not.toBe(n8n.baseUrl);
});

test('every delivery went to the webhook process', () => {
	const { n8n, sandbox } = context;
	expect(sandbox.deliveries.length).toBeGreaterThan(0);
	for (const delivery of sandbox.deliveries)
		expect(delivery.url.startsWith(`${n8n.webhookBaseUrl}/webhook/`)).toBe(true);
});

test('the worker executed every run; main and the webhook process executed none', () => {
	const { n8n, runs } = context;
	expect(runs).toHaveLength(3);
	const worker = fs.readFileSync(n8n.logs.worker1, 'utf8');
	const main = fs.readFileSync(n8n.logs.main, 'utf8');
	const webhook = fs.readFileSync(n8n.logs.webhook, 'utf8');
	for (const run of runs) {
		expect(run.mode).toBe('webhook');
		expect(worker).toContain(`Worker finished execution ${run.id} `);
		expect(main).not.toContain(`finished execution ${run.id} `);
		expect(webhook).not.toContain(`finished execution ${run.id} `);
	}
});

test('the main process does not answer the production URL', async () => {
	const { n8n, triggerUrl } = context;
	const onMain = triggerUrl.replace(n8n.webhookBaseUrl, n8n.baseUrl);
	const response = await fetch(onMain, {
		method: 'POST',
		body: '{}',
		headers: { 'content-type': 'application/json' },
	});
	expect(response.status).toBe(404);
});
