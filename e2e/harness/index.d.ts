/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; README › Development › Lint */
/**
 * Types of the end-to-end harness (plain CommonJS with `// @ts-check`, so that `node` scripts such as a
 * demo or a benchmark can use it without a build; its JSDoc refers to these declarations).
 */
import type { ChildProcess } from 'node:child_process';

export const N8N_VERSION: string;
export const NODE_VERSION: string;
export const PACKAGE_NAME: string;
/** `$SUPPORT_CHAT_E2E_CACHE`, or `~/.cache/n8n-nodes-support-chat/n8n-<version>`. */
export function cacheDir(): string;

export interface N8nInstall {
	/** The cache folder holding node_modules/n8n. */
	dir: string;
	/** The Node 24 binary n8n runs under. */
	node: string;
	/** Node 24's package folder (bin/, include/). */
	nodeDir: string;
	/** n8n's CLI script: run as `node <n8nBin> <command>`. */
	n8nBin: string;
	/** Environment for a child: Node 24 first on PATH, no npm_* / N8N_* / NODE_OPTIONS of the caller. */
	env(extra?: Record<string, string | undefined>): NodeJS.ProcessEnv;
	/** Loads one of n8n's own dependencies (pg, ioredis) into the calling process. */
	require(id: string): any;
}

/** Installs n8n and Node 24 into the cache folder once; quick when already there. */
export function ensureN8n(options?: { log?: (line: string) => void }): Promise<N8nInstall>;

export interface PackedPackage {
	name: string;
	version: string;
	/** The `npm pack` tarball. */
	tarball: string;
	/** Paths inside the tarball (what a user receives). */
	files: string[];
}

/** `npm pack` (no scripts) of `packageDir` (default: the repository) into `destination`. */
export function packPackage(destination: string, packageDir?: string): PackedPackage;
/** Installs a packed package into `<userFolder>/.n8n/nodes` as n8n's community-package installer does. */
export function installPackage(packed: PackedPackage, userFolder: string): string;

export interface ManagedProcess {
	/** main, worker1…, webhook */
	name: string;
	/** The group's leader and id: watchdog.js, whose child is the command. */
	pid: number;
	child: ChildProcess;
	logFile: string;
	exited: Promise<number | string | null>;
	isRunning(): boolean;
	/** Exit code, signal name or spawn error once exited; null while running. */
	exitStatus(): number | string | null;
}

export interface RequestOptions {
	headers?: Record<string, string>;
	/** Sent as is instead of JSON (for signature tests: the exact bytes matter). */
	rawBody?: string | Buffer;
	timeoutMs?: number;
}

export interface HttpResponse<T = any> {
	status: number;
	headers: Headers;
	/** Parsed JSON when the answer says JSON, else the text. */
	body: T;
	/** Round trip in milliseconds. */
	ms: number;
}

export class HttpError extends Error {
	method: string;
	url: string;
	status: number;
	body: unknown;
}

