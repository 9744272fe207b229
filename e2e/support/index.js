// @ts-check
'use strict';

/**
 * What the scenarios, the demo and the end-to-end benchmark share about this package in a real n8n:
 * the type names, the sandbox's token and signing secret, the workflow fixtures, and wiring a
 * published workflow's Support Chat Trigger to the sandbox's webhook settings. Typed by its JSDoc
 * (checked by `tsc -p e2e`).
 */

const { randomBytes } = require('node:crypto');
const { setMaxListeners } = require('node:events');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const { PACKAGE_NAME } = require('../harness');
const { WEBHOOK_EVENT_NAMES, signWebhook } = require('../../sandbox');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const FIXTURES_DIR = path.join(REPO_ROOT, 'e2e', 'fixtures');
/** `$SUPPORT_CHAT_E2E_EXAMPLES_DIR`, default the repository's examples/. */
const EXAMPLES_DIR = process.env.SUPPORT_CHAT_E2E_EXAMPLES_DIR || path.join(REPO_ROOT, 'examples');

const ACTION_TYPE = `${PACKAGE_NAME}.supportChat`;
const TRIGGER_TYPE = `${PACKAGE_NAME}.supportChatTrigger`;
const CREDENTIAL_TYPE = 'supportChatApi';
const SANDBOX_TOKEN = 'sandbox-e2e-token';
/** A Standard Webhooks secret: `whsec_` and the base64 of 32 bytes. */
const WEBHOOK_SECRET = `whsec_${Buffer.from('support-chat e2e signing key 32b').toString('base64')}`;

/** @typedef {import('../harness').WorkflowJson} WorkflowJson */
/** @typedef {import('../harness').WorkflowNodeJson} WorkflowNodeJson */
/** @typedef {import('../harness').N8nInstance} N8nInstance */
/** @typedef {import('../../sandbox').Sandbox} Sandbox */

/**
 * @typedef {object} DeployedWorkflow
 * @property {string} id
 * @property {string} name
 * @property {WorkflowNodeJson} [trigger] The workflow's Support Chat Trigger, if any.
 * @property {string} [triggerUrl] Its production URL.
 */

/**
 * @typedef {object} SignedDelivery
 * @property {string} id The delivery id: `webhook-id`, and the body's `id`.
 * @property {string} body
 * @property {Record<string, string>} headers content-type, webhook-id, webhook-timestamp, webhook-signature.
 */

/**
 * @typedef {object} TogetherAnswer
 * @property {string} url
 * @property {number} status
 * @property {string} text
 * @property {number} ms From the release of the last bytes to the end of this answer.
 */

/**
 * A workflow JSON: a name in e2e/fixtures, or a path.
 * @param {string} nameOrPath
 * @returns {WorkflowJson}
 */
function readWorkflow(nameOrPath) {
	const file = path.isAbsolute(nameOrPath) ? nameOrPath : path.join(FIXTURES_DIR, nameOrPath);
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The example workflows (`examples/*.json`), by file name; empty while there are none. */
function exampleFiles() {
	if (!fs.existsSync(EXAMPLES_DIR)) return [];
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => path.join(EXAMPLES_DIR, name));
}

/**
 * The lead-escalation workflow: `examples/lead-escalation.json` once it exists, else the suite's own
 * fixture (e2e/fixtures/lead-escalation.workflow.json).
 * @returns {{ workflow: WorkflowJson, file: string }}
 */
function leadEscalationWorkflow() {
	const example = exampleFiles().find((file) => /lead-escalation/.test(path.basename(file)));
	const file = example ?? path.join(FIXTURES_DIR, 'lead-escalation.workflow.json');
	return { workflow: readWorkflow(file), file };
}

/**
 * Names of the Support Chat credentials the workflow's nodes refer to.
 * @param {WorkflowJson} workflow
 */
function credentialNames(workflow) {
	const names = new Set();
	for (const node of workflow.nodes) {
		const ref = node.credentials?.[CREDENTIAL_TYPE];
		if (ref?.name) names.add(ref.name);
	}
	return [...names];
}

/**
 * The production path of a Support Chat Trigger: n8n serves a node webhook with a fixed path at
 * `/webhook/<webhookId>/<path>`.
 * @param {WorkflowNodeJson} node
 */
function triggerPath(node) {
	if (!node.webhookId) throw new Error(`node "${node.name}" has no webhookId`);
	return `${node.webhookId}/webhook`;
}

/**
 * Imports a workflow with Support Chat credentials pointing at the sandbox (one per credential name
 * the workflow uses, already imported ones skipped), publishes it when it has a trigger, and, when
 * asked, points the sandbox's webhook settings at the trigger's production URL.
 * @param {N8nInstance} n8n
 * @param {Sandbox} sandbox
 * @param {WorkflowJson} workflow
 * @param {{ publish?: boolean, connectWebhooks?: boolean, secret?: string, token?: string, name?: string, known?: Set<string>, credentials?: Record<string, unknown> }} [options]
 *   `credentials`: the credentials' data in place of the sandbox's REST defaults (Support Board mode).
 * @returns {Promise<DeployedWorkflow>}
 */
