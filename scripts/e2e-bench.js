#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * npm run bench:e2e: the package against n8n's built-in nodes, in one real n8n (regular mode, SQLite,
 * as installed by the end-to-end harness) and against one sandbox.
 *
 * 1. Return All of 20,000 users against the plainest loop over n8n's request helper
 *    (scripts/plainLoop, loaded as a custom node through N8N_CUSTOM_EXTENSIONS), on the page styles
 *    whose declared count the node plans from (page, offset, link): the node sequentially and with
 *    Pagination Concurrency 4. Rounds alternate the order; the median of the per-round ratios counts.
 *    Here n8n reads the loop's credentials from its database for every request, as it does for any
 *    node that does not hand them over (the node reads them once).
 * 2. Return All of 20,000 users (200 pages of 100, the sandbox's Link-header pages): the Support Chat
 *    node versus the HTTP Request node with its own pagination over the same pages (same credential,
 *    page number incremented, done when no rel="next" is left). Each run is a webhook-started workflow;
 *    the figure is the node's own executionTime as n8n stored it (the wall time of the whole run is
 *    printed beside it). Variants interleaved, one warm-up each, median of the rest.
 * 3. Deliveries per second: the Support Chat Trigger versus the Webhook node, each alone in a published
 *    workflow. (a) the sandbox's own deliveries, which go out one at a time per receiver, as a chat
 *    service sends them; (b) the same signed payloads posted 16 at a time. "accepted/s" counts answered
 *    deliveries, "completed/s" runs stored as finished.
 * 4. The deliveries again in a second n8n with N8N_EXPRESSION_ENGINE=legacy: n8n 2.41 acquires its
 *    expression isolate (a pool of one) for every webhook request of any node but its own Webhook node,
 *    and this shows that share of the difference.
 *
 * Options: --runs N (measured Return All runs per variant, at least 3, default BENCH_ROUNDS or 5), --deliveries N (per measurement,
 * at most 250, default 100), --no-build, --plain-loop-only (section 1 alone), --before DIR (section 1
 * alone, then again in a second n8n with the package built in DIR, a checkout of earlier code: before
 * and after as ratios from one run, each against the plain loop of its own n8n).
 */

const { execFileSync } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { N8N_VERSION, NODE_VERSION, request, startN8n } = require('../e2e/harness');
const { GOAL, GOAL_STYLES } = require('./benchGoal');
const {
	ACTION_TYPE,
	CREDENTIAL_TYPE,
	REPO_ROOT,
	SANDBOX_TOKEN,
	TRIGGER_TYPE,
	WEBHOOK_SECRET,
	sleep,
} = require('../e2e/support');
const { signWebhook, startSandbox } = require('../sandbox');

const { values } = parseArgs({
	options: {
		runs: { type: 'string', default: process.env.BENCH_ROUNDS ?? '5' },
		deliveries: { type: 'string', default: '100' },
		'no-build': { type: 'boolean', default: false },
		'plain-loop-only': { type: 'boolean', default: false },
		before: { type: 'string' },
	},
});
const RUNS = Math.max(3, Number(values.runs));
const DELIVERIES = Math.min(250, Math.max(10, Number(values.deliveries)));
const USERS = 20_000;
const PAGE = 100;
const CONCURRENCY = 16;

const log = (/** @type {string} */ line = '') => process.stdout.write(`${line}\n`);
const median = (/** @type {number[]} */ xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (/** @type {number} */ n, digits = 0) =>
	n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

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
	const hook = node(
		'Start',
		'n8n-nodes-base.webhook',
		2,
		{
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			responseData: 'noData',
			options: {},
		},
		{ webhookId: crypto.randomUUID() },
	);
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
			node: node(
				'Support Chat',
				ACTION_TYPE,
				1,
				{ resource: 'user', operation: 'getAll', returnAll: true },
				{ credentials: CREDENTIAL },
			),
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
								parameters: {
									parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }],
								},
								paginationCompleteWhen: 'other',
								completeExpression:
									'={{ !String($response.headers.link || "").includes(\'rel="next"\') }}',
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
				{
					resource: 'user',
					operation: 'getAll',
					returnAll: true,
					options: { paginationStyle: 'page', concurrency: 4 },
				},
				{ credentials: CREDENTIAL },
			),
		},
	];
}

/**
 * Imports and publishes the webhook-started workflow of one Return All variant; returns its id.
 * @param {N8nInstance} n8n
 * @param {string} hookPath
 * @param {WorkflowNodeJson} subject
 */
async function publishReturnAll(n8n, hookPath, subject) {
	const created = await n8n.importWorkflow(returnAllWorkflow(hookPath, subject));
	await n8n.publishWorkflow(created.id);
	return created.id;
}

