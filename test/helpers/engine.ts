/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Runs nodes inside the real n8n engine (n8n-core's `WorkflowExecute` and `WebhookContext`), in-process.
 *
 * n8n's own `NodeTestHarness` is not published with n8n-core, so this is the minimum the engine needs
 * around it: node and credential type registries, a credentials helper that serves decrypted data from
 * memory, the `additionalData` of an execution, and the DI configuration that HTTP helpers read.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseQueryString } from 'node:querystring';

import { SsrfProtectionConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import {
	CredentialTestContext,
	Credentials,
	ExecutionLifecycleHooks,
	ExternalSecretsProxy,
	getAdditionalKeys,
	LoadOptionsContext,
	PollContext,
	PollTriggerExecutor,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import {
	createRunExecutionData,
	ICredentialsHelper,
	isExpression,
	jsonParse,
	Node,
	NodeConnectionTypes,
	NodeHelpers,
	UnexpectedError,
	Workflow,
} from 'n8n-workflow';
import type {
	ExecutionError,
	ExecutionStatus,
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	IDataObject,
	IConnections,
	IExecuteData,
	IExecuteFunctions,
	IHttpRequestHelper,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeCredentialsDetails,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRequestOptionsSimplified,
	IRun,
	IVersionedNodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';

/** Decrypted credential data by credential type name, e.g. `{ supportChatApi: { baseUrl, apiToken } }`. */
export interface CredentialsMap {
	[type: string]: Record<string, unknown>;
}

/** Credential type classes (for `authenticate`, `properties` defaults) and the decrypted data by type. */
export interface EngineCredentials {
	types: ICredentialType[];
	data: CredentialsMap;
}

export type NodeTypeMap = Record<string, INodeType | IVersionedNodeType>;

export interface EngineRun {
	/** The raw result of `WorkflowExecute`. */
	run: IRun;
	status: ExecutionStatus;
	/** Items on one output of the node's last run; the node defaults to the last node executed. Throws if the node did not run. */
	output(nodeName?: string, outputIndex?: number): INodeExecutionData[];
	/**
	 * The error of the node's last run, or the execution's error when no node is named. The engine
	 * stores a plain copy of the thrown error (its own fields, `name` included), as n8n saves it:
	 * assert with `toMatchObject({ name: 'NodeApiError', message, httpCode, description })`, not `instanceof`.
	 */
	error(nodeName?: string): ExecutionError | undefined;
	/** Whether the node ran at least once. */
	ran(nodeName: string): boolean;
	/**
	 * Workflow static data as n8n would save it after the run, round-tripped through JSON. n8n saves
	 * changes only for non-manual executions, so in `manual` mode this is the static data given.
	 */
	staticData: IDataObject;
}

export interface RunWorkflowOptions {
	workflow: {
		nodes: INode[];
		connections: IConnections;
		staticData?: IDataObject;
		settings?: IWorkflowSettings;
	};
	/** Keyed by the node `type` string used in the workflow. */
	nodeTypes: NodeTypeMap;
	credentials?: EngineCredentials;
	/**
	 * Items the start node emits; one empty item by default. When the start node is a webhook
	 * trigger, these stand for the `workflowData` its `webhook()` returned, as n8n passes it on.
	 */
	startItems?: IDataObject[];
	/** Name of the node that starts the run; by default the root node of type `test.start`, else the first root trigger, else the first root. */
	startNode?: string;
	mode?: WorkflowExecuteMode;
}

export interface RunNodeOptions {
	node: Partial<INode> & { type: string; parameters: INodeParameters };
	items?: IDataObject[];
	nodeTypes: NodeTypeMap;
	credentials?: EngineCredentials;
	mode?: WorkflowExecuteMode;
}

export interface WebhookRequest {
	method?: string;
	headers: Record<string, string>;
	body: Buffer | string;
	query?: Record<string, string>;
}

export interface CallWebhookOptions {
	node: INode;
	nodeType: INodeType | IVersionedNodeType;
	credentials?: EngineCredentials;
	request: WebhookRequest;
	/** Static data n8n saved after the previous call; it is round-tripped through JSON like the database does. */
	staticData?: IDataObject;
	webhookName?: IWebhookDescription['name'];
	mode?: Extract<WorkflowExecuteMode, 'manual' | 'trigger' | 'webhook'>;
	/** The workflow's id; calls to one workflow share it as in n8n (each call gets a random one otherwise). */
	workflowId?: string;
	/** The workflow's settings besides executionOrder v1 (e.g. engineType). */
	settings?: IWorkflowSettings;
}

export interface WebhookResult {
	/** What the node's `webhook()` returned. */
	response: IWebhookResponseData;
	/**
	 * The HTTP answer: what the node wrote to `getResponseObject()` if it wrote anything, otherwise
	 * the answer n8n sends itself (the `onReceived` response mode is the one modelled).
	 */
	status: number;
	responseBody: unknown;
	responseHeaders: Record<string, string>;
	/** Static data as n8n would save it for the next call. */
	staticData: IDataObject;
	/** Whether n8n would save the static data at all: only when the node changed it. */
	staticDataChanged: boolean;
}

/** Type of the test-only start node; `n8n-nodes-base.manualTrigger` is served by the same type. */
export const START_NODE_TYPE = 'test.start';
export const START_NODE_NAME = 'Start';
/** Name `runNode` gives the node under test when the caller names none. */
export const DEFAULT_NODE_NAME = 'Node';
const MANUAL_TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';
const BASE_URL = 'http://localhost:5678';

class StartNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Start',
		name: START_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Emits the items the test hands to the engine',
		defaults: { name: START_NODE_NAME },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/**
 * On load (idempotent across test files): keep n8n's instance settings out of the user's home, keep its logger quiet
 * (node errors are also reported through it) unless `N8N_LOG_LEVEL` asks otherwise, and let HTTP
 * helpers reach the loopback sandbox even when SSRF protection is on (`N8N_SSRF_PROTECTION_ENABLED`).
 */
function prepareEnvironment(): void {
	process.env.N8N_LOG_LEVEL ??= 'silent';

	if (process.env.N8N_USER_FOLDER === undefined) {
		// One folder shared by all runs and jest workers. The settings file is written whole (rename),
		// so a worker never reads one that another is halfway through writing.
		const folder = path.join(os.tmpdir(), 'n8n-engine-tests');
		const settingsFile = path.join(folder, '.n8n', 'config');
		if (!existsSync(settingsFile)) {
			mkdirSync(path.dirname(settingsFile), { recursive: true });
			const partial = `${settingsFile}.${process.pid}`;
			writeFileSync(partial, JSON.stringify({ encryptionKey: 'engine-tests-only' }), {
				mode: 0o600,
			});
			renameSync(partial, settingsFile);
		}
		process.env.N8N_USER_FOLDER = folder;
	}

	// Allowed ranges win over blocked ones in SsrfProtectionService; it reads them when first built.
	const ssrf = Container.get(SsrfProtectionConfig);
	for (const range of ['127.0.0.0/8', '::1/128']) {
		if (!ssrf.allowedIpRanges.includes(range)) ssrf.allowedIpRanges.push(range);
	}
}

prepareEnvironment();

function withBuiltIns(types: NodeTypeMap): NodeTypeMap {
	const start = new StartNode();
	return { [START_NODE_TYPE]: start, [MANUAL_TRIGGER_TYPE]: start, ...types };
}

export function createNodeTypes(types: NodeTypeMap): INodeTypes {
	return {
		getByName: (type) => lookUp(types, type),
		getByNameAndVersion: (type, version) =>
			NodeHelpers.getVersionedNodeType(lookUp(types, type), version),
		getKnownTypes: () => Object.fromEntries(Object.keys(types).map((type) => [type, {}])),
	};
}

function lookUp(types: NodeTypeMap, type: string): INodeType | IVersionedNodeType {
	const found = types[type];
	if (found === undefined) {
		throw new Error(
			`Unknown node type "${type}": pass it in nodeTypes (known: ${Object.keys(types).join(', ')})`,
		);
	}
	return found;
}

function defaultVersion(type: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in type) return type.currentVersion;
	const { version } = type.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/**
 * Serves decrypted credentials from memory and authenticates requests the way n8n's
 * `CredentialsHelper` does: a credential type's `authenticate` function, or its generic block
 * whose values are expressions over `$credentials`.
 */
class MemoryCredentialsHelper extends ICredentialsHelper {
	private readonly types: Map<string, ICredentialType>;

	constructor(
		types: ICredentialType[],
		private readonly data: CredentialsMap,
		private readonly nodeTypes: INodeTypes,
	) {
		super();
		this.types = new Map(types.map((type) => [type.name, type]));
	}

	private getType(name: string): ICredentialType {
		const type = this.types.get(name);
		if (type === undefined) {
			throw new UnexpectedError(`Unknown credential type "${name}": pass it in credentials.types`);
		}
		return type;
	}

	getParentTypes(name: string): string[] {
		const parents = this.types.get(name)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		const type = this.types.get(credentialType);
		if (!type?.restrictToSupportedNodes) return true;
		return (type.supportedNodes ?? []).some(
			(name) => nodeType === name || nodeType.endsWith(`.${name}`),
		);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.getType(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node) {
				throw new UnexpectedError(
					'Workflow and node are required for declarative credential authentication',
				);
			}
			requestOptions.headers ??= {};
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			for (const [outerKey, entries] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(entries as Record<string, unknown>)) {
					const resolvedKey = resolveAuthValue(key, credentials, workflow, node);
					target[outerKey] ??= {};
					target[outerKey][resolvedKey] = resolveAuthValue(value, credentials, workflow, node);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.getType(typeName);
		const expirable = type.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable === undefined || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;

		const output = await type.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		this.data[typeName] = { ...this.data[typeName], ...output };
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const { preAuthentication } = this.getType(typeName);
		if (typeof preAuthentication !== 'function') return undefined;
		return (await preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		const credentials = new Credentials(nodeCredentials, type);
		credentials.setData(this.getStored(type) as ICredentialDataDecryptedObject);
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = structuredClone(this.getStored(type)) as ICredentialDataDecryptedObject;
		if (raw === true) return stored;

		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			stored as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (stored.oauthTokenData !== undefined) withDefaults.oauthTokenData = stored.oauthTokenData;
		if (!Object.values(withDefaults).some(isExpression)) return withDefaults;

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });

		if (expressionResolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				expressionResolveValues;
			return workflow.expression.getParameterValue(
				withDefaults as INodeParameters,
				runExecutionData,
				runIndex,
				itemIndex,
				node.name,
				connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				withDefaults,
			) as ICredentialDataDecryptedObject;
		}
		const startNode = makeStartNode();
		const workflow = new Workflow({
			nodes: [startNode],
			connections: {},
			active: false,
			nodeTypes: this.nodeTypes,
		});
		return workflow.expression.getComplexParameterValue(
			startNode,
			withDefaults as INodeParameters,
			mode,
			additionalKeys,
			undefined,
			undefined,
			withDefaults,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.data[type] = { ...data };
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.data[type] = { ...this.data[type], oauthTokenData: data.oauthTokenData };
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.getType(type);
		if (credentialType.extends === undefined) return credentialType.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}

	private getStored(type: string): Record<string, unknown> {
		const stored = this.data[type];
		if (stored === undefined) {
			throw new UnexpectedError(`No credentials of type "${type}" were given to the engine`);
		}
		return stored;
	}
}

function resolveAuthValue(
	value: unknown,
	credentials: ICredentialDataDecryptedObject,
	workflow: Workflow,
	node: INode,
): string {
	if (!isExpression(value)) return value as string;
	const resolved = workflow.expression.getSimpleParameterValue(
		node,
		value,
		'internal',
		{ $credentials: credentials },
		undefined,
		'',
	);
	return resolved ? resolved.toString() : '';
}

function makeStartNode(name = START_NODE_NAME): INode {
	return {
		id: randomUUID(),
		name,
		type: START_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

/**
 * Gives each node the credentials it declares and the test supplied, as a workflow saved in n8n
 * would reference them.
 */
function attachCredentials(
	nodes: INode[],
	nodeTypes: INodeTypes,
	credentials?: EngineCredentials,
): void {
	if (credentials === undefined) return;
	for (const node of nodes) {
		const declared =
			nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description.credentials ?? [];
		for (const { name } of declared) {
			if (credentials.data[name] === undefined || node.credentials?.[name] !== undefined) continue;
			node.credentials = {
				...node.credentials,
				[name]: { id: `test-${name}`, name: `${name} (test)` },
			};
		}
	}
}

function buildAdditionalData(
	credentialsHelper: ICredentialsHelper,
	executionId: string,
	workflowId: string,
): IWorkflowExecuteAdditionalData {
	const unsupported = (what: string) => async () => {
		throw new UnexpectedError(`${what} is not supported by the test engine`);
	};
	return {
		credentialsHelper,
		executionId,
		workflowId,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${BASE_URL}/rest`,
		instanceBaseUrl: `${BASE_URL}/`,
		formBaseUrl: `${BASE_URL}/form`,
		formWaitingBaseUrl: `${BASE_URL}/form-waiting`,
		formTestBaseUrl: `${BASE_URL}/form-test`,
		webhookBaseUrl: `${BASE_URL}/webhook`,
		webhookWaitingBaseUrl: `${BASE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE_URL}/webhook-test`,
		mcpBaseUrl: `${BASE_URL}/mcp`,
		mcpTestBaseUrl: `${BASE_URL}/mcp-test`,
		variables: {},
		externalSecretsProxy: new ExternalSecretsProxy(),
		executeWorkflow: unsupported('Executing a sub-workflow'),
		startRunnerTask: unsupported('The Code node task runner'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
	};
}

function workflowBase(id: string, nodes: INode[], connections: IConnections): IWorkflowBase {
	const now = new Date();
	return {
		id,
		name: 'Engine test',
		active: false,
		isArchived: false,
		nodes,
		connections,
		createdAt: now,
		updatedAt: now,
		activeVersionId: null,
	} as IWorkflowBase;
}

function hasMainInput(workflow: Workflow, nodeName: string): boolean {
	return (workflow.connectionsByDestinationNode[nodeName]?.main ?? []).some(
		(connections) => (connections ?? []).length > 0,
	);
}

function pickStartNode(workflow: Workflow, requested?: string): INode {
	if (requested !== undefined) {
		const node = workflow.getNode(requested);
		if (node === null) throw new Error(`Start node "${requested}" is not in the workflow`);
		return node;
	}
	const roots = Object.values(workflow.nodes).filter(
		(node) => !node.disabled && !hasMainInput(workflow, node.name),
	);
	const isTrigger = (node: INode) => {
		const type = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		return type.trigger !== undefined || type.webhook !== undefined || type.poll !== undefined;
	};
	const start =
		roots.find((node) => node.type === START_NODE_TYPE || node.type === MANUAL_TRIGGER_TYPE) ??
		roots.find(isTrigger) ??
		roots[0];
	if (start === undefined) throw new Error('The workflow has no node to start from');
	return start;
}

function roundTrip<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}

function toEngineRun(run: IRun, staticData: IDataObject): EngineRun {
	const { runData } = run.data.resultData;
	const lastTask = (nodeName: string) => runData[nodeName]?.at(-1);
	return {
		run,
		status: run.status,
		staticData,
		ran: (nodeName) => (runData[nodeName]?.length ?? 0) > 0,
		error: (nodeName) =>
			nodeName === undefined ? run.data.resultData.error : lastTask(nodeName)?.error,
		output: (nodeName = run.data.resultData.lastNodeExecuted, outputIndex = 0) => {
			const task = nodeName === undefined ? undefined : lastTask(nodeName);
			if (task === undefined) {
				throw new Error(
					`Node "${nodeName ?? '(none)'}" did not run; nodes that ran: ${Object.keys(runData).join(', ') || 'none'}`,
				);
			}
			return task.data?.[NodeConnectionTypes.Main]?.[outputIndex] ?? [];
		},
	};
}

/**
 * Runs a whole workflow (nodes and connections as n8n saves them) in the real engine. Node errors do
 * not reject: they end up in `status`, `error()` and the node's task data, as in n8n's execution log.
 */
export async function runWorkflow(opts: RunWorkflowOptions): Promise<EngineRun> {
	const mode = opts.mode ?? 'manual';
	const nodeTypes = createNodeTypes(withBuiltIns(opts.nodeTypes));
	const nodes = structuredClone(opts.workflow.nodes);
	for (const node of nodes) nodeTypes.getByName(node.type);
	attachCredentials(nodes, nodeTypes, opts.credentials);

	const workflowId = randomUUID();
	const executionId = randomUUID();
	const savedStaticData = roundTrip(opts.workflow.staticData ?? {});
	const workflow = new Workflow({
		id: workflowId,
		name: 'Engine test',
		nodes,
		connections: opts.workflow.connections,
		active: false,
		nodeTypes,
		staticData: roundTrip(savedStaticData),
		settings: { executionOrder: 'v1', ...opts.workflow.settings },
	});

	const credentials = opts.credentials ?? { types: [], data: {} };
	const helper = new MemoryCredentialsHelper(credentials.types, credentials.data, nodeTypes);
	const additionalData = buildAdditionalData(helper, executionId, workflowId);
	const hooks = new ExecutionLifecycleHooks(
		mode,
		executionId,
		workflowBase(workflowId, nodes, opts.workflow.connections),
	);
	additionalData.hooks = hooks;

	const startNode = pickStartNode(workflow, opts.startNode);
	const startItems = (opts.startItems ?? [{}]).map((json) => ({ json }));
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: [startItems] }, source: null }],
		},
	});

	const run = await new WorkflowExecute(
		additionalData,
		mode,
		runExecutionData,
	).processRunExecutionData(workflow);
	const changed = mode !== 'manual' && workflow.staticData.__dataChanged === true;
	return toEngineRun(run, changed ? roundTrip(workflow.staticData) : savedStaticData);
}

/** Runs one node after a start node that emits `items` (one empty item by default). */
export async function runNode(opts: RunNodeOptions): Promise<EngineRun> {
	const nodeTypes = withBuiltIns(opts.nodeTypes);
	const type = lookUp(nodeTypes, opts.node.type);
	const node: INode = {
		id: randomUUID(),
		name: DEFAULT_NODE_NAME,
		typeVersion: defaultVersion(type),
		position: [200, 0],
		...opts.node,
	};
	if (node.name === START_NODE_NAME) {
		throw new Error(
			`"${START_NODE_NAME}" is the start node's name; give the node under test another`,
		);
	}
	return await runWorkflow({
		workflow: {
			nodes: [makeStartNode(), node],
			connections: {
				[START_NODE_NAME]: {
					main: [[{ node: node.name, type: NodeConnectionTypes.Main, index: 0 }]],
				},
			},
		},
		nodeTypes: opts.nodeTypes,
		credentials: opts.credentials,
		startItems: opts.items,
		mode: opts.mode,
	});
}

/** The part of an express response that nodes use, recording what they send. */
class RecordedResponse {
	statusCode = 200;
	headers: Record<string, string> = {};
	body: unknown = undefined;
	written = false;
	headersSent = false;
	writableEnded = false;

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	sendStatus(code: number): this {
		this.statusCode = code;
		return this.send(String(code));
	}

	set(name: string | Record<string, string>, value?: string): this {
		const entries = typeof name === 'string' ? { [name]: value ?? '' } : name;
		for (const [key, headerValue] of Object.entries(entries))
			this.headers[key.toLowerCase()] = String(headerValue);
		return this;
	}

	header(name: string, value: string): this {
		return this.set(name, value);
	}

	setHeader(name: string, value: string | number | string[]): this {
		return this.set(name, Array.isArray(value) ? value.join(', ') : String(value));
	}

	getHeader(name: string): string | undefined {
		return this.headers[name.toLowerCase()];
	}

	type(contentType: string): this {
		return this.set('content-type', contentType);
	}

	writeHead(code: number, headers?: Record<string, string>): this {
		this.statusCode = code;
		if (headers) this.set(headers);
		this.headersSent = true;
		this.written = true;
		return this;
	}

	write(chunk: string | Buffer): boolean {
		const previous = this.body === undefined ? '' : String(this.body);
		this.body = previous + chunk.toString();
		this.headersSent = true;
		this.written = true;
		return true;
	}

	json(body: unknown): this {
		return this.send(body);
	}

	send(body?: unknown): this {
		this.body = Buffer.isBuffer(body) ? body.toString() : body;
		return this.end();
	}

	end(chunk?: string | Buffer): this {
		if (chunk !== undefined) this.write(chunk);
		this.headersSent = true;
		this.writableEnded = true;
		this.written = true;
		return this;
	}

	on(): this {
		return this;
	}

	once(): this {
		return this;
	}

	off(): this {
		return this;
	}
}

interface ParsedRequest {
	method: string;
	headers: Record<string, string>;
	rawBody: Buffer;
	body: unknown;
	query: Record<string, string>;
	params: Record<string, string>;
	contentType?: string;
	encoding?: BufferEncoding;
	readRawBody: () => Promise<void>;
}

/** Parses the body as n8n's webhook body parser does (JSON, form-urlencoded, text; XML is not modelled). */
function buildRequest(request: WebhookRequest, nodeVersion: number): ParsedRequest {
	const headers = Object.fromEntries(
		Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
	);
	const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body);
	const parsed: ParsedRequest = {
		method: (request.method ?? 'POST').toUpperCase(),
		headers,
		rawBody,
		body: undefined,
		query: request.query ?? {},
		params: {},
		readRawBody: async () => {},
	};
	const [type, ...parameters] = (headers['content-type'] ?? '').split(';');
	if (type) {
		parsed.contentType = type.trim().toLowerCase();
		const charset = parameters
			.map((parameter) => parameter.trim().split('='))
			.find(([key]) => key.toLowerCase() === 'charset')?.[1];
		parsed.encoding = (charset ?? 'utf-8').replace(/"/g, '').toLowerCase() as BufferEncoding;
	}

	const { contentType, encoding } = parsed;
	const parsable =
		contentType === 'application/json' ||
		contentType === 'text/plain' ||
		contentType === 'application/x-www-form-urlencoded';
	// Webhook nodes past version 1 skip the body parser for content types it cannot read.
	if ((nodeVersion > 1 && !parsable) || rawBody.length === 0) return parsed;
	const text = rawBody.toString(encoding);
	if (contentType === 'application/json') {
		parsed.body = jsonParse(text);
	} else if (contentType === 'application/x-www-form-urlencoded') {
		parsed.body = { ...parseQueryString(text, undefined, undefined, { maxKeys: 1000 }) };
	} else if (contentType === 'text/plain') {
		parsed.body = text;
	}
	return parsed;
}

/**
 * Runs a trigger's `webhook()` under n8n-core's real `WebhookContext`, the way a live webhook call
 * does: a workflow rebuilt from the saved static data, a parsed express-like request, and static data
 * saved afterwards only if the node changed it. Errors thrown by `webhook()` reject.
 */
export async function callWebhook(opts: CallWebhookOptions): Promise<WebhookResult> {
	const mode = opts.mode ?? 'webhook';
	const nodeTypes = createNodeTypes(withBuiltIns({ [opts.node.type]: opts.nodeType }));
	const node = structuredClone(opts.node);
	attachCredentials([node], nodeTypes, opts.credentials);

	const workflowId = opts.workflowId ?? randomUUID();
	const savedStaticData = roundTrip(opts.staticData ?? {});
	const workflow = new Workflow({
		id: workflowId,
		name: 'Engine test',
		nodes: [node],
		connections: {},
		active: mode !== 'manual',
		nodeTypes,
		staticData: roundTrip(savedStaticData),
		settings: { executionOrder: 'v1', ...opts.settings },
	});
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const webhookName = opts.webhookName ?? 'default';
	const description = nodeType.description.webhooks?.find(
		(webhook) => webhook.name === webhookName,
	);
	if (description === undefined || nodeType.webhook === undefined) {
		throw new Error(`Node type "${node.type}" has no webhook named "${webhookName}"`);
	}

	const credentials = opts.credentials ?? { types: [], data: {} };
	const helper = new MemoryCredentialsHelper(credentials.types, credentials.data, nodeTypes);
	const additionalData = buildAdditionalData(helper, randomUUID(), workflowId);
	const res = new RecordedResponse();
	let req: ParsedRequest;
	try {
		req = buildRequest(opts.request, node.typeVersion);
	} catch (error) {
		// n8n answers an unparsable body with its UnprocessableRequestError before the node runs.
		const responseBody = {
			code: 422,
			message: 'Failed to parse request body',
			hint: (error as Error).message,
		};
		return {
			response: {},
			status: 422,
			responseBody,
			responseHeaders: {},
			staticData: savedStaticData,
			staticDataChanged: false,
		};
	}
	additionalData.httpRequest = req as unknown as IWorkflowExecuteAdditionalData['httpRequest'];
	additionalData.httpResponse = res as unknown as IWorkflowExecuteAdditionalData['httpResponse'];

	const evaluate = (value: string | number | boolean | undefined, fallback?: string | number) =>
		value === undefined
			? fallback
			: workflow.expression.getSimpleParameterValue(
					node,
					value as string,
					mode,
					{},
					undefined,
					fallback,
				);
	const webhookData: IWebhookData = {
		httpMethod: req.method as IHttpRequestMethods,
		node: node.name,
		path: String(evaluate(description.path, '')),
		webhookDescription: description,
		workflowId,
		workflowExecuteAdditionalData: additionalData,
		webhookId: node.webhookId,
		isTest: mode === 'manual',
	};

	const context = new WebhookContext(workflow, node, additionalData, mode, webhookData, [], null);
	const response =
		nodeType instanceof Node
			? await nodeType.webhook(context)
			: ((await nodeType.webhook.call(context)) as IWebhookResponseData);

	// n8n saves static data after a webhook call only when the node changed it.
	const staticDataChanged = workflow.staticData.__dataChanged === true;
	const staticData = staticDataChanged ? roundTrip(workflow.staticData) : savedStaticData;

	if (res.written || response.noWebhookResponse === true) {
		return {
			response,
			status: res.statusCode,
			responseBody: res.body,
			responseHeaders: res.headers,
			staticData,
			staticDataChanged,
		};
	}
	const responseCode = Number(evaluate(description.responseCode, 200));
	let responseBody: unknown;
	if (response.workflowData === undefined) {
		responseBody = response.webhookResponse ?? { message: 'Webhook call received' };
	} else if (evaluate(description.responseMode, 'onReceived') === 'onReceived') {
		const responseData = evaluate(description.responseData);
		responseBody =
			responseData === 'noData'
				? undefined
				: ((responseData || response.webhookResponse) ?? { message: 'Workflow was started' });
	}
	return {
		response,
		status: responseCode,
		responseBody,
		responseHeaders: res.headers,
		staticData,
		staticDataChanged,
	};
}

export interface CallPollOptions {
	node: Partial<INode> & { type: string; parameters: INodeParameters };
	nodeType: INodeType;
	credentials?: EngineCredentials;
	/** `manual` is Fetch Test Event; `trigger` a poll of a published workflow. */
	mode?: 'manual' | 'trigger';
	/** The node's static data as n8n kept it after the last poll (in memory, or saved). */
	staticData?: IDataObject;
	/** What the host's getPollBudgetMs answers; undefined leaves n8n-core's default. */
	pollBudgetMs?: number;
	/** The workflow's id (default: a new one): polls of one workflow share it, as its webhook trigger does. */
	workflowId?: string;
	/** The workflow's settings besides executionOrder v1 (e.g. engineType). */
	settings?: IWorkflowSettings;
}

export interface PollResult {
	/** What poll() returned: items to emit, or null for none. */
	items: INodeExecutionData[] | null;
	/** The workflow's static data after the poll (the node's is under `node:<name>`). */
	staticData: IDataObject;
	error?: Error;
}

/** A workflow of one node, its credentials attached and n8n-core's additional data built, as a context needs. */
export function oneNodeWorkflow(
	opts: {
		node: Partial<INode> & { type: string; parameters: INodeParameters };
		nodeType: INodeType | IVersionedNodeType;
		credentials?: EngineCredentials;
		workflowId?: string;
		settings?: IWorkflowSettings;
	},
	as: { name: string; active: boolean; staticData?: IDataObject },
) {
	const nodeTypes = createNodeTypes(withBuiltIns({ [opts.node.type]: opts.nodeType }));
	const node: INode = {
		id: randomUUID(),
		name: as.name,
		typeVersion: 1,
		position: [0, 0],
		...structuredClone(opts.node),
	} as INode;
	attachCredentials([node], nodeTypes, opts.credentials);
	const workflowId = opts.workflowId ?? randomUUID();
	const workflow = new Workflow({
		id: workflowId,
		nodes: [node],
		connections: {},
		active: as.active,
		nodeTypes,
		staticData: as.staticData,
		settings: { executionOrder: 'v1', ...opts.settings },
	});
	const credentials = opts.credentials ?? { types: [], data: {} };
	const helper = new MemoryCredentialsHelper(credentials.types, credentials.data, nodeTypes);
	return { workflow, node, additionalData: buildAdditionalData(helper, randomUUID(), workflowId) };
}

/**
 * Runs a poller's poll() once under n8n-core's real PollContext, as the engine does at each poll time.
 * The static data is handed back whatever the outcome, so a test can tell what a failed poll kept.
 */
export async function callPoll(opts: CallPollOptions): Promise<PollResult> {
	const { workflow, node, additionalData } = oneNodeWorkflow(opts, {
		name: 'Poll Trigger',
		active: opts.mode !== 'manual',
		staticData: roundTrip(opts.staticData ?? {}),
	});
	const mode = opts.mode ?? 'trigger';
	const budget = opts.pollBudgetMs;
	const context = new PollContext(
		workflow,
		node,
		additionalData,
		mode,
		mode === 'manual' ? 'manual' : 'activate',
		undefined,
		undefined,
		undefined,
		undefined,
		undefined,
		budget === undefined ? undefined : () => budget,
	);
	const poll = opts.nodeType.poll;
	if (poll === undefined) throw new Error(`Node type "${opts.node.type}" does not poll`);
	try {
		const result = await poll.call(context);
		return {
			items: result === null ? null : result[0],
			staticData: roundTrip(workflow.staticData),
		};
	} catch (error) {
		return { items: null, staticData: roundTrip(workflow.staticData), error: error as Error };
	}
}

export interface CallMethodOptions<T> {
	node: Partial<INode> & { type: string; parameters: INodeParameters };
	nodeType: INodeType | IVersionedNodeType;
	credentials?: EngineCredentials;
	/** Path of the parameter the editor asks for, e.g. `parameters.userId`. */
	path?: string;
	call: (context: ILoadOptionsFunctions) => Promise<T>;
}

/**
 * Calls a node's listSearch or loadOptions method under n8n-core's real LoadOptionsContext, as the
 * editor does when a dropdown or a "From list" opens.
 */
export async function callMethod<T>(opts: CallMethodOptions<T>): Promise<T> {
	const { workflow, node, additionalData } = oneNodeWorkflow(opts, {
		name: DEFAULT_NODE_NAME,
		active: false,
	});
	const context = new LoadOptionsContext(workflow, node, additionalData, opts.path ?? 'parameters');
	return await opts.call(context);
}

export interface TestCredentialsOptions {
	/** The credential type, as n8n loads it. */
	credentialType: ICredentialType;
	/** The node types that may name a test for it with `testedBy`. */
	nodeTypes: NodeTypeMap;
	/** Decrypted credential data, as the editor's dialog sends it. */
	data: ICredentialDataDecryptedObject;
}

/**
 * Tests credentials as the editor's "Retry"/"Save" does (n8n's CredentialsTester): the credential type's
 * own declarative `test` would win, so none may be there; else the first node naming a `testedBy`
 * function is asked, under n8n-core's real CredentialTestContext (its `helpers.request` is n8n's legacy
 * request adapter over axios).
 */
export async function testCredentials(
	opts: TestCredentialsOptions,
): Promise<INodeCredentialTestResult> {
	const { name } = opts.credentialType;
	if (opts.credentialType.test !== undefined) {
		throw new UnexpectedError(
			`${name} has a declarative test: n8n would run it instead of any node's`,
		);
	}
	for (const type of Object.values(opts.nodeTypes)) {
		const node = type as INodeType;
		const entry = node.description.credentials?.find(
			(credential) => credential.name === name && typeof credential.testedBy === 'string',
		);
		if (entry === undefined) continue;
		const test = node.methods?.credentialTest?.[entry.testedBy as string];
		if (test === undefined)
			throw new UnexpectedError(
				`${node.description.name} names ${String(entry.testedBy)}, which it does not have`,
			);
		const context = new CredentialTestContext(
			buildAdditionalData(
				new MemoryCredentialsHelper([], {}, createNodeTypes(withBuiltIns({}))),
				randomUUID(),
				randomUUID(),
			),
		);
		return await test.call(context, {
			id: 'credential-test',
			name: `${name} (test)`,
			type: name,
			data: structuredClone(opts.data),
		});
	}
	throw new UnexpectedError(`no node tests ${name}`);
}

/** The major version of the n8n-core the tests run on: 2, or 1 under compat/run-n8n1.sh. */
export const N8N_MAJOR: number = Number(
	(require('n8n-core/package.json') as { version: string }).version.split('.')[0],
);

export interface PollHost {
	/** Publishing: the workflow is built from what is saved, n8n-core's PollTriggerExecutor runs the first poll, n8n saves. */
	activate(): Promise<void>;
	/** One poll at its poll time (PollTriggerExecutor, not testing): n8n saves only when it emits. */
	tick(): Promise<void>;
	/** n8n stops (what was not saved is lost with the process) and starts again: a new workflow from what is saved, activated. */
	restart(): Promise<void>;
	/** Fetch Test Event: manual mode; nothing is saved. */
	fetchTestEvent(): Promise<INodeExecutionData[]>;
	/** Every item emitted in trigger mode, in order, across restarts. */
	readonly emitted: INodeExecutionData[];
	/** The static data as saved (the database's copy). */
	saved(): IDataObject;
	/** Errors the executor handed to `__emitError` (a failed poll at its poll time). */
	readonly errors: Error[];
}

/**
 * A poller as n8n 2.41.1's main runs it, for the claims docs/poll-trigger.md makes about what n8n saves. The poll
 * runs through n8n-core's real `PollTriggerExecutor` and `PollContext`; what stands in for n8n's cli is
 * only when the static data goes to the "database": after the poll that runs at activation, and in
 * `__emit` (a poll that emits); never after a poll that emits nothing or fails, nor after Fetch Test
 * Event. A restart builds the workflow again from that copy, as n8n does from its database.
 */
export function pollHost(opts: Omit<CallPollOptions, 'staticData' | 'mode'>): PollHost {
	const executor = Container.get(PollTriggerExecutor);
	let database: IDataObject = {};
	const emitted: INodeExecutionData[] = [];
	const errors: Error[] = [];
	let current: { workflow: Workflow; run: (testing?: boolean) => Promise<void> } | undefined;

	const build = (mode: 'trigger' | 'manual', activation: 'activate' | 'init' | 'manual') => {
		const { workflow, node, additionalData } = oneNodeWorkflow(opts, {
			name: 'Poll Trigger',
			active: mode !== 'manual',
			staticData: roundTrip(database),
		});
		const save = () => {
			database = roundTrip(workflow.staticData);
		};
		const received: INodeExecutionData[][] = [];
		const context = new PollContext(
			workflow,
			node,
			additionalData,
			mode,
			activation,
			(data) => {
				if (mode !== 'manual') save();
				received.push(...data);
			},
			(error) => {
				errors.push(error);
			},
			undefined,
			undefined,
			undefined,
			opts.pollBudgetMs === undefined ? undefined : () => opts.pollBudgetMs as number,
		);
		const run = async (testing = false) => {
			const before = received.length;
			await executor.create(workflow, node, context, () => true)(testing);
			for (const batch of received.slice(before)) emitted.push(...(mode === 'manual' ? [] : batch));
		};
		return { workflow, run, received };
	};

	const activate = async (activation: 'activate' | 'init') => {
		const built = build('trigger', activation);
		current = built;
		await built.run(true);
		database = roundTrip(built.workflow.staticData);
	};

	return {
		activate: () => activate('activate'),
		async tick() {
			if (current === undefined) throw new Error('pollHost: activate first');
			await current.run();
		},
		async restart() {
			current = undefined;
			await activate('init');
		},
		async fetchTestEvent() {
			const built = build('manual', 'manual');
			await built.run(true);
			return built.received.flat();
		},
		emitted,
		errors,
		saved: () => roundTrip(database),
	};
}