async function deployWorkflow(n8n, sandbox, workflow, options = {}) {
	const secret = options.secret ?? WEBHOOK_SECRET;
	const known = options.known ?? new Set();
	for (const name of credentialNames(workflow)) {
		if (known.has(name)) continue;
		await n8n.importCredentials({
			name,
			type: CREDENTIAL_TYPE,
			data: options.credentials ?? {
				baseUrl: sandbox.origin,
				apiToken: options.token ?? SANDBOX_TOKEN,
				allowHttp: false,
				webhookSecret: secret,
			},
		});
		known.add(name);
	}
	const created = await n8n.importWorkflow(workflow, { name: options.name });
	const trigger = workflow.nodes.find((node) => node.type === TRIGGER_TYPE);
	const triggerUrl = trigger ? n8n.webhookUrl(triggerPath(trigger)) : undefined;
	if (options.publish ?? Boolean(trigger)) await n8n.publishWorkflow(created.id);
	if (options.connectWebhooks && triggerUrl)
		sandbox.configureWebhooks({ urls: triggerUrl, secret, style: 'dotted' });
	return { id: created.id, name: created.name, trigger, triggerUrl };
}

/**
 * @param {number} ms
 * @returns {Promise<void>}
 */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the workflow has run `count` executions (after `afterId`), then a little longer, and
 * fails when more than that were started: for "this delivery started exactly one run" and "this one
 * started none".
 * @param {N8nInstance} n8n
 * @param {string} workflowId
 * @param {{ count: number, afterId?: string | number, settleMs?: number, timeoutMs?: number }} options
 * @returns {Promise<import('../harness').Execution[]>}
 */
async function exactExecutions(n8n, workflowId, options) {
	const after = Number(options.afterId ?? 0);
	const runs = options.count > 0 ? await n8n.waitForExecutions(workflowId, options) : [];
	await sleep(options.settleMs ?? 1500);
	const all = (await n8n.executions({ workflowId, includeData: false })).filter(
		(e) => Number(e.id) > after,
	);
	if (all.length !== options.count) {
		throw new Error(
			`workflow ${workflowId}: expected ${options.count} executions, found ${all.length} ` +
				`(${all.map((e) => `${e.id} ${e.status}`).join(', ') || 'none'})`,
		);
	}
	return runs;
}

/**
 * The id of the newest execution of a workflow (0 when none), as a starting point for waits.
 * @param {N8nInstance} n8n
 * @param {string} workflowId
 * @returns {Promise<string>}
 */
async function lastExecutionId(n8n, workflowId) {
	const all = await n8n.executions({ workflowId, includeData: false });
	return all.length > 0 ? all[all.length - 1].id : '0';
}

/**
 * A Lead Captured delivery as the sandbox sends it (`dotted` style), signed with Standard Webhooks:
 * `webhook-id` (the delivery id, also the body's `id`), `webhook-timestamp` (now, unless given) and
 * `webhook-signature`. Sending the result several times sends identical copies; a retry is the same
 * id and body signed again with a new timestamp.
 * @param {{ id?: string, email?: string, secret?: string, timestamp?: number }} [options]
 * @returns {SignedDelivery}
 */
function signedLeadDelivery(options = {}) {
	const id = options.id ?? `msg_${randomBytes(12).toString('hex')}`;
	const email = options.email ?? `${id}@example.com`;
	const body = JSON.stringify({
		id,
		object: 'event',
		type: WEBHOOK_EVENT_NAMES.dotted.leadCaptured,
		created_at: new Date().toISOString(),
		source: 'chat',
		data: {
			object: {
				object: 'lead',
				email,
				phone: null,
				captured_via: 'form',
				user_id: 'usr_e2e_dedupe',
				conversation_id: null,
				message_id: null,
				user: null,
			},
		},
	});
	return resignDelivery({ id, body }, options);
}

/**
 * The same delivery (id and body) signed again with a new timestamp: what a sender's retry looks like.
 * @param {{ id: string, body: string }} delivery
 * @param {{ secret?: string, timestamp?: number }} [options]
 * @returns {SignedDelivery}
 */
function resignDelivery(delivery, options = {}) {
	const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
	return {
		id: delivery.id,
		body: delivery.body,
		headers: {
			'content-type': 'application/json',
			'webhook-id': delivery.id,
			'webhook-timestamp': String(timestamp),
			'webhook-signature': signWebhook(
				options.secret ?? WEBHOOK_SECRET,
				delivery.id,
				timestamp,
				delivery.body,
			),
		},
	};
}

