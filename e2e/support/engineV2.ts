/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { randomBytes } from 'node:crypto';

import { ensureN8n, startN8n, type Execution, type N8nInstall, type N8nInstance } from '../harness';
import { POSTGRES } from '../harness/constants';
import { freePorts } from '../harness/processes';
import { createDatabase, dropDatabase } from '../harness/services';
import { sleep } from '.';

/*
 * n8n 2.41.1's execution engine 2.0 in a regular-mode n8n: the `engine-v2` module (not a default one,
 * enabled with N8N_ENABLED_MODULES) runs its data plane in n8n's main process. What it needs, read in
 * n8n 2.41.1's dist (modules/engine-v2/engine-v2.module.js, engine-v2.runtime.js, @n8n/config's
 * engine.config.js):
 * - a PostgreSQL database of its own, N8N_ENGINE_DATABASE_URL, also when n8n itself is on SQLite
 *   ("The engine-v2 module needs a data plane database. Set N8N_ENGINE_DATABASE_URL.");
 * - two ports: the data plane (N8N_ENGINE_PORT, default 3000 on 0.0.0.0) and the control plane
 *   (N8N_ENGINE_CONTROL_PLANE_PORT, default 3001): set to free ports on loopback here, so that runs in
 *   parallel and other services on 3000 do not collide;
 * - regular mode ("The engine-v2 module does not support queue mode.").
 * A workflow opts in with `settings.engineType: 'v2'`; its webhook, trigger and manual runs then go to
 * the engine (services/engine-v2-dispatcher.service.js). Their executions are the engine's: UUIDv7 ids
 * (executions/execution-id.js, isExecutionIdV2) stored in the data plane's database, listed and read
 * through the editor's REST API (/rest/executions), not through the public API (numeric ids only).
 */

const DATABASE_PREFIX = 'support_chat_e2e_';
/** A UUIDv7: how n8n 2.41.1 tells an engine 2.0 execution from a v1 one (UUID_V7_PATTERN). */
export const EXECUTION_ID_V2 =
	/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

export interface EngineV2N8n {
	n8n: N8nInstance;
	install: N8nInstall;
	/** The data plane's database; dropped by stop() unless the run failed (kept for a look). */
	database: string;
	stop(): Promise<void>;
}

/** A regular-mode n8n 2.41.1 with the engine-v2 module on, its data plane in a fresh PostgreSQL database. */
export async function startEngineV2N8n(): Promise<EngineV2N8n> {
	const install = await ensureN8n({});
	// Named like the harness's databases (prefix, then Date.now() in base 36), so that a kept one is swept.
	const database = `${DATABASE_PREFIX}${Date.now().toString(36)}${randomBytes(3).toString('hex')}_engine`;
	await createDatabase(install, database);
	const [enginePort, controlPlanePort] = await freePorts(2);
	const auth = POSTGRES.password
		? `${encodeURIComponent(POSTGRES.user)}:${encodeURIComponent(POSTGRES.password)}`
		: encodeURIComponent(POSTGRES.user);
	let n8n: N8nInstance;
	try {
		n8n = await startN8n({
			mode: 'regular',
			packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR,
			env: {
				// The harness disables mcp-registry; this list enables the engine.
				N8N_ENABLED_MODULES: 'engine-v2',
				N8N_ENGINE_DATABASE_URL: `postgres://${auth}@${POSTGRES.host}:${POSTGRES.port}/${database}`,
				N8N_ENGINE_HOST: '127.0.0.1',
				N8N_ENGINE_PORT: String(enginePort),
				N8N_ENGINE_CONTROL_PLANE_HOST: '127.0.0.1',
				N8N_ENGINE_CONTROL_PLANE_PORT: String(controlPlanePort),
			},
		});
	} catch (error) {
		await dropDatabase(install, database);
		throw error;
	}
	return {
		n8n,
		install,
		database,
		stop: async () => {
			await n8n.stop();
			if ((globalThis as any).__supportChatE2eFailed !== true)
				await dropDatabase(install, database);
		},
	};
}

