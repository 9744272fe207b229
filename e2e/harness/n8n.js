// @ts-check
'use strict';

const { randomBytes } = require('node:crypto');
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { HOST, POSTGRES, REDIS } = require('./constants');
const { HttpError, request, requestOk } = require('./http');
const { ensureN8n } = require('./install');
const { installPackage, packPackage } = require('./package');
const { freePorts, sleep, startProcess, stopProcess, tail, waitForHttpOk } = require('./processes');
const {
	createDatabase,
	databaseQuery,
	deleteRedisKeys,
	dropDatabase,
	dropStaleDatabases,
} = require('./services');

const DATABASE_PREFIX = 'support_chat_e2e_';
const TEMP_PREFIX = 'support-chat-e2e-';

/**
 * Removes run folders older than `maxAgeMs`: those kept after a failure, or left by a killed run.
 * @param {number} maxAgeMs
 */
function sweepStaleTempDirs(maxAgeMs) {
	for (const name of fs.readdirSync(os.tmpdir())) {
		if (!name.startsWith(TEMP_PREFIX)) continue;
		const dir = path.join(os.tmpdir(), name);
		try {
			if (Date.now() - fs.statSync(dir).mtimeMs > maxAgeMs)
				fs.rmSync(dir, { recursive: true, force: true });
		} catch {
			// Removed meanwhile.
		}
	}
}

/**
 * @typedef {import('./processes').ManagedProcess} ManagedProcess
 * @typedef {import('./package').PackedPackage} PackedPackage
 * @typedef {import('./install').N8nInstall} N8nInstall
 * @typedef {import('./http').RequestOptions} RequestOptions
 * @typedef {import('./constants').N8nLine} N8nLine
 */

/**
 * @typedef {object} StartOptions
 * @property {'regular' | 'queue'} [mode] regular: one n8n process. queue: main + worker(s) + webhook process, PostgreSQL and Redis.
 * @property {N8nLine} [n8nLine] Which n8n: `2.x` (default, n8n 2.41.1 on Node 24) or `1.x` (the last 1.x release on the
 *   system's Node; installed on first use into a cache folder of its own).
 * @property {string} [packageDir] The package to install (default: this repository, packed with `npm pack`; build it first).
 * @property {PackedPackage} [packed] A tarball packed already (to share one pack between instances).
 * @property {'sqlite' | 'postgres'} [database] Regular mode's database (default sqlite, n8n's default); queue mode always uses PostgreSQL.
 * @property {number} [workers] Queue mode: number of `n8n worker` processes (default 1).
 * @property {number} [workerConcurrency] Queue mode: `--concurrency` of each worker (default 10).
 * @property {boolean} [webhookProcess] Queue mode: start an `n8n webhook` process for production webhooks (default true).
 * @property {number} [webhookProcesses] Queue mode: how many `n8n webhook` processes (default 1), each on a port of its own,
 *   named `webhook`, `webhook2`, `webhook3`…, all serving the same production webhooks (as behind a load balancer).
 * @property {Record<string, string>} [env] Extra environment for every n8n process of the instance.
 * @property {number} [readyTimeoutMs] Per process (default 180 s).
 * @property {boolean} [keep] Keep the temp folder (logs, user folders) and the database after stop.
 * @property {(line: string) => void} [log]
 */

/**
 * @typedef {object} CredentialJson
 * @property {string} name
 * @property {string} type
 * @property {Record<string, unknown>} data
 * @property {string} [id]
 */

/**
 * A workflow's node. `credentials` by credential type; a `name` there is resolved to the id of a
 * credential imported into this instance.
 * @typedef {{
 *   name: string,
 *   type: string,
 *   typeVersion: number,
 *   position: [number, number],
 *   parameters: Record<string, unknown>,
 *   id?: string,
 *   webhookId?: string,
 *   credentials?: Record<string, { id?: string, name: string }>,
 *   [key: string]: unknown,
 * }} WorkflowNodeJson
 */

/**
 * @typedef {{
 *   name?: string,
 *   nodes: WorkflowNodeJson[],
 *   connections?: Record<string, unknown>,
 *   settings?: Record<string, unknown>,
 *   staticData?: Record<string, unknown> | null,
 *   [key: string]: unknown,
 * }} WorkflowJson
 */