/**
 * POSTs every request at the same moment, so that they are all in flight together: each goes on a
 * connection of its own with its headers and all of its body but the last byte; once every one of
 * them has been written, the last bytes go out in one tick. A receiver that reads the whole body
 * before acting (n8n does) gets them all at once. Loopback only; bounded by `timeoutMs` overall.
 * @param {Array<{ url: string, headers: Record<string, string>, body: string }>} requests
 * @param {{ timeoutMs?: number, holdMs?: number }} [options]
 * @returns {Promise<{ released: number, answers: TogetherAnswer[] }>}
 *   `released`: when the last bytes went out (epoch ms); `ms`: from then to the end of each answer
 */
async function sendTogether(requests, options = {}) {
	const signal = AbortSignal.timeout(options.timeoutMs ?? 30_000);
	// One listener per request on the shared signal.
	setMaxListeners(requests.length + 10, signal);
	const exchanges = requests.map((entry) => {
		const url = new URL(entry.url);
		if (url.hostname !== '127.0.0.1')
			throw new Error(`sendTogether sends to 127.0.0.1 only, not ${url.host}`);
		const body = Buffer.from(entry.body);
		if (body.length < 1) throw new Error('sendTogether needs a body');
		const req = http.request({
			host: url.hostname,
			port: Number(url.port),
			path: `${url.pathname}${url.search}`,
			method: 'POST',
			agent: false,
			signal,
			headers: { ...entry.headers, 'content-length': String(body.length), connection: 'close' },
		});
		/** @type {Promise<{ status: number, text: string, endedAt: number }>} */
		const answer = new Promise((resolve, reject) => {
			req.on('error', reject);
			req.on('response', (res) => {
				/** @type {Buffer[]} */
				const chunks = [];
				res.on('data', (chunk) => chunks.push(chunk));
				res.on('error', reject);
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						text: Buffer.concat(chunks).toString('utf8'),
						endedAt: Date.now(),
					}),
				);
			});
		});
		// Settled here too, so that a failure before the release is not an unhandled rejection.
		answer.catch(() => {});
		/** @type {Promise<void>} */
		const written = new Promise((resolve, reject) => {
			req.once('error', reject);
			req.write(body.subarray(0, -1), (error) => (error ? reject(error) : resolve()));
		});
		return { url: entry.url, req, last: body.subarray(-1), answer, written };
	});
	await Promise.all(exchanges.map(async (e) => await e.written));
	// Let the receiver read the headers and the bodies so far.
	await sleep(options.holdMs ?? 100);
	const released = Date.now();
	for (const exchange of exchanges) exchange.req.end(exchange.last);
	const answers = await Promise.all(
		exchanges.map(async (e) => {
			const { status, text, endedAt } = await e.answer;
			return { url: e.url, status, text, ms: endedAt - released };
		}),
	);
	return { released, answers };
}

/** Statuses of an execution that is over. */
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/**
 * The workflow's executions after `afterId` once they have settled: there are at least `minCount`,
 * every one is over and no new one has appeared for `quietMs`. For counting how many runs something
 * started when the answer may be more than one (`minCount`: the runs known to have started, e.g.
 * from the webhook answers, so that a slow queue cannot make the count come out short).
 * @param {N8nInstance} n8n
 * @param {string} workflowId
 * @param {{ afterId?: string | number, minCount?: number, quietMs?: number, timeoutMs?: number }} [options]
 * @returns {Promise<import('../harness').Execution[]>}
 */
async function settledExecutions(n8n, workflowId, options = {}) {
	const after = Number(options.afterId ?? 0);
	const quietMs = options.quietMs ?? 1500;
	const timeoutMs = options.timeoutMs ?? 60_000;
	const start = Date.now();
	let count = -1;
	let quietSince = Date.now();
	for (;;) {
		const all = (await n8n.executions({ workflowId, includeData: false })).filter(
			(e) => Number(e.id) > after,
		);
		if (
			all.length !== count ||
			all.length < (options.minCount ?? 0) ||
			!all.every((e) => FINISHED.has(e.status))
		) {
			count = all.length;
			quietSince = Date.now();
		} else if (Date.now() - quietSince >= quietMs) {
			return all;
		}
		if (Date.now() - start > timeoutMs) {
			throw new Error(
				`workflow ${workflowId}: executions not settled after ${timeoutMs} ms (${all.map((e) => `${e.id} ${e.status}`).join(', ')})`,
			);
		}
		await sleep(150);
	}
}

module.exports = {
	REPO_ROOT,
	FIXTURES_DIR,
	EXAMPLES_DIR,
	ACTION_TYPE,
	TRIGGER_TYPE,
	CREDENTIAL_TYPE,
	SANDBOX_TOKEN,
	WEBHOOK_SECRET,
	readWorkflow,
	exampleFiles,
	leadEscalationWorkflow,
	credentialNames,
	triggerPath,
	deployWorkflow,
	exactExecutions,
	lastExecutionId,
	sleep,
	signedLeadDelivery,
	resignDelivery,
	sendTogether,
	settledExecutions,
};
