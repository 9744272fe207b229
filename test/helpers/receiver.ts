/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * A stand-in for the n8n instance the chat service posts its webhooks to: a real HTTP server on
 * 127.0.0.1 whose paths are the trigger's webhook URLs. Each delivery goes, bytes, headers and query
 * exactly as they arrived, to the Support Chat Trigger's `webhook()` under n8n-core's real
 * `WebhookContext` (`callWebhook`), with the static data saved after the previous delivery to that
 * URL. The sender gets the answer n8n would send, and when the trigger starts a run and the endpoint
 * has a workflow, that workflow runs in the real engine from the trigger's items, as n8n's
 * `onReceived` response mode does: answer first, run afterwards.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';

import type {
	IConnections,
	IDataObject,
	INode,
	INodeParameters,
	IWebhookResponseData,
} from 'n8n-workflow';

import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import { SupportChatTrigger } from '../../nodes/SupportChat/SupportChatTrigger.node';
import type { Sandbox } from '../../sandbox';
import type { EngineCredentials, EngineRun } from './engine';
import { callWebhook, runWorkflow } from './engine';
import { ACTION_TYPE, TRIGGER_TYPE } from './supportChat';

/** A workflow as n8n saves it: the trigger and the nodes it feeds. */
export interface SavedWorkflow {
	nodes: INode[];
	connections: IConnections;
}

/** One webhook URL: the trigger's parameters alone, or a whole workflow that holds the trigger. */
export type EndpointSpec = (
	| { trigger: INodeParameters; workflow?: undefined }
	| { workflow: SavedWorkflow; trigger?: undefined }
) & {
	/** Credentials of the trigger (its `webhookSecret`) and of the workflow's action nodes. */
	credentials?: EngineCredentials;
	/** The workflow's id (default: a new one), to share with a poll trigger of the same workflow. */
	workflowId?: string;
};

/** How the receiver spoils the answer to a delivery it has handled, as a proxy in front of n8n might. */
export type Spoil = 500 | 'drop';

export interface ReceivedDelivery {
	/** The endpoint's name (the URL path's last segment). */
	endpoint: string;
	/** Position among the deliveries to this endpoint, from 0. */
	index: number;
	rawBody: Buffer;
	headers: Record<string, string>;
	query: Record<string, string>;
	/** What the trigger decided: the status and the parsed body of n8n's answer. */
	status: number;
	body: unknown;
	/** What `webhook()` returned. */
	response: IWebhookResponseData;
	/** The items the trigger emitted (`response.workflowData[0]`), as JSON. */
	items: IDataObject[];
	/** Whether n8n would start a run: `webhook()` returned workflow data. */
	started: boolean;
	/** Set when the answer the sender got was spoiled on purpose. */
	spoiled?: Spoil;
	/** The workflow run, once it ended; only when a run started and the endpoint has a workflow. */
	run?: EngineRun;
}

export interface Receiver {
	/** `http://127.0.0.1:PORT` */
	readonly origin: string;
	/** Sets up (or replaces) an endpoint; its static data starts empty. Returns its URL. */
	endpoint(name: string, spec: EndpointSpec): string;
	/** The URL of an endpoint, with an optional query string (`token=...`). */
	url(name: string, query?: string): string;
	/** Every delivery handled, in order of arrival; or those of one endpoint. */
	deliveries(name?: string): ReceivedDelivery[];
	/** Runs that started and ended, of one endpoint or of all. */
	runs(name?: string): EngineRun[];
	/** The static data n8n would have saved for an endpoint after its last delivery. */
	staticData(name: string): IDataObject;
	/** Spoils the answers to the next `times` deliveries to an endpoint, after the trigger handled them. */
	spoilNext(name: string, spoil: Spoil, times?: number): void;
	/**
	 * Resolves when nothing is under way: no queued delivery in the sandbox, no delivery being handled,
	 * no run going. Runs call the service back, which sends further deliveries, so it loops until quiet.
	 */
	settled(): Promise<void>;
	/** Errors thrown while handling a delivery or running a workflow; `settled()` rejects with the first and clears them. */
	readonly errors: Error[];
	/** Forgets every endpoint, delivery and error. */
	reset(): void;
	close(): Promise<void>;
}

interface EndpointState {
	spec: EndpointSpec;
	trigger: INode;
	/** One id for every delivery to the endpoint, as n8n has for a workflow: the trigger's in-process memory is keyed by it. */
	workflowId: string;
	staticData: IDataObject;
	spoils: Spoil[];
	/** Deliveries to one URL are handled one after another, as n8n saves static data after each. */
	queue: Promise<void>;
}

const nodeTypes = { [TRIGGER_TYPE]: new SupportChatTrigger(), [ACTION_TYPE]: new SupportChat() };

function triggerOf(name: string, spec: EndpointSpec): INode {
	if (spec.workflow !== undefined) {
		const found = spec.workflow.nodes.find((node) => node.type === TRIGGER_TYPE);
		if (found === undefined)
			throw new Error(`The workflow of endpoint "${name}" has no ${TRIGGER_TYPE} node`);
		return found;
	}
	return {
		id: `trigger-${name}`,
		name: 'Support Chat Trigger',
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: `00000000-0000-4000-8000-${Buffer.from(name).toString('hex').padStart(12, '0').slice(-12)}`,
		parameters: spec.trigger,
	};
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
	const result: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return result;
}

function parseAnswer(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return body;
	}
}

/**
 * Starts the receiver. With `sandbox`, `settled()` also waits for the sandbox's delivery queue, which
 * is what makes a round trip (delivery, run, call back, next delivery) awaitable without sleeps.
 */