/**
 * An execution as the public API gives it; `data` (with includeData): runData by node name,
 * lastNodeExecuted, error…
 * @typedef {{
 *   id: string,
 *   workflowId: string,
 *   status: 'new' | 'running' | 'success' | 'error' | 'waiting' | 'canceled' | 'crashed' | string,
 *   mode: string,
 *   finished: boolean,
 *   startedAt: string,
 *   stoppedAt: string | null,
 *   data?: any,
 *   [key: string]: unknown,
 * }} Execution
 */

/**
 * @typedef {object} CliResult
 * @property {number | string} code Exit code; a signal's name when killed (timeout).
 * @property {string} stdout
 * @property {string} stderr
 */

/**
 * A running n8n with this package installed.
 * @typedef {object} N8nInstance
 * @property {'regular' | 'queue'} mode
 * @property {N8nLine} n8nLine
 * @property {string} n8nVersion
 * @property {string} baseUrl The main process (editor, REST, public API): `http://127.0.0.1:PORT`.
 * @property {string} webhookBaseUrl Where production webhooks are served: the webhook process in queue mode, else baseUrl.
 * @property {string[]} webhookBaseUrls Every process serving production webhooks, in start order (`webhookBaseUrl` first).
 * @property {string} apiKey
 * @property {{ email: string, password: string, firstName: string, lastName: string }} owner
 * @property {string} tempDir Holds logs/, one user folder per process, pack/. Removed by stop() unless kept.
 * @property {PackedPackage} package
 * @property {ManagedProcess[]} processes
 * @property {{ startMs: number, readyMs: Record<string, number> }} timings
 * @property {Record<string, string>} logs Log file by process name.
 * @property {<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions) => Promise<T>} rest
 *   Internal API (`/rest/…`, `/types/…`) as the logged-in owner; returns the parsed body; >= 400 throws.
 * @property {<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions) => Promise<T>} api
 *   Public API (`/api/v1` + path) with the API key; returns the parsed body; >= 400 throws.
 * @property {(credentials: CredentialJson | CredentialJson[]) => Promise<Array<{ id: string, name: string, type: string }>>} importCredentials
 *   Creates credentials (public API); their names can then be used in importWorkflow's nodes.
 * @property {(workflow: WorkflowJson, options?: { name?: string, credentials?: Record<string, string> }) => Promise<{ id: string, name: string, active: boolean, [key: string]: unknown }>} importWorkflow
 *   Creates a workflow (public API) from an exported or hand-written workflow JSON.
 * @property {(id: string, options?: { timeoutMs?: number }) => Promise<any>} publishWorkflow
 *   Publishes (2.x) or activates (1.x) a workflow and waits until its triggers and production webhooks
 *   are live (n8n 2.x publishes asynchronously); throws with the triggers' errors when activation failed.
 * @property {(id: string) => Promise<any>} unpublishWorkflow Unpublishes (2.x) or deactivates (1.x).
 * @property {(query?: { workflowId?: string, status?: string, includeData?: boolean, limit?: number }) => Promise<Execution[]>} executions
 *   Executions, oldest first (public API).
 * @property {(id: string) => Promise<Execution>} execution
 * @property {(workflowId: string, options?: { count?: number, timeoutMs?: number, afterId?: string | number }) => Promise<Execution[]>} waitForExecutions
 *   Waits until `count` executions of the workflow (with an id above `afterId`) are over; returns them with data.
 * @property {(path: string) => string} webhookUrl Production URL of a webhook path: `<webhookBaseUrl>/webhook/<path>`.
 * @property {(path: string) => string} mcpUrl Production URL of an MCP Server Trigger's path: `<webhookBaseUrl>/mcp/<path>`
 *   (n8n serves MCP triggers under their own prefix, `N8N_ENDPOINT_MCP`, default `mcp`).
 * @property {<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions) => Promise<import('./http').HttpResponse<T>>} webhook
 *   Calls a production webhook; never throws on a status.
 * @property {(sql: string, params?: unknown[]) => Promise<Array<Record<string, any>>>} sql
 *   A query on the instance's PostgreSQL database (queue mode, or `database: 'postgres'`), as n8n stored
 *   it; throws on SQLite.
 * @property {() => Promise<any[]>} nodeTypes `GET /types/nodes.json`: what the editor learns about every node type.
 * @property {() => Promise<any[]>} credentialTypes `GET /types/credentials.json`.
 * @property {(args: string[], options?: { timeoutMs?: number, env?: Record<string, string>, logLevel?: string }) => Promise<CliResult>} cli
 *   Runs `n8n <args>` against this instance's database and user folder (main's).
 * @property {(id: string) => Promise<any>} executeWorkflowCli `n8n execute --id=<id> --rawOutput`: runs a workflow from its manual trigger; returns the run.
 * @property {() => void} printLogs
 * @property {(options?: { keep?: boolean }) => Promise<void>} stop
 *   Stops exactly the processes it started, drops the database and Redis keys, removes the temp folder.
 * @property {() => Promise<void>} stopProcesses
 *   Stops every n8n process of the instance (as stop() does) and keeps everything else: database, Redis keys,
 *   user folders, ports, encryption key. n8n is then down: its URLs refuse connections.
 * @property {() => Promise<{ ms: number }>} startProcesses
 *   Starts the processes stopped by stopProcesses again, on the same database, user folders, ports and
 *   environment (a restart, as after an upgrade or a crash); resolves once they are ready, with the time it took.
 */