/** One HTTP exchange; never throws on a status. */
export function request<T = any>(method: string, url: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse<T>>;
/** Like `request`; a status >= 400 throws HttpError. */
export function requestOk<T = any>(method: string, url: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse<T>>;

export interface StartOptions {
	/** regular: one n8n process. queue: main + worker(s) + webhook process, PostgreSQL and Redis. */
	mode?: 'regular' | 'queue';
	/** The package to install (default: this repository, packed with `npm pack`; build it first). */
	packageDir?: string;
	/** A tarball packed already (to share one pack between instances). */
	packed?: PackedPackage;
	/** Regular mode's database (default sqlite, n8n's default); queue mode always uses PostgreSQL. */
	database?: 'sqlite' | 'postgres';
	/** Queue mode: number of `n8n worker` processes (default 1). */
	workers?: number;
	/** Queue mode: `--concurrency` of each worker (default 10). */
	workerConcurrency?: number;
	/** Queue mode: start an `n8n webhook` process for production webhooks (default true). */
	webhookProcess?: boolean;
	/**
	 * Queue mode: how many `n8n webhook` processes (default 1), each on a port of its own, named
	 * `webhook`, `webhook2`, `webhook3`…, all serving the same production webhooks (as behind a load balancer).
	 */
	webhookProcesses?: number;
	/** Extra environment for every n8n process of the instance. */
	env?: Record<string, string>;
	/** Per process (default 180 s). */
	readyTimeoutMs?: number;
	/** Keep the temp folder (logs, user folders) and the database after stop. */
	keep?: boolean;
	log?: (line: string) => void;
}

export interface CredentialJson {
	name: string;
	type: string;
	data: Record<string, unknown>;
	id?: string;
}

export interface WorkflowNodeJson {
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	id?: string;
	webhookId?: string;
	/** By credential type; `name` is resolved to the id of a credential imported into this instance. */
	credentials?: Record<string, { id?: string; name: string }>;
	[key: string]: unknown;
}

export interface WorkflowJson {
	name?: string;
	nodes: WorkflowNodeJson[];
	connections?: Record<string, unknown>;
	settings?: Record<string, unknown>;
	staticData?: Record<string, unknown> | null;
	[key: string]: unknown;
}

export interface Execution {
	id: string;
	workflowId: string;
	status: 'new' | 'running' | 'success' | 'error' | 'waiting' | 'canceled' | 'crashed' | string;
	mode: string;
	finished: boolean;
	startedAt: string;
	stoppedAt: string | null;
	/** With includeData: runData by node name, lastNodeExecuted, error… */
	data?: any;
	[key: string]: unknown;
}

export interface CliResult {
	/** Exit code; a signal's name when killed (timeout). */
	code: number | string;
	stdout: string;
	stderr: string;
}

export interface N8nInstance {
	mode: 'regular' | 'queue';
	/** The main process (editor, REST, public API): `http://127.0.0.1:PORT`. */
	baseUrl: string;
	/** Where production webhooks are served: the webhook process in queue mode, else baseUrl. */
	webhookBaseUrl: string;
	/** Every process serving production webhooks, in start order (`webhookBaseUrl` first). */
	webhookBaseUrls: string[];
	apiKey: string;
	owner: { email: string; password: string; firstName: string; lastName: string };
	/** Holds logs/, one user folder per process, pack/. Removed by stop() unless kept. */
	tempDir: string;
	package: PackedPackage;
	processes: ManagedProcess[];
	timings: { startMs: number; readyMs: Record<string, number> };
	/** Log file by process name. */
	logs: Record<string, string>;

	/** Internal API (`/rest/…`, `/types/…`) as the logged-in owner; returns the parsed body; >= 400 throws. */
	rest<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<T>;
	/** Public API (`/api/v1` + path) with the API key; returns the parsed body; >= 400 throws. */
	api<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<T>;
	/** Creates credentials (public API); their names can then be used in importWorkflow's nodes. */
	importCredentials(credentials: CredentialJson | CredentialJson[]): Promise<Array<{ id: string; name: string; type: string }>>;
	/** Creates a workflow (public API) from an exported or hand-written workflow JSON. */
	importWorkflow(
		workflow: WorkflowJson,
		options?: { name?: string; credentials?: Record<string, string> },
	): Promise<{ id: string; name: string; active: boolean; [key: string]: unknown }>;
	/**
	 * Publishes (activates) a workflow and waits until its triggers and production webhooks are live
	 * (n8n 2.x publishes asynchronously); throws with the triggers' errors when activation failed.
	 */
	publishWorkflow(id: string, options?: { timeoutMs?: number }): Promise<any>;
	unpublishWorkflow(id: string): Promise<any>;
	/** Executions, oldest first (public API). */
	executions(query?: { workflowId?: string; status?: string; includeData?: boolean; limit?: number }): Promise<Execution[]>;
	execution(id: string): Promise<Execution>;
	/** Waits until `count` executions of the workflow (with an id above `afterId`) are over; returns them with data. */
	waitForExecutions(
		workflowId: string,
		options?: { count?: number; timeoutMs?: number; afterId?: string | number },
	): Promise<Execution[]>;
	/** Production URL of a webhook path: `<webhookBaseUrl>/webhook/<path>`. */
	webhookUrl(path: string): string;
	/** Calls a production webhook; never throws on a status. */
	webhook<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse<T>>;
	/** `GET /types/nodes.json`: what the editor learns about every node type. */
	nodeTypes(): Promise<any[]>;
	/** `GET /types/credentials.json`. */
	credentialTypes(): Promise<any[]>;
	/** Runs `n8n <args>` against this instance's database and user folder (main's). */
	cli(args: string[], options?: { timeoutMs?: number; env?: Record<string, string>; logLevel?: string }): Promise<CliResult>;
	/** `n8n execute --id=<id> --rawOutput`: runs a workflow from its manual trigger; returns the run. */
	executeWorkflowCli(id: string): Promise<any>;
	printLogs(): void;
	/** Stops exactly the processes it started, drops the database and Redis keys, removes the temp folder. */
	stop(options?: { keep?: boolean }): Promise<void>;
}

export function startN8n(options?: StartOptions): Promise<N8nInstance>;