export async function startReceiver(
	opts: { sandbox?: Sandbox; maxRuns?: number } = {},
): Promise<Receiver> {
	// A workflow that keeps triggering itself would never settle: stop it with an error instead.
	const maxRuns = opts.maxRuns ?? 50;
	let runCount = 0;
	const endpoints = new Map<string, EndpointState>();
	const handled: ReceivedDelivery[] = [];
	const pending = new Set<Promise<unknown>>();
	const errors: Error[] = [];

	const track = <T>(promise: Promise<T>): Promise<T> => {
		pending.add(promise);
		promise.then(
			() => pending.delete(promise),
			(error: Error) => {
				errors.push(error);
				pending.delete(promise);
			},
		);
		return promise;
	};

	async function handle(
		name: string,
		state: EndpointState,
		req: http.IncomingMessage,
		rawBody: Buffer,
		res: http.ServerResponse,
	) {
		const headers = flatHeaders(req.headers);
		const search = new URL(req.url ?? '/', 'http://127.0.0.1').search.slice(1);
		const query = { ...parseQueryString(search) } as Record<string, string>;
		const result = await callWebhook({
			node: state.trigger,
			nodeType: nodeTypes[TRIGGER_TYPE],
			credentials: state.spec.credentials,
			request: { method: req.method, headers, body: rawBody, query },
			staticData: state.staticData,
			mode: 'webhook',
			workflowId: state.workflowId,
		});
		state.staticData = result.staticData;

		const items = (result.response.workflowData?.[0] ?? []).map((item) => item.json);
		const delivery: ReceivedDelivery = {
			endpoint: name,
			index: handled.filter((entry) => entry.endpoint === name).length,
			rawBody,
			headers,
			query,
			status: result.status,
			body: parseAnswer(result.responseBody),
			response: result.response,
			items,
			started: result.response.workflowData !== undefined,
		};
		handled.push(delivery);

		// Tracked before the answer goes out, so that whoever waits for the sender also waits for the run.
		if (delivery.started && state.spec.workflow !== undefined) {
			if (++runCount > maxRuns) {
				throw new Error(`More than ${maxRuns} runs: the workflow keeps triggering itself`);
			}
			const workflow = state.spec.workflow;
			track(
				runWorkflow({
					workflow: { ...workflow, staticData: state.staticData },
					nodeTypes,
					credentials: state.spec.credentials,
					startNode: state.trigger.name,
					startItems: items,
					mode: 'webhook',
				}).then((run) => {
					delivery.run = run;
					return run;
				}),
			);
		}

		const spoil = state.spoils.shift();
		if (spoil === 'drop') {
			delivery.spoiled = spoil;
			req.socket.destroy();
			return;
		}
		if (spoil === 500) delivery.spoiled = spoil;
		const text =
			result.responseBody === undefined
				? ''
				: typeof result.responseBody === 'string'
					? result.responseBody
					: JSON.stringify(result.responseBody);
		res.writeHead(spoil ?? result.status, {
			'content-type': result.responseHeaders['content-type'] ?? 'application/json; charset=utf-8',
		});
		res.end(spoil === 500 ? '{"message":"Internal server error"}' : text);
	}

	const server = http.createServer((req, res) => {
		const name = decodeURIComponent(
			new URL(req.url ?? '/', 'http://127.0.0.1').pathname.split('/').filter(Boolean).at(-1) ?? '',
		);
		const state = endpoints.get(name);
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		const arrived = once(req, 'end');
		track(
			(async () => {
				await arrived;
				if (state === undefined || req.method !== 'POST') {
					// As n8n answers a URL nobody listens on.
					res
						.writeHead(404, { 'content-type': 'application/json' })
						.end('{"code":404,"message":"Not found"}');
					return;
				}
				const turn = state.queue.then(() => handle(name, state, req, Buffer.concat(chunks), res));
				state.queue = turn.catch(() => undefined);
				try {
					await turn;
				} catch (error) {
					res
						.writeHead(500, { 'content-type': 'application/json' })
						.end(JSON.stringify({ message: (error as Error).message }));
					throw error;
				}
			})(),
		);
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const url = (name: string, query?: string) =>
		`${origin}/webhook/${encodeURIComponent(name)}${query ? `?${query}` : ''}`;

	return {
		origin,
		url,
		endpoint(name, spec) {
			endpoints.set(name, {
				spec,
				trigger: triggerOf(name, spec),
				workflowId: spec.workflowId ?? randomUUID(),
				staticData: {},
				spoils: [],
				queue: Promise.resolve(),
			});
			return url(name);
		},
		deliveries: (name) => handled.filter((entry) => name === undefined || entry.endpoint === name),
		runs: (name) =>
			handled
				.filter((entry) => name === undefined || entry.endpoint === name)
				.flatMap((entry) => (entry.run === undefined ? [] : [entry.run])),
		staticData(name) {
			const state = endpoints.get(name);
			if (state === undefined) throw new Error(`No endpoint "${name}"`);
			return state.staticData;
		},
		spoilNext(name, spoil, times = 1) {
			const state = endpoints.get(name);
			if (state === undefined) throw new Error(`No endpoint "${name}"`);
			for (let i = 0; i < times; i++) state.spoils.push(spoil);
		},
		async settled() {
			for (;;) {
				await opts.sandbox?.settled();
				if (pending.size === 0) {
					// A run that just ended may have queued deliveries in the sandbox: look once more.
					await opts.sandbox?.settled();
					if (pending.size === 0) break;
				}
				await Promise.allSettled([...pending]);
			}
			if (errors.length > 0) throw errors.splice(0)[0];
		},
		errors,
		reset() {
			runCount = 0;
			endpoints.clear();
			handled.length = 0;
			errors.length = 0;
		},
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve, reject) =>
				server.close((error) => (error ? reject(error) : resolve())),
			);
		},
	};
}