const OWNER = {
	email: 'owner@support-chat.test',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-owner-Passw0rd',
};

/** Statuses of an execution that is over. */
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/** @param {string} line */
const stderrLog = (line) => process.stderr.write(`[e2e] ${line}\n`);

/**
 * Environment shared by every n8n process of an instance: quiet, loopback-only, nothing phoning home.
 * n8n 1.x refuses to start on a module name it does not know (the MCP registry module came with 2.x),
 * and its default `vm` expression engine needs isolated-vm 6, built for Node >= 22 only: under Node 20,
 * n8n 1.123 exits at start ("Could not initialize the vm expression engine") unless told to use the
 * `legacy` engine, as a user on Node 20 has to.
 * @param {N8nLine} line
 * @returns {Record<string, string>}
 */
function baseEnv(line) {
	/** @type {Record<string, string>} */
	const env = {
		// As in n8n's own container image.
		NODE_ENV: 'production',
		N8N_LISTEN_ADDRESS: HOST,
		N8N_HOST: HOST,
		N8N_PROTOCOL: 'http',
		N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
		N8N_USER_MANAGEMENT_JWT_SECRET: randomBytes(24).toString('hex'),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		// The MCP registry module fetches its catalogue from the internet at start.
		N8N_DISABLED_MODULES: 'mcp-registry',
		// Plain http on loopback: a Secure cookie would be refused by browsers (not by this harness).
		N8N_SECURE_COOKIE: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: HOST,
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		N8N_LOG_LEVEL: process.env.SUPPORT_CHAT_E2E_N8N_LOG_LEVEL || 'info',
		N8N_LOG_OUTPUT: 'console',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
	};
	if (line === '1.x') {
		delete env.N8N_DISABLED_MODULES;
		if (Number(process.versions.node.split('.')[0]) < 22) env.N8N_EXPRESSION_ENGINE = 'legacy';
	}
	return env;
}

/**
 * Starts a real n8n with this repository's package installed as a community package.
 * @param {StartOptions} [options]
 * @returns {Promise<N8nInstance>}
 */
