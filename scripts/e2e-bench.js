#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * npm run bench:e2e: the package against n8n's built-in nodes, in one real n8n (regular mode, SQLite,
 * as installed by the end-to-end harness) and against one sandbox.
 *
 * 1. Return All of 20,000 users (200 pages of 100, the sandbox's Link-header pages): the Support Chat
 *    node versus the HTTP Request node with its own pagination over the same pages (same credential,
 *    page number incremented, done when no rel="next" is left). Each run is a webhook-started workflow;
 *    the figure is the node's own executionTime as n8n stored it (the wall time of the whole run is
 *    printed beside it). Variants interleaved, one warm-up each, median of the rest.
 * 2. Deliveries per second: the Support Chat Trigger versus the Webhook node, each alone in a published
 *    workflow. (a) the sandbox's own deliveries, which go out one at a time per receiver, as a chat
 *    service sends them; (b) the same signed payloads posted 16 at a time. "accepted/s" counts answered
 *    deliveries, "completed/s" runs stored as finished.
 * 3. The deliveries again in a second n8n with N8N_EXPRESSION_ENGINE=legacy: n8n 2.41 acquires its
 *    expression isolate (a pool of one) for every webhook request of any node but its own Webhook node,
 *    and this shows that share of the difference.
 *
 * Options: --runs N (measured Return All runs per variant, default 3), --deliveries N (per measurement,
 * at most 250, default 100), --no-build.
 */

const { execFileSync } = require('node:child_process');
const os = require('node:os');
const { parseArgs } = require('node:util');

const { N8N_VERSION, NODE_VERSION, request, startN8n } = require('../e2e/harness');
const { ACTION_TYPE, CREDENTIAL_TYPE, REPO_ROOT, SANDBOX_TOKEN, TRIGGER_TYPE, WEBHOOK_SECRET, sleep } = require('../e2e/support');
const { signWebhook, startSandbox } = require('../sandbox');

const { values } = parseArgs({
	options: {
		runs: { type: 'string', default: '3' },
		deliveries: { type: 'string', default: '100' },
		'no-build': { type: 'boolean', default: false },
	},
});
const RUNS = Math.max(1, Number(values.runs));
const DELIVERIES = Math.min(250, Math.max(10, Number(values.deliveries)));
const USERS = 20_000;
const PAGE = 100;
const CONCURRENCY = 16;