/** A workflow JSON run by engine 2.0: the same, with `settings.engineType: 'v2'`. */
export function onEngineV2<T extends { settings?: Record<string, unknown> }>(workflow: T): T {
	return { ...workflow, settings: { ...workflow.settings, engineType: 'v2' } };
}

/** The workflow's executions as the editor lists them (v1 and engine 2.0 merged), newest first. */
export async function listExecutions(n8n: N8nInstance, workflowId: string): Promise<Execution[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const { data } = await n8n.rest('GET', `/rest/executions?filter=${filter}&limit=100`);
	return data.results;
}

/** One execution as the editor reads it, its run data parsed (the REST API sends it flattened). */
export async function readExecution(n8n: N8nInstance, id: string): Promise<Execution> {
	const { data } = await n8n.rest('GET', `/rest/executions/${id}`);
	// The REST API sends run data in the `flatted` format; n8n's own copy of flatted reads it.
	const { parse } = (await ensureN8n({})).require('flatted');
	return { ...data, data: typeof data.data === 'string' ? parse(data.data) : data.data };
}

/**
 * Waits until the workflow has `count` finished executions besides those in `seen`, then a little
 * longer, and fails when more were started: "this started exactly one run".
 */
export async function newExecutions(
	n8n: N8nInstance,
	workflowId: string,
	options: { count: number; seen?: Set<string>; timeoutMs?: number; settleMs?: number },
): Promise<Execution[]> {
	const seen = options.seen ?? new Set<string>();
	const timeoutMs = options.timeoutMs ?? 60_000;
	const start = Date.now();
	const fresh = async () =>
		(await listExecutions(n8n, workflowId)).filter((e) => !seen.has(String(e.id)));
	for (;;) {
		const done = (await fresh()).filter((e) => FINISHED.has(e.status));
		if (done.length >= options.count) break;
		if (Date.now() - start > timeoutMs)
			throw new Error(
				`workflow ${workflowId}: ${done.length} of ${options.count} runs after ${timeoutMs} ms`,
			);
		await sleep(250);
	}
	await sleep(options.settleMs ?? 1500);
	const all = await fresh();
	if (all.length !== options.count)
		throw new Error(
			`workflow ${workflowId}: expected ${options.count} new runs, found ${all.length} (${all.map((e) => `${e.id} ${e.status}`).join(', ')})`,
		);
	for (const e of all) seen.add(String(e.id));
	return await Promise.all(all.reverse().map(async (e) => await readExecution(n8n, String(e.id))));
}

/**
 * Sets a workflow to run on engine 2.0 as the editor saves settings (PATCH /rest/workflows/:id): n8n
 * 2.41.1's public API refuses the setting ("request/body/settings Unrecognized key(s) in object:
 * 'engineType'"), its internal API keeps unknown settings.
 */
export async function setEngineV2(n8n: N8nInstance, workflowId: string): Promise<void> {
	const { data } = await n8n.rest('GET', `/rest/workflows/${workflowId}`);
	await n8n.rest('PATCH', `/rest/workflows/${workflowId}`, {
		versionId: data.versionId,
		settings: { ...data.settings, engineType: 'v2' },
	});
}

/** The engine's own record of a workflow's executions: its data plane's `workflow_execution` table. */
export async function engineDatabaseRows(
	engine: EngineV2N8n,
	workflowId: string,
): Promise<Array<{ id: string; status: string; mode: string }>> {
	const { Client } = engine.install.require('pg');
	const client = new Client({
		...POSTGRES,
		database: engine.database,
		connectionTimeoutMillis: 5_000,
	});
	await client.connect();
	try {
		const result = await client.query(
			'SELECT id, status, mode FROM workflow_execution WHERE workflow_id = $1 ORDER BY created_at',
			[workflowId],
		);
		return result.rows;
	} finally {
		await client.end();
	}
}