async function startN8n(options = {}) {
	const mode = options.mode ?? 'regular';
	const line = options.n8nLine ?? '2.x';
	const log = options.log ?? stderrLog;
	// Queue mode (PostgreSQL, Redis, worker and webhook processes) is set up and proven for 2.x only.
	if (line !== '2.x' && mode !== 'regular')
		throw new Error(`n8n ${line}: only regular mode is supported`);
	const install = await ensureN8n({ line, log });
	const startedAt = Date.now();
	sweepStaleTempDirs(24 * 3600_000);
	const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
	const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
	const logsDir = path.join(tempDir, 'logs');
	fs.mkdirSync(logsDir);

	const database = mode === 'queue' ? 'postgres' : (options.database ?? 'sqlite');
	const workerCount = mode === 'queue' ? (options.workers ?? 1) : 0;
	// Queue mode: `n8n webhook` processes for production webhooks (several, as behind a load balancer).
	const webhookCount =
		mode === 'queue' && options.webhookProcess !== false
			? Math.max(0, Math.floor(options.webhookProcesses ?? 1))
			: 0;
	const withWebhookProcess = webhookCount > 0;
	const readyTimeoutMs = options.readyTimeoutMs ?? 180_000;

	/** @type {ManagedProcess[]} */
	const processes = [];
	/** @type {{ database?: string, redisPrefix?: string }} */
	const resources = {};
	/** @type {Record<string, number>} */
	const readyMs = {};
	let stopped = false;

	// Webhook and worker processes first, so that none of them is left serving a gone main.
	const stopAll = async () => {
		await Promise.all(
			processes.filter((p) => p.name !== 'main').map(async (p) => await stopProcess(p)),
		);
		await Promise.all(
			processes.filter((p) => p.name === 'main').map(async (p) => await stopProcess(p)),
		);
	};

	const stop = async (/** @type {{ keep?: boolean }} */ stopOptions = {}) => {
		if (stopped) return;
		stopped = true;
		const failed = /** @type {any} */ (globalThis).__supportChatE2eFailed === true;
		const keep =
			stopOptions.keep || options.keep || failed || process.env.SUPPORT_CHAT_E2E_KEEP === '1';
		if (failed) printLogs(processes, log);
		await stopAll();
		const cleanups = [];
		if (resources.database && !keep) cleanups.push(dropDatabase(install, resources.database));
		if (resources.redisPrefix) cleanups.push(deleteRedisKeys(install, resources.redisPrefix));
		const results = await Promise.allSettled(cleanups);
		for (const result of results)
			if (result.status === 'rejected') log(`cleanup failed: ${result.reason}`);
		if (keep)
			log(`kept ${tempDir}${resources.database ? ` and database ${resources.database}` : ''}`);
		else fs.rmSync(tempDir, { recursive: true, force: true });
	};

	try {
		const packed = options.packed ?? packPackage(path.join(tempDir, 'pack'), options.packageDir);
		const ports = await freePorts(2 + 2 * workerCount + 2 * webhookCount);
		const next = () => /** @type {number} */ (ports.shift());
		const mainPort = next();
		const webhookPorts = withWebhookProcess
			? Array.from({ length: webhookCount }, next)
			: [mainPort];
		const baseUrl = `http://${HOST}:${mainPort}`;
		const webhookBaseUrls = webhookPorts.map((port) => `http://${HOST}:${port}`);
		const webhookBaseUrl = webhookBaseUrls[0];

		/** @type {Record<string, string>} */
		const shared = {
			...baseEnv(line),
			N8N_EDITOR_BASE_URL: `${baseUrl}/`,
			N8N_WEBHOOK_URL: `${webhookBaseUrl}/`,
		};
		if (database === 'postgres') {
			await dropStaleDatabases(install, DATABASE_PREFIX, 24 * 3600_000);
			resources.database = `${DATABASE_PREFIX}${runId}`;
			await createDatabase(install, resources.database);
			Object.assign(shared, {
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_HOST: POSTGRES.host,
				DB_POSTGRESDB_PORT: String(POSTGRES.port),
				DB_POSTGRESDB_USER: POSTGRES.user,
				DB_POSTGRESDB_PASSWORD: POSTGRES.password,
				DB_POSTGRESDB_DATABASE: resources.database,
			});
		}
		if (mode === 'queue') {
			resources.redisPrefix = `support-chat-e2e-${runId}`;
			Object.assign(shared, {
				EXECUTIONS_MODE: 'queue',
				QUEUE_BULL_REDIS_HOST: REDIS.host,
				QUEUE_BULL_REDIS_PORT: String(REDIS.port),
				QUEUE_BULL_PREFIX: resources.redisPrefix,
				N8N_REDIS_KEY_PREFIX: resources.redisPrefix,
				// Manual runs go through the queue as well, as on a scaled install.
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			});
		}
		Object.assign(shared, options.env);

		// Every port is chosen once, so that a restart (startProcesses) serves the same URLs.
		const mainBrokerPort = next();
		const workerPlan = Array.from({ length: workerCount }, (_, i) => ({
			name: `worker${i + 1}`,
			healthPort: next(),
			brokerPort: next(),
		}));
		// The first is `webhook`, further ones `webhook2`, `webhook3`…; N8N_WEBHOOK_URL names the first.
		const webhookPlan = withWebhookProcess
			? webhookPorts.map((port, i) => ({
					name: i === 0 ? 'webhook' : `webhook${i + 1}`,
					port,
					brokerPort: next(),
				}))
			: [];

		/**
		 * One n8n process with a user folder of its own holding the package, as on separate hosts. A
		 * restart reuses the folder (and the package installed there at the first start).
		 * @param {string} name
		 * @param {string[]} args
		 * @param {Record<string, string>} env
		 */
		const spawnN8n = (name, args, env) => {
			const userFolder = path.join(tempDir, name);
			if (!fs.existsSync(userFolder)) installPackage(packed, userFolder);
			const proc = startProcess(name, install.node, [install.n8nBin, ...args], {
				cwd: userFolder,
				env: install.env({ ...shared, N8N_USER_FOLDER: userFolder, ...env }),
				logFile: path.join(logsDir, `${name}.log`),
			});
			processes.push(proc);
			return proc;
		};
		/** @param {ManagedProcess} proc @param {string} url */
		const ready = async (proc, url) => {
			readyMs[proc.name] = await waitForHttpOk(url, proc, readyTimeoutMs);
		};

		const launch = async () => {
			// main runs the database migrations: the others start once it is ready.
			const main = spawnN8n('main', ['start'], {
				N8N_PORT: String(mainPort),
				N8N_RUNNERS_BROKER_PORT: String(mainBrokerPort),
				// On a scaled install production webhooks go to the webhook processes only.
				...(withWebhookProcess ? { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' } : {}),
			});
			await ready(main, `${baseUrl}/healthz/readiness`);
			// n8n 1.x answers every path with 200 "n8n is starting up" while it migrates, and reports ready
			// once migrated but before its REST API is mounted (404 until then).
			if (line === '1.x')
				readyMs.main += await waitForHttpOk(`${baseUrl}/rest/settings`, main, readyTimeoutMs);
			const waits = [];
			for (const plan of workerPlan) {
				const worker = spawnN8n(
					plan.name,
					['worker', `--concurrency=${options.workerConcurrency ?? 10}`],
					{
						N8N_RUNNERS_BROKER_PORT: String(plan.brokerPort),
						QUEUE_HEALTH_CHECK_ACTIVE: 'true',
						QUEUE_HEALTH_CHECK_PORT: String(plan.healthPort),
						N8N_WORKER_SERVER_ADDRESS: HOST,
					},
				);
				waits.push(ready(worker, `http://${HOST}:${plan.healthPort}/healthz/readiness`));
			}
			for (const plan of webhookPlan) {
				const webhook = spawnN8n(plan.name, ['webhook'], {
					N8N_PORT: String(plan.port),
					N8N_RUNNERS_BROKER_PORT: String(plan.brokerPort),
				});
				waits.push(ready(webhook, `http://${HOST}:${plan.port}/healthz/readiness`));
			}
			await Promise.all(waits);
		};
		await launch();

		/** @type {N8nInstance['stopProcesses']} */
		const stopProcesses = async () => {
			if (stopped) throw new Error('stopProcesses after stop()');
			await stopAll();
			processes.splice(0);
		};
		/** @type {N8nInstance['startProcesses']} */
		const startProcesses = async () => {
			if (stopped) throw new Error('startProcesses after stop()');
			if (processes.length > 0) throw new Error('startProcesses: n8n is running');
			const from = Date.now();
			try {
				await launch();
			} catch (error) {
				printLogs(processes, log);
				/** @type {any} */ (globalThis).__supportChatE2eFailed = true;
				throw error;
			}
			const ms = Date.now() - from;
			log(`n8n ${mode} started again in ${(ms / 1000).toFixed(1)} s at ${baseUrl}`);
			return { ms };
		};

		const session = await setUpOwner(baseUrl);
		const instance = makeInstance({
			mode,
			line,
			baseUrl,
			webhookBaseUrl,
			webhookBaseUrls,
			session,
			install,
			tempDir,
			shared,
			processes,
			packed,
			stop,
			stopProcesses,
			startProcesses,
			timings: { readyMs, startMs: Date.now() - startedAt },
			log,
			database: resources.database,
		});
		const readiness = Object.entries(readyMs).map(
			([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`,
		);
		log(
			`n8n ${line === '2.x' ? '' : `${install.n8nVersion} `}${mode} up in ${(instance.timings.startMs / 1000).toFixed(1)} s (ready: ${readiness.join(', ')}) at ${baseUrl}`,
		);
		return instance;
	} catch (error) {
		log(`n8n (${mode}) failed to start: ${/** @type {Error} */ (error).message.split('\n')[0]}`);
		printLogs(processes, log);
		await stop({ keep: true }).catch(() => {});
		// The file's other instances keep their logs too (see e2e/environment.js).
		/** @type {any} */ (globalThis).__supportChatE2eFailed = true;
		throw error;
	}
}

/**
 * @param {ManagedProcess[]} processes
 * @param {(line: string) => void} log
 */
function printLogs(processes, log) {
	for (const proc of processes)
		log(tail(proc.logFile, Number(process.env.SUPPORT_CHAT_E2E_LOG_LINES || 80)));
}

/**
 * Creates the owner (the first start's set-up screen), logs in through it and creates an API key with
 * every scope the owner may have.
 * @param {string} baseUrl
 */
async function setUpOwner(baseUrl) {
	const browserId = `support-chat-e2e-${randomBytes(4).toString('hex')}`;
	const setup = await requestOk('POST', `${baseUrl}/rest/owner/setup`, OWNER, {
		headers: { 'browser-id': browserId },
	});
	const cookie = setup.headers
		.getSetCookie()
		.map((line) => line.split(';')[0])
		.find((pair) => pair.startsWith('n8n-auth='));
	if (!cookie) throw new Error('owner set-up answered without an n8n-auth cookie');
	const headers = { cookie, 'browser-id': browserId };
	const scopes = (await requestOk('GET', `${baseUrl}/rest/api-keys/scopes`, undefined, { headers }))
		.body.data;
	const created = await requestOk(
		'POST',
		`${baseUrl}/rest/api-keys`,
		{ label: 'support-chat-e2e', scopes, expiresAt: null },
		{ headers },
	);
	const apiKey = created.body.data.rawApiKey;
	if (typeof apiKey !== 'string') throw new Error(`no API key in ${JSON.stringify(created.body)}`);
	return { headers, apiKey, owner: OWNER };
}

/**
 * @param {{
 *   mode: 'regular' | 'queue', line: N8nLine, baseUrl: string, webhookBaseUrl: string, webhookBaseUrls: string[],
 *   session: { headers: Record<string, string>, apiKey: string, owner: typeof OWNER },
 *   install: N8nInstall, tempDir: string, shared: Record<string, string>,
 *   processes: ManagedProcess[], packed: PackedPackage,
 *   stop: (options?: { keep?: boolean }) => Promise<void>,
 *   stopProcesses: N8nInstance['stopProcesses'], startProcesses: N8nInstance['startProcesses'],
 *   timings: { readyMs: Record<string, number>, startMs: number }, log: (line: string) => void,
 *   database?: string,
 * }} context
 * @returns {N8nInstance}
 */
function makeInstance(context) {
	const { baseUrl, webhookBaseUrl, session, install, tempDir, shared, processes } = context;
	const apiHeaders = { 'X-N8N-API-KEY': session.apiKey };
	/** Credential ids by name, from importCredentials, for importWorkflow. */
	const credentialIds = new Map();
	let cliRuns = 0;

	/** @type {N8nInstance['rest']} */
	const rest = async (method, urlPath, body, requestOptions = {}) =>
		(
			await requestOk(method, `${baseUrl}${urlPath}`, body, {
				...requestOptions,
				headers: { ...session.headers, ...requestOptions.headers },
			})
		).body;

	/** @type {N8nInstance['api']} */
	const api = async (method, urlPath, body, requestOptions = {}) =>
		(
			await requestOk(method, `${baseUrl}/api/v1${urlPath}`, body, {
				...requestOptions,
				headers: { ...apiHeaders, ...requestOptions.headers },
			})
		).body;

	/** @type {N8nInstance['importCredentials']} */
	const importCredentials = async (credentials) => {
		const list = Array.isArray(credentials) ? credentials : [credentials];
		const created = [];
		for (const credential of list) {
			let data = credential.data;
			// n8n 1.x adds "Allowed HTTP Request Domains" to every credential type that authenticates
			// requests, and its public API then refuses the credential unless the choice is given (the
			// schema's condition for "Allowed Domains" also fires while the choice is absent). `all` is the
			// field's default: any domain.
			if (context.line === '1.x' && !('allowedHttpRequestDomains' in data)) {
				const schema = await api('GET', `/credentials/schema/${credential.type}`);
				if (schema.properties?.allowedHttpRequestDomains)
					data = { ...data, allowedHttpRequestDomains: 'all' };
			}
			const result = await api('POST', '/credentials', {
				name: credential.name,
				type: credential.type,
				data,
			});
			credentialIds.set(credential.name, result.id);
			created.push({ id: result.id, name: result.name, type: result.type });
		}
		return created;
	};

	/** @type {N8nInstance['importWorkflow']} */
	const importWorkflow = async (workflow, importOptions = {}) => {
		const ids = new Map([...credentialIds, ...Object.entries(importOptions.credentials ?? {})]);
		const nodes = workflow.nodes.map((node) => {
			if (!node.credentials) return node;
			/** @type {Record<string, { id?: string, name: string }>} */
			const credentials = {};
			for (const [type, ref] of Object.entries(node.credentials)) {
				const id = ids.get(ref.name) ?? ref.id;
				if (!id)
					throw new Error(`node "${node.name}": no credential named "${ref.name}" was imported`);
				credentials[type] = { id, name: ref.name };
			}
			return { ...node, credentials };
		});
		return await api('POST', '/workflows', {
			name: importOptions.name ?? workflow.name ?? 'support-chat e2e',
			nodes,
			connections: workflow.connections ?? {},
			settings: workflow.settings ?? {},
			...(workflow.staticData ? { staticData: workflow.staticData } : {}),
		});
	};

	/**
	 * n8n 2.x publishes through an outbox: the API answers before the triggers are live. This waits for
	 * the editor's publication status to settle on the published version, and fails with the triggers'
	 * own errors when they could not be activated. n8n 1.x activates: the API answers once the triggers
	 * are live, or 400 with the trigger's error (and the workflow stays inactive).
	 * @type {N8nInstance['publishWorkflow']}
	 */
	const publishWorkflow = async (id, publishOptions = {}) => {
		if (context.line === '1.x') {
			const activated = await api('POST', `/workflows/${id}/activate`, {});
			if (activated.active !== true)
				throw new Error(`workflow ${id} not active after activation: ${JSON.stringify(activated)}`);
			return activated;
		}
		const workflow = await api('POST', `/workflows/${id}/publish`, {});
		const timeoutMs = publishOptions.timeoutMs ?? 30_000;
		const start = Date.now();
		for (;;) {
			const { data: status } = await rest('GET', `/rest/workflows/${id}/publication-status`);
			if (status.status !== 'in_progress' && status.liveVersionId === workflow.activeVersionId) {
				if (status.status !== 'published') {
					throw new Error(
						`workflow ${id} publication ${status.status}: ${JSON.stringify(status.triggers)}`,
					);
				}
				return { ...workflow, publication: status };
			}
			if (Date.now() - start > timeoutMs) {
				throw new Error(`workflow ${id} not live after ${timeoutMs} ms: ${JSON.stringify(status)}`);
			}
			await sleep(100);
		}
	};

	/** @type {N8nInstance['executions']} */
	const executions = async (query = {}) => {
		const params = new URLSearchParams();
		if (query.workflowId) params.set('workflowId', query.workflowId);
		if (query.status) params.set('status', query.status);
		params.set('includeData', String(query.includeData ?? true));
		params.set('limit', String(query.limit ?? 250));
		const result = await api('GET', `/executions?${params}`);
		return [...result.data].sort((a, b) => Number(a.id) - Number(b.id));
	};

	/** @type {N8nInstance['waitForExecutions']} */
	const waitForExecutions = async (workflowId, waitOptions = {}) => {
		const count = waitOptions.count ?? 1;
		const timeoutMs = waitOptions.timeoutMs ?? 60_000;
		const after = Number(waitOptions.afterId ?? 0);
		const start = Date.now();
		for (;;) {
			const all = (await executions({ workflowId, includeData: false })).filter(
				(e) => Number(e.id) > after,
			);
			const done = all.filter((e) => FINISHED.has(e.status));
			if (done.length >= count) {
				return await Promise.all(
					done
						.slice(0, count)
						.map(async (e) => await api('GET', `/executions/${e.id}?includeData=true`)),
				);
			}
			if (Date.now() - start > timeoutMs) {
				throw new Error(
					`workflow ${workflowId}: ${done.length} of ${count} executions finished after ${timeoutMs} ms ` +
						`(statuses: ${all.map((e) => e.status).join(', ') || 'none'})`,
				);
			}
			await sleep(200);
		}
	};

	/** @type {N8nInstance['cli']} */
	const cli = async (args, cliOptions = {}) => {
		const [brokerPort] = await freePorts(1);
		cliRuns += 1;
		const userFolder = path.join(tempDir, 'main');
		const env = install.env({
			...shared,
			N8N_USER_FOLDER: userFolder,
			// Every n8n process, a one-off CLI command too, starts a task broker of its own.
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			N8N_LOG_LEVEL: cliOptions.logLevel ?? 'warn',
			...cliOptions.env,
		});
		return await new Promise((resolve) => {
			execFile(
				install.node,
				[install.n8nBin, ...args],
				{
					cwd: userFolder,
					env,
					timeout: cliOptions.timeoutMs ?? 120_000,
					maxBuffer: 64 * 1024 * 1024,
				},
				(error, stdout, stderr) => {
					// A number, or the signal's name when killed (a timeout), or a spawn error's code.
					const code = error ? (error.code ?? error.signal ?? 'error') : 0;
					fs.appendFileSync(
						path.join(tempDir, 'logs', `cli-${cliRuns}.log`),
						`$ n8n ${args.join(' ')}\n${stdout}\n${stderr}\n(exit ${code})\n`,
					);
					resolve({ code, stdout, stderr });
				},
			);
		});
	};

	/**
	 * The run is printed through n8n's logger at info level, as pretty JSON from a line holding only `{`
	 * to one holding only `}`. n8n 2.41.1 under Node 24 sometimes dies of SIGSEGV in process.exit() after
	 * printing (about 1 run in 5 here): a complete, finished run is taken as the result all the same.
	 * @type {N8nInstance['executeWorkflowCli']}
	 */
	const executeWorkflowCli = async (id) => {
		const result = await cli(['execute', `--id=${id}`, '--rawOutput'], { logLevel: 'info' });
		const lines = result.stdout.split('\n');
		const first = lines.indexOf('{');
		const last = lines.lastIndexOf('}');
		/** @type {any} */
		let run;
		try {
			run =
				first >= 0 && last > first
					? JSON.parse(lines.slice(first, last + 1).join('\n'))
					: undefined;
		} catch {
			run = undefined;
		}
		if (!run || (result.code !== 0 && !(result.code === 'SIGSEGV' && run.finished === true))) {
			throw new Error(
				`n8n execute --id=${id} exited with ${result.code}\n${result.stdout}\n${result.stderr}`.slice(
					-4000,
				),
			);
		}
		return run;
	};

	return {
		mode: context.mode,
		n8nLine: context.line,
		n8nVersion: install.n8nVersion,
		baseUrl,
		webhookBaseUrl,
		webhookBaseUrls: context.webhookBaseUrls,
		apiKey: session.apiKey,
		owner: session.owner,
		tempDir,
		package: context.packed,
		processes,
		timings: context.timings,
		logs: Object.fromEntries(processes.map((p) => [p.name, p.logFile])),
		rest,
		api,
		importCredentials,
		importWorkflow,
		publishWorkflow,
		unpublishWorkflow: async (id) =>
			await api(
				'POST',
				`/workflows/${id}/${context.line === '1.x' ? 'deactivate' : 'unpublish'}`,
				{},
			),
		executions,
		execution: async (id) => await api('GET', `/executions/${id}?includeData=true`),
		waitForExecutions,
		webhookUrl: (webhookPath) => `${webhookBaseUrl}/webhook/${webhookPath.replace(/^\//, '')}`,
		mcpUrl: (mcpPath) => `${webhookBaseUrl}/mcp/${mcpPath.replace(/^\//, '')}`,
		webhook: async (method, webhookPath, body, requestOptions) =>
			await request(
				method,
				`${webhookBaseUrl}/webhook/${webhookPath.replace(/^\//, '')}`,
				body,
				requestOptions,
			),
		sql: async (text, params) => {
			if (!context.database) throw new Error('this n8n runs on SQLite: no PostgreSQL database');
			return await databaseQuery(install, context.database, text, params);
		},
		nodeTypes: async () => await rest('GET', '/types/nodes.json'),
		credentialTypes: async () => await rest('GET', '/types/credentials.json'),
		cli,
		executeWorkflowCli,
		printLogs: () => printLogs(processes, context.log),
		stop: context.stop,
		stopProcesses: context.stopProcesses,
		startProcesses: context.startProcesses,
	};
}

module.exports = { startN8n, HttpError };