const log = (/** @type {string} */ line = '') => process.stdout.write(`${line}\n`);
const median = (/** @type {number[]} */ xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (/** @type {number} */ n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** @typedef {import('../e2e/harness').N8nInstance} N8nInstance */
/** @typedef {import('../e2e/harness').WorkflowNodeJson} WorkflowNodeJson */

const CREDENTIAL = { [CREDENTIAL_TYPE]: { name: 'Bench sandbox' } };
let nodeIds = 0;

/**
 * @param {string} name
 * @param {string} type
 * @param {number} typeVersion
 * @param {Record<string, unknown>} parameters
 * @param {Partial<WorkflowNodeJson>} [extra]
 * @returns {WorkflowNodeJson}
 */
const node = (name, type, typeVersion, parameters, extra = {}) => ({
	id: `00000000-0000-4000-8000-${String(++nodeIds).padStart(12, '0')}`,
	name,
	type,
	typeVersion,
	position: [nodeIds * 220, 0],
	parameters,
	...extra,
});

/**
 * A webhook that answers when the run is over, then the node under test.
 * @param {string} path
 * @param {WorkflowNodeJson} subject
 */
function returnAllWorkflow(path, subject) {
	const hook = node('Start', 'n8n-nodes-base.webhook', 2, {
		httpMethod: 'POST',
		path,
		responseMode: 'lastNode',
		responseData: 'noData',
		options: {},
	}, { webhookId: crypto.randomUUID() });
	return {
		name: `bench: ${subject.name}`,
		nodes: [hook, subject],
		connections: { Start: { main: [[{ node: subject.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/**
 * @param {import('../sandbox').Sandbox} sandbox
 */
function returnAllVariants(sandbox) {
	return [
		{
			label: 'Support Chat node (Return All)',
			path: 'bench-ours',
			node: node('Support Chat', ACTION_TYPE, 1, { resource: 'user', operation: 'getAll', returnAll: true }, { credentials: CREDENTIAL }),
		},
		{
			label: 'HTTP Request node (its pagination)',
			path: 'bench-http',
			node: node(
				'HTTP Request',
				'n8n-nodes-base.httpRequest',
				4.2,
				{
					method: 'GET',
					url: `${sandbox.baseUrl}/users`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: CREDENTIAL_TYPE,
					options: {
						pagination: {
							pagination: {
								paginationMode: 'updateAParameterInEachRequest',
								parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }] },
								paginationCompleteWhen: 'other',
								completeExpression: '={{ !String($response.headers.link || "").includes(\'rel="next"\') }}',
								limitPagesFetched: false,
								requestInterval: 0,
							},
						},
					},
				},
				{ credentials: CREDENTIAL },
			),
		},
		{
			// Pages are fetched a few at a time only when the service tells how many there are; Link
			// headers here do not (the node does not read rel="last"), so this variant gets the same
			// pages with a page count in the body.
			label: 'Support Chat node, 4 pages in flight (page count in the body)',
			path: 'bench-ours-4',
			sandboxPagination: /** @type {const} */ ('page'),
			node: node(
				'Support Chat (concurrency 4)',
				ACTION_TYPE,
				1,
				{ resource: 'user', operation: 'getAll', returnAll: true, options: { paginationStyle: 'page', concurrency: 4 } },
				{ credentials: CREDENTIAL },
			),
		},
	];
}

/**
 * @param {N8nInstance} n8n
 * @param {import('../sandbox').Sandbox} sandbox
 */
async function benchReturnAll(n8n, sandbox) {
	log(`\n1. Return All of ${fmt(USERS)} users, ${USERS / PAGE} pages of ${PAGE} (median of ${RUNS} runs after a warm-up)`);
	/** @type {Array<ReturnType<typeof returnAllVariants>[number] & { id: string, nodeMs: number[], wallMs: number[], items: number, requests: number }>} */
	const variants = [];
	for (const variant of returnAllVariants(sandbox)) {
		const created = await n8n.importWorkflow(returnAllWorkflow(variant.path, variant.node));
		await n8n.publishWorkflow(created.id);
		variants.push({ ...variant, id: created.id, nodeMs: [], wallMs: [], items: 0, requests: 0 });
	}
	for (let round = 0; round <= RUNS; round++) {
		for (const variant of variants) {
			sandbox.configure({ pagination: variant.sandboxPagination ?? 'link' });
			sandbox.clearLog();
			const response = await n8n.webhook('POST', variant.path, {}, { timeoutMs: 300_000 });
			if (response.status !== 200) throw new Error(`${variant.label}: webhook answered ${response.status} ${JSON.stringify(response.body)}`);
			const requests = sandbox.requests.length;
			const [execution] = (await n8n.executions({ workflowId: variant.id, includeData: false })).slice(-1);
			const full = await n8n.execution(execution.id);
			const run = full.data.resultData.runData[variant.node.name][0];
			const items = run.data.main[0].length;
			if (full.status !== 'success' || items !== USERS) {
				throw new Error(`${variant.label}: ${full.status}, ${items} items (${JSON.stringify(full.data.resultData.error ?? {}).slice(0, 300)})`);
			}
			if (round === 0) continue;
			variant.nodeMs.push(run.executionTime);
			variant.wallMs.push(response.ms);
			variant.items = items;
			variant.requests = requests;
		}
	}
	const width = Math.max(...variants.map((v) => v.label.length));
	log(`   ${'variant'.padEnd(width)}  node ms   run ms   requests  items`);
	for (const v of variants) {
		log(`   ${v.label.padEnd(width)}  ${fmt(median(v.nodeMs)).padStart(7)}  ${fmt(median(v.wallMs)).padStart(7)}  ${String(v.requests).padStart(8)}  ${fmt(v.items)}`);
	}
	const [ours, http, ours4] = variants;
	const ratio = median(http.nodeMs) / median(ours.nodeMs);
	log(`   ratio HTTP Request / Support Chat (node time): ${ratio.toFixed(2)}  (${ratio >= 1 ? 'ours faster' : 'ours slower'} by ${fmt(Math.abs(1 - ratio) * 100)} %)`);
	log(`   ratio HTTP Request / Support Chat with 4 in flight: ${(median(http.nodeMs) / median(ours4.nodeMs)).toFixed(2)}`);
	return { ours: median(ours.nodeMs), http: median(http.nodeMs), ours4: median(ours4.nodeMs), ratio };
}

/**
 * @param {N8nInstance} n8n
 * @param {string} workflowId
 * @param {number} count
 * @param {number} since epoch ms
 */
async function waitForFinished(n8n, workflowId, count, since) {
	const deadline = Date.now() + 180_000;
	for (;;) {
		const all = await n8n.executions({ workflowId, includeData: false, limit: 250 });
		const done = all.filter((e) => e.stoppedAt && ['success', 'error', 'crashed'].includes(e.status));
		if (done.length >= count) {
			const failed = done.filter((e) => e.status !== 'success').length;
			const last = Math.max(...done.map((e) => Date.parse(/** @type {string} */ (e.stoppedAt))));
			return { ms: last - since, failed, total: all.length };
		}
		if (Date.now() > deadline) throw new Error(`workflow ${workflowId}: ${done.length} of ${count} runs finished`);
		await sleep(250);
	}
}

/**
 * @param {N8nInstance} n8n
 * @param {string} label
 * @param {WorkflowNodeJson} starter
 * @param {string} path
 */
async function deployReceiver(n8n, label, starter, path) {
	const created = await n8n.importWorkflow({ name: `bench: ${label}`, nodes: [starter], connections: {}, settings: { executionOrder: 'v1' } });
	await n8n.publishWorkflow(created.id);
	return { id: created.id, url: n8n.webhookUrl(path) };
}

/**
 * @param {N8nInstance} n8n
 * @param {import('../sandbox').Sandbox} sandbox
 * @param {boolean} [withSigned] also measure the trigger with Standard Webhooks verification
 */
async function benchDeliveries(n8n, sandbox, withSigned = true) {
	/** @param {string} name @param {Record<string, unknown>} parameters */
	const trigger = (name, parameters) => {
		const webhookId = crypto.randomUUID();
		return { starter: node(name, TRIGGER_TYPE, 1, parameters, { webhookId, credentials: CREDENTIAL }), path: `${webhookId}/webhook` };
	};
	/** @param {string} name */
	const webhook = (name) => {
		const path = `bench-${crypto.randomUUID()}`;
		return {
			starter: node(name, 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, {
				webhookId: crypto.randomUUID(),
			}),
			path,
		};
	};
	const receivers = [
		{ label: 'Support Chat Trigger', make: () => trigger('Support Chat Trigger', { events: ['*'], verification: 'none', options: {} }) },
		{ label: 'Webhook node', make: () => webhook('Webhook') },
		{
			label: 'Support Chat Trigger, signature verified',
			make: () => trigger('Support Chat Trigger', { events: ['*'], verification: 'standardWebhooks', options: {} }),
		},
	].slice(0, withSigned ? 3 : 2);

	/** @type {Record<string, Record<string, { accepted: number, completed: number }>>} */
	const results = {};
	for (const how of /** @type {const} */ (['sandbox, one at a time', `${CONCURRENCY} in flight`])) {
		for (const receiver of receivers) {
			const made = receiver.make();
			const deployed = await deployReceiver(n8n, `${receiver.label} (${how})`, made.starter, made.path);
			sandbox.configureWebhooks({ urls: deployed.url, secret: WEBHOOK_SECRET, style: 'dotted', kinds: ['conversationCreated'] });
			const start = Date.now();
			let statuses;
			if (how.startsWith('sandbox')) {
				const from = sandbox.deliveries.length;
				for (let i = 0; i < DELIVERIES; i++) sandbox.emitWebhook('conversationCreated');
				await sandbox.settled();
				statuses = sandbox.deliveries.slice(from).map((d) => d.status);
			} else {
				statuses = await postConcurrently(sandbox, deployed.url, DELIVERIES);
			}
			const acceptedMs = Date.now() - start;
			const bad = statuses.filter((status) => status !== 200).length;
			if (statuses.length !== DELIVERIES || bad > 0) throw new Error(`${receiver.label}: ${bad} of ${statuses.length} deliveries not answered 200`);
			const finished = await waitForFinished(n8n, deployed.id, DELIVERIES, start);
			if (finished.failed > 0 || finished.total !== DELIVERIES) {
				throw new Error(`${receiver.label}: ${finished.failed} failed runs, ${finished.total} runs for ${DELIVERIES} deliveries`);
			}
			(results[how] ??= {})[receiver.label] = {
				accepted: (DELIVERIES * 1000) / acceptedMs,
				completed: (DELIVERIES * 1000) / Math.max(acceptedMs, finished.ms),
			};
		}
	}
	const width = Math.max(...receivers.map((r) => r.label.length));
	/** @type {Record<string, number>} */
	const ratios = {};
	for (const [how, byReceiver] of Object.entries(results)) {
		log(`   ${how}:`);
		log(`     ${'receiver'.padEnd(width)}  accepted/s  completed/s`);
		for (const [label, r] of Object.entries(byReceiver)) {
			log(`     ${label.padEnd(width)}  ${fmt(r.accepted, 1).padStart(10)}  ${fmt(r.completed, 1).padStart(11)}`);
		}
		const ours = byReceiver['Support Chat Trigger'];
		const builtIn = byReceiver['Webhook node'];
		ratios[how] = ours.accepted / builtIn.accepted;
		log(
			`     ratio Support Chat Trigger / Webhook node: accepted ${(ours.accepted / builtIn.accepted).toFixed(2)}, ` +
				`completed ${(ours.completed / builtIn.completed).toFixed(2)}`,
		);
	}
	return ratios;
}

/**
 * The sandbox's own rendering and signature, with a fresh event id per delivery (the trigger drops
 * repeated ids), posted `CONCURRENCY` at a time.
 * @param {import('../sandbox').Sandbox} sandbox
 * @param {string} url
 * @param {number} count
 */
async function postConcurrently(sandbox, url, count) {
	// One delivery rendered by the sandbox as the template (not counted).
	const sample = sandbox.deliveries.length;
	sandbox.configureWebhooks({ urls: 'http://127.0.0.1:9/template', retry: null, timeoutMs: 200 });
	sandbox.emitWebhook('conversationCreated');
	await sandbox.settled();
	const template = sandbox.deliveries[sample];
	sandbox.configureWebhooks({ urls: url });
	const templateBody = JSON.parse(template.body);
	/** @type {number[]} */
	const statuses = [];
	let next = 0;
	const worker = async () => {
		for (;;) {
			const i = next++;
			if (i >= count) return;
			const id = `evt_bench_${process.pid}_${Date.now().toString(36)}_${i}`;
			const body = JSON.stringify({ ...templateBody, id });
			const timestamp = Math.floor(Date.now() / 1000);
			const headers = {
				'content-type': 'application/json',
				'webhook-id': id,
				'webhook-timestamp': String(timestamp),
				'webhook-signature': signWebhook(WEBHOOK_SECRET, id, timestamp, body),
			};
			statuses.push((await request('POST', url, undefined, { rawBody: body, headers })).status);
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	return statuses;
}

async function main() {
	const started = Date.now();
	if (!values['no-build']) {
		log('building the package (npm run build)…');
		execFileSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
	}
	const pkg = require('../package.json');
	log(`n8n ${N8N_VERSION} on Node ${NODE_VERSION}, ${pkg.name} ${pkg.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'})`);
	const sandbox = await startSandbox({
		token: SANDBOX_TOKEN,
		pagination: 'link',
		pageSize: PAGE,
		maxPageSize: PAGE,
		seed: { users: USERS, conversations: 50, tags: ['vip', 'lead'] },
	});
	/** @type {N8nInstance | undefined} */
	let n8n;
	try {
		n8n = await startN8n({ mode: 'regular', log: (line) => log(`   ${line}`) });
		await n8n.importCredentials({
			name: 'Bench sandbox',
			type: CREDENTIAL_TYPE,
			data: { baseUrl: sandbox.origin, apiToken: SANDBOX_TOKEN, allowHttp: false, webhookSecret: WEBHOOK_SECRET },
		});
		const returnAll = await benchReturnAll(n8n, sandbox);
		log(`\n2. Deliveries per second, ${DELIVERIES} per measurement (conversation.created, dotted style), n8n's default expression engine (vm)`);
		const deliveries = await benchDeliveries(n8n, sandbox);
		await n8n.stop();
		// n8n 2.41 runs every webhook of a node other than its own Webhook node (with static parameters)
		// inside an expression isolate from a pool of one; the legacy engine has none.
		log(`\n3. The same with N8N_EXPRESSION_ENGINE=legacy (a second n8n), to show what the isolate costs`);
		n8n = await startN8n({ mode: 'regular', env: { N8N_EXPRESSION_ENGINE: 'legacy' }, log: (line) => log(`   ${line}`) });
		await n8n.importCredentials({
			name: 'Bench sandbox',
			type: CREDENTIAL_TYPE,
			data: { baseUrl: sandbox.origin, apiToken: SANDBOX_TOKEN, allowHttp: false, webhookSecret: WEBHOOK_SECRET },
		});
		const legacy = await benchDeliveries(n8n, sandbox, false);
		const ratios = (/** @type {Record<string, number>} */ r) => Object.entries(r).map(([how, x]) => `${how} ${x.toFixed(2)}`).join(', ');
		log(`\nsummary: Return All ratio (HTTP Request time / Support Chat time) ${returnAll.ratio.toFixed(2)}` +
			` (${(returnAll.http / returnAll.ours4).toFixed(2)} with 4 pages in flight)`);
		log(`summary: deliveries/s ratio (Support Chat Trigger / Webhook node): ${ratios(deliveries)}; legacy engine: ${ratios(legacy)}`);
		log(`took ${Math.round((Date.now() - started) / 1000)} s`);
	} finally {
		await n8n?.stop();
		await sandbox.close();
	}
}

main().catch((error) => {
	process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
	process.exit(1);
});