/**
 * @param {N8nInstance} n8n
 * @param {import('../sandbox').Sandbox} sandbox
 */
async function benchReturnAll(n8n, sandbox) {
	log(
		`\n2. Return All of ${fmt(USERS)} users against the HTTP Request node, ${USERS / PAGE} pages of ${PAGE} (median of ${RUNS} runs after a warm-up)`,
	);
	/** @type {Array<ReturnType<typeof returnAllVariants>[number] & { id: string, nodeMs: number[], wallMs: number[], items: number, requests: number }>} */
	const variants = [];
	for (const variant of returnAllVariants(sandbox)) {
		const id = await publishReturnAll(n8n, variant.path, variant.node);
		variants.push({ ...variant, id, nodeMs: [], wallMs: [], items: 0, requests: 0 });
	}
	for (let round = 0; round <= RUNS; round++) {
		for (const variant of variants) {
			sandbox.configure({ pagination: variant.sandboxPagination ?? 'link' });
			sandbox.clearLog();
			const { nodeMs, wallMs } = await timedReturnAll(n8n, {
				subject: variant.node,
				path: variant.path,
				id: variant.id,
			});
			if (round === 0) continue;
			variant.nodeMs.push(nodeMs);
			variant.wallMs.push(wallMs);
			variant.items = USERS;
			variant.requests = sandbox.requests.length;
		}
	}
	const width = Math.max(...variants.map((v) => v.label.length));
	log(`   ${'variant'.padEnd(width)}  node ms   run ms   requests  items`);
	for (const v of variants) {
		log(
			`   ${v.label.padEnd(width)}  ${fmt(median(v.nodeMs)).padStart(7)}  ${fmt(median(v.wallMs)).padStart(7)}  ${String(v.requests).padStart(8)}  ${fmt(v.items)}`,
		);
	}
	const [ours, http, ours4] = variants;
	const ratio = median(http.nodeMs) / median(ours.nodeMs);
	log(
		`   ratio HTTP Request / Support Chat (node time): ${ratio.toFixed(2)}  (${ratio >= 1 ? 'ours faster' : 'ours slower'} by ${fmt(Math.abs(1 - ratio) * 100)} %)`,
	);
	log(
		`   ratio HTTP Request / Support Chat with 4 in flight: ${(median(http.nodeMs) / median(ours4.nodeMs)).toFixed(2)}`,
	);
	return {
		ours: median(ours.nodeMs),
		http: median(http.nodeMs),
		ours4: median(ours4.nodeMs),
		ratio,
	};
}

/** The custom extensions folder that holds the plain loop; the n8n of this section loads it at start. */
const PLAIN_LOOP_DIR = path.join(REPO_ROOT, 'scripts', 'plainLoop');

/**
 * The project's goal for Return All, measured where users run it: the node against the plainest loop
 * over n8n's own request helper (scripts/plainLoop, `httpRequestWithAuthentication` per page), in a
 * real n8n whose credentials come from its database, sequentially and with Pagination Concurrency 4.
 * Rounds alternate the order of the variants; each gives a ratio of node times (plain / node), and
 * the median of those ratios counts.
 * @param {N8nInstance} n8n
 * @param {import('../sandbox').Sandbox} sandbox
 */
async function benchPlainLoop(n8n, sandbox) {
	log(
		`   style   plain ms  node ms  node c4 ms  ratio seq  ratio c4  goal (≥ ${GOAL.sequential.toFixed(1)} / ≥ ${GOAL.concurrent.toFixed(1)})`,
	);
	/** @type {Record<string, { sequential: number, concurrent: number }>} */
	const results = {};
	for (const style of GOAL_STYLES) {
		const options = { pageSize: PAGE };
		const subjects = [
			node(
				`Plain Loop (${style})`,
				'CUSTOM.plainLoop',
				1,
				{ style, baseUrl: sandbox.baseUrl, pageSize: PAGE },
				{ credentials: CREDENTIAL },
			),
			node(
				`Support Chat (${style})`,
				ACTION_TYPE,
				1,
				{ resource: 'user', operation: 'getAll', returnAll: true, options },
				{ credentials: CREDENTIAL },
			),
			node(
				`Support Chat c4 (${style})`,
				ACTION_TYPE,
				1,
				{
					resource: 'user',
					operation: 'getAll',
					returnAll: true,
					options: { ...options, concurrency: 4 },
				},
				{ credentials: CREDENTIAL },
			),
		];
		const variants = [];
		for (const [index, subject] of subjects.entries()) {
			const hookPath = `bench-plain-${style}-${index}`;
			const id = await publishReturnAll(n8n, hookPath, subject);
			variants.push({ subject, path: hookPath, id, ms: /** @type {number[]} */ ([]) });
		}
		sandbox.configure({ pagination: style });
		for (let round = 0; round <= RUNS; round++) {
			for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
				const { nodeMs } = await timedReturnAll(n8n, variant);
				if (round > 0) variant.ms.push(nodeMs);
			}
		}
		const [plain, seq, c4] = variants;
		const ratios = (/** @type {number[]} */ nodeMs) =>
			median(nodeMs.map((ms, i) => plain.ms[i] / ms));
		const row = { sequential: ratios(seq.ms), concurrent: ratios(c4.ms) };
		results[style] = row;
		const met = row.sequential >= GOAL.sequential && row.concurrent >= GOAL.concurrent;
		log(
			`   ${style.padEnd(7)} ${fmt(median(plain.ms)).padStart(8)} ${fmt(median(seq.ms)).padStart(8)} ${fmt(median(c4.ms)).padStart(11)}` +
				`  ${row.sequential.toFixed(2).padStart(9)} ${row.concurrent.toFixed(2).padStart(9)}  ${met ? 'met' : 'not met'}`,
		);
	}
	return results;
}

