// @ts-check
'use strict';

/**
 * What the scenarios, the demo and the end-to-end benchmark share about this package in a real n8n:
 * the type names, the sandbox's token and signing secret, the workflow fixtures, and wiring a
 * published workflow's Support Chat Trigger to the sandbox's webhook settings. Types: index.d.ts.
 */

const fs = require('node:fs');
const path = require('node:path');

const { PACKAGE_NAME } = require('../harness');

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
 * @param {{ publish?: boolean, connectWebhooks?: boolean, secret?: string, token?: string, name?: string, known?: Set<string> }} [options]
 */
async function deployWorkflow(n8n, sandbox, workflow, options = {}) {
	const secret = options.secret ?? WEBHOOK_SECRET;
	const known = options.known ?? new Set();
	for (const name of credentialNames(workflow)) {
		if (known.has(name)) continue;
		await n8n.importCredentials({
			name,
			type: CREDENTIAL_TYPE,
			data: { baseUrl: sandbox.origin, apiToken: options.token ?? SANDBOX_TOKEN, allowHttp: false, webhookSecret: secret },
		});
		known.add(name);
	}
	const created = await n8n.importWorkflow(workflow, { name: options.name });
	const trigger = workflow.nodes.find((node) => node.type === TRIGGER_TYPE);
	const triggerUrl = trigger ? n8n.webhookUrl(triggerPath(trigger)) : undefined;
	if (options.publish ?? Boolean(trigger)) await n8n.publishWorkflow(created.id);
	if (options.connectWebhooks && triggerUrl) sandbox.configureWebhooks({ urls: triggerUrl, secret, style: 'dotted' });
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
 */
async function exactExecutions(n8n, workflowId, options) {
	const after = Number(options.afterId ?? 0);
	const runs = options.count > 0 ? await n8n.waitForExecutions(workflowId, options) : [];
	await sleep(options.settleMs ?? 1500);
	const all = (await n8n.executions({ workflowId, includeData: false })).filter((e) => Number(e.id) > after);
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
 */
async function lastExecutionId(n8n, workflowId) {
	const all = await n8n.executions({ workflowId, includeData: false });
	return all.length > 0 ? all[all.length - 1].id : '0';
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
};