/**
 * Runs one Return All workflow through its webhook, checks that every user came, and returns the
 * node's own executionTime as n8n stored it beside the wall time of the whole run.
 * @param {N8nInstance} n8n
 * @param {{ subject: WorkflowNodeJson, path: string, id: string }} variant
 */
async function timedReturnAll(n8n, variant) {
	const response = await n8n.webhook('POST', variant.path, {}, { timeoutMs: 300_000 });
	if (response.status !== 200)
		throw new Error(
			`${variant.subject.name}: webhook answered ${response.status} ${JSON.stringify(response.body)}`,
		);
	const [execution] = (await n8n.executions({ workflowId: variant.id, includeData: false })).slice(
		-1,
	);
	const full = await n8n.execution(execution.id);
	const run = full.data.resultData.runData[variant.subject.name][0];
	const items = run.data.main[0].length;
	if (full.status !== 'success' || items !== USERS) {
		throw new Error(
			`${variant.subject.name}: ${full.status}, ${items} items (${JSON.stringify(full.data.resultData.error ?? {}).slice(0, 300)})`,
		);
	}
	return { nodeMs: run.executionTime, wallMs: response.ms };
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
		const done = all.filter(
			(e) => e.stoppedAt && ['success', 'error', 'crashed'].includes(e.status),
		);
		if (done.length >= count) {
			const failed = done.filter((e) => e.status !== 'success').length;
			const last = Math.max(...done.map((e) => Date.parse(/** @type {string} */ (e.stoppedAt))));
			return { ms: last - since, failed, total: all.length };
		}
		if (Date.now() > deadline)
			throw new Error(`workflow ${workflowId}: ${done.length} of ${count} runs finished`);
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
	const created = await n8n.importWorkflow({
		name: `bench: ${label}`,
		nodes: [starter],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
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
		return {
			starter: node(name, TRIGGER_TYPE, 1, parameters, { webhookId, credentials: CREDENTIAL }),
			path: `${webhookId}/webhook`,
		};
	};
	/** @param {string} name */
	const webhook = (name) => {
		const path = `bench-${crypto.randomUUID()}`;
		return {
			starter: node(
				name,
				'n8n-nodes-base.webhook',
				2,
				{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
				{
					webhookId: crypto.randomUUID(),
				},
			),
			path,
		};
	};
	const receivers = [
		{
			label: 'Support Chat Trigger',
			make: () =>
				trigger('Support Chat Trigger', { events: ['*'], verification: 'none', options: {} }),
		},
		{ label: 'Webhook node', make: () => webhook('Webhook') },
		{
			label: 'Support Chat Trigger, signature verified',
			make: () =>
				trigger('Support Chat Trigger', {
					events: ['*'],
					verification: 'standardWebhooks',
					options: {},
				}),
		},
	].slice(0, withSigned ? 3 : 2);

	/** @type {Record<string, Record<string, { accepted: number, completed: number }>>} */
	const results = {};
	for (const how of /** @type {const} */ (['sandbox, one at a time', `${CONCURRENCY} in flight`])) {
		for (const receiver of receivers) {
			const made = receiver.make();
			const deployed = await deployReceiver(
				n8n,
				`${receiver.label} (${how})`,
				made.starter,
				made.path,
			);
			sandbox.configureWebhooks({
				urls: deployed.url,
				secret: WEBHOOK_SECRET,
				style: 'dotted',
				kinds: ['conversationCreated'],
			});
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
			if (statuses.length !== DELIVERIES || bad > 0)
				throw new Error(
					`${receiver.label}: ${bad} of ${statuses.length} deliveries not answered 200`,
				);
			const finished = await waitForFinished(n8n, deployed.id, DELIVERIES, start);
			if (finished.failed > 0 || finished.total !== DELIVERIES) {
				throw new Error(
					`${receiver.label}: ${finished.failed} failed runs, ${finished.total} runs for ${DELIVERIES} deliveries`,
				);
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
			log(
				`     ${label.padEnd(width)}  ${fmt(r.accepted, 1).padStart(10)}  ${fmt(r.completed, 1).padStart(11)}`,
			);
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

/**
 * A real n8n in regular mode with the plain loop's folder loaded and the sandbox's credentials saved.
 * @param {import('../sandbox').Sandbox} sandbox
 * @param {{ env?: Record<string, string>, packageDir?: string }} [options]
 */
async function startBenchN8n(sandbox, options = {}) {
	const n8n = await startN8n({
		mode: 'regular',
		packageDir: options.packageDir,
		env: { N8N_CUSTOM_EXTENSIONS: PLAIN_LOOP_DIR, ...options.env },
		log: (line) => log(`   ${line}`),
	});
	await n8n.importCredentials({
		name: 'Bench sandbox',
		type: CREDENTIAL_TYPE,
		data: {
			baseUrl: sandbox.origin,
			apiToken: SANDBOX_TOKEN,
			allowHttp: false,
			webhookSecret: WEBHOOK_SECRET,
		},
	});
	return n8n;
}

/** @param {Record<string, { sequential: number, concurrent: number }>} results */
const summarize = (results) =>
	Object.entries(results)
		.map(([style, r]) => `${style} ${r.sequential.toFixed(2)} / ${r.concurrent.toFixed(2)}`)
		.join(', ');

async function main() {
	const started = Date.now();
	if (!values['no-build']) {
		log('building the package (npm run build)…');
		execFileSync('npm', ['run', 'build'], {
			cwd: REPO_ROOT,
			stdio: ['ignore', 'ignore', 'inherit'],
		});
	}
	const pkg = require('../package.json');
	log(
		`n8n ${N8N_VERSION} on Node ${NODE_VERSION}, ${pkg.name} ${pkg.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'})`,
	);
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
		n8n = await startBenchN8n(sandbox);
		log(
			`\n1. Return All of ${fmt(USERS)} users against the plainest loop over n8n's request helper (median ratio of ${RUNS} alternating rounds after a warm-up)`,
		);
		const plainLoop = await benchPlainLoop(n8n, sandbox);
		const summaryOfPlainLoop = `summary: Return All against the plain loop (plain / node, sequential and 4 in flight): ${summarize(plainLoop)}`;
		if (values.before) {
			await n8n.stop();
			log(`\n1b. The same with the package built in ${values.before}, in a second n8n`);
			n8n = await startBenchN8n(sandbox, { packageDir: path.resolve(values.before) });
			const before = await benchPlainLoop(n8n, sandbox);
			log(`\n${summaryOfPlainLoop}`);
			log(`before: ${summarize(before)}`);
			return;
		}
		if (values['plain-loop-only']) {
			log(`\n${summaryOfPlainLoop}`);
			return;
		}
		const returnAll = await benchReturnAll(n8n, sandbox);
		log(
			`\n3. Deliveries per second, ${DELIVERIES} per measurement (conversation.created, dotted style), n8n's default expression engine (vm)`,
		);
		const deliveries = await benchDeliveries(n8n, sandbox);
		await n8n.stop();
		// n8n 2.41 runs every webhook of a node other than its own Webhook node (with static parameters)
		// inside an expression isolate from a pool of one; the legacy engine has none.
		log(
			`\n4. The same with N8N_EXPRESSION_ENGINE=legacy (a second n8n), to show what the isolate costs`,
		);
		n8n = await startBenchN8n(sandbox, { env: { N8N_EXPRESSION_ENGINE: 'legacy' } });
		const legacy = await benchDeliveries(n8n, sandbox, false);
		const ratios = (/** @type {Record<string, number>} */ r) =>
			Object.entries(r)
				.map(([how, x]) => `${how} ${x.toFixed(2)}`)
				.join(', ');
		log(`\n${summaryOfPlainLoop}`);
		log(
			`summary: Return All ratio (HTTP Request time / Support Chat time) ${returnAll.ratio.toFixed(2)}` +
				` (${(returnAll.http / returnAll.ours4).toFixed(2)} with 4 pages in flight)`,
		);
		log(
			`summary: deliveries/s ratio (Support Chat Trigger / Webhook node): ${ratios(deliveries)}; legacy engine: ${ratios(legacy)}`,
		);
		log(`took ${Math.round((Date.now() - started) / 1000)} s`);
	} finally {
		await n8n?.stop();
		await sandbox.close();
	}
}

main().catch((error) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
