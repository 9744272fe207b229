/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Proves the engine harness: real n8n-core execution, real HTTP to a loopback server, credentials
 * applied through a generic `authenticate` block, errors and continue-on-fail as n8n records them,
 * and webhook calls with static data persisted between them as JSON.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { SsrfProtectionConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import { NodeApiError, NodeConnectionTypes } from 'n8n-workflow';
import type {
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	JsonObject,
} from 'n8n-workflow';

import { callWebhook, runNode, runWorkflow, START_NODE_NAME } from '../helpers/engine';
import type { EngineCredentials } from '../helpers/engine';

class TestApi implements ICredentialType {
	name = 'testApi';
	displayName = 'Test API';
	properties: ICredentialType['properties'] = [
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: 'http://127.0.0.1:1' },
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
		},
		{ displayName: 'Region', name: 'region', type: 'string', default: 'eu' },
	];
	authenticate: ICredentialType['authenticate'] = {
		type: 'generic',
		properties: {
			headers: { Authorization: '=Bearer {{$credentials.apiToken}}' },
			qs: { region: '={{$credentials.region}}' },
		},
	};
}

/** Fetches `{baseUrl}{path}?id=<item id>` for every item; a 4xx becomes a NodeApiError. */
class TestHttp implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test HTTP',
		name: 'testHttp',
		group: ['transform'],
		version: 1,
		description: 'Calls the test server',
		defaults: { name: 'Test HTTP' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'testApi', required: true }],
		properties: [
			{ displayName: 'Path', name: 'path', type: 'string', default: '/echo', required: true },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('testApi');
		const returnData: INodeExecutionData[] = [];
		for (const [i, item] of this.getInputData().entries()) {
			try {
				const body = (await this.helpers.httpRequestWithAuthentication.call(this, 'testApi', {
					url: `${baseUrl}${this.getNodeParameter('path', i) as string}`,
					qs: { id: item.json.id as string },
					json: true,
				})) as IDataObject;
				returnData.push({ json: body, pairedItem: { item: i } });
			} catch (error) {
				// The helper already threw a NodeApiError, and wrapping one again returns it unchanged.
				const httpCode = (error as NodeApiError).httpCode ?? undefined;
				const apiError = new NodeApiError(this.getNode(), { httpCode } as JsonObject, {
					message: 'The test service rejected the request',
					description: 'It answered: nope',
					httpCode,
					itemIndex: i,
				});
				if (!this.continueOnFail()) throw apiError;
				returnData.push({ json: { error: apiError.message }, pairedItem: { item: i } });
			}
		}
		return [returnData];
	}
}

/**
 * Starts the workflow for deliveries carrying the credential's token, answers 401 otherwise, and
 * starts nothing for an event id it has already seen.
 */
class TestTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Trigger',
		name: 'testTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Receives test deliveries',
		defaults: { name: 'Test Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'testApi', required: true }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'deliveries' },
		],
		properties: [],
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const { apiToken } = await this.getCredentials<{ apiToken: string }>('testApi');
		if (this.getHeaderData()['x-token'] !== apiToken) {
			this.getResponseObject().status(401).json({ message: 'Invalid token' });
			return { noWebhookResponse: true };
		}
		const body = this.getBodyData();
		const staticData = this.getWorkflowStaticData('node');
		const seen = (staticData.seen as string[] | undefined) ?? [];
		if (seen.includes(body.id as string)) return {};
		staticData.seen = [...seen, body.id as string];
		staticData.lastSeenAt = new Date(0);
		const raw = this.getRequestObject().rawBody.toString();
		return { workflowData: [this.helpers.returnJsonArray({ ...body, raw })] };
	}
}

/** Counts the items it has seen in the workflow's global static data. */
class Counter implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Counter',
		name: 'counter',
		group: ['transform'],
		version: 1,
		description: 'Counts items across executions',
		defaults: { name: 'Counter' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const staticData = this.getWorkflowStaticData('global');
		const items = this.getInputData();
		staticData.count = ((staticData.count as number | undefined) ?? 0) + items.length;
		return [
			items.map((item, i) => ({
				json: { ...item.json, count: staticData.count },
				pairedItem: { item: i },
			})),
		];
	}
}

const received: Array<{ url: string; authorization?: string }> = [];
let server: http.Server;
let credentials: EngineCredentials;

beforeAll(async () => {
	server = http.createServer((req, res) => {
		received.push({ url: req.url ?? '', authorization: req.headers.authorization });
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		res.setHeader('content-type', 'application/json');
		if (url.pathname === '/fail') {
			res.statusCode = 422;
			res.end(JSON.stringify({ error: 'nope' }));
			return;
		}
		res.end(
			JSON.stringify({ id: url.searchParams.get('id'), region: url.searchParams.get('region') }),
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	credentials = {
		types: [new TestApi()],
		data: { testApi: { baseUrl: `http://127.0.0.1:${port}`, apiToken: 'secret-token' } },
	};
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
	received.length = 0;
});

const nodeTypes = { testHttp: new TestHttp() };

describe('runNode', () => {
	it('authenticates through the credential type and pairs every output item with its input', async () => {
		const result = await runNode({
			node: { type: 'testHttp', parameters: { path: '/echo' } },
			items: [{ id: 'a' }, { id: 'b' }],
			nodeTypes,
			credentials,
		});

		expect(result.status).toBe('success');
		expect(received.map((request) => request.authorization)).toEqual([
			'Bearer secret-token',
			'Bearer secret-token',
		]);
		expect(received[0].url).toBe('/echo?id=a&region=eu');
		expect(result.output()).toEqual([
			{ json: { id: 'a', region: 'eu' }, pairedItem: { item: 0 } },
			{ json: { id: 'b', region: 'eu' }, pairedItem: { item: 1 } },
		]);
		expect(result.output(START_NODE_NAME)).toHaveLength(2);
	});

	it('records a NodeApiError as the failed execution instead of rejecting', async () => {
		const result = await runNode({
			node: { name: 'Fetch', type: 'testHttp', parameters: { path: '/fail' } },
			nodeTypes,
			credentials,
		});

		expect(result.status).toBe('error');
		// The engine keeps a plain copy of the error (own fields, `name` included), as n8n stores it.
		expect(result.error('Fetch')).toMatchObject({
			name: 'NodeApiError',
			message: 'The test service rejected the request',
			description: 'It answered: nope',
			httpCode: '422',
		});
		expect(result.error()?.message).toBe('The test service rejected the request');
		expect(() => result.output('Fetch')).not.toThrow();
	});

	it('turns the error into an item when the node continues on fail', async () => {
		const result = await runNode({
			node: { type: 'testHttp', parameters: { path: '/fail' }, onError: 'continueRegularOutput' },
			items: [{ id: 'a' }],
			nodeTypes,
			credentials,
		});

		expect(result.status).toBe('success');
		expect(result.output()).toEqual([
			{ json: { error: 'The test service rejected the request' }, pairedItem: { item: 0 } },
		]);
	});

	it('fails like n8n when the node has no credentials', async () => {
		const result = await runNode({ node: { type: 'testHttp', parameters: {} }, nodeTypes });

		expect(result.status).toBe('error');
		expect(result.error()?.message).toMatch(/credentials/i);
	});

	it('reaches the loopback server with SSRF protection switched on', async () => {
		const ssrf = Container.get(SsrfProtectionConfig);
		ssrf.enabled = true;
		try {
			const result = await runNode({
				node: { type: 'testHttp', parameters: {} },
				nodeTypes,
				credentials,
			});
			expect(result.error()).toBeUndefined();
		} finally {
			ssrf.enabled = false;
		}
	});
});

describe('runWorkflow', () => {
	it('runs nodes and connections as n8n saves them, starting from a manual trigger', async () => {
		const node = (name: string, type: string, parameters = {}): INode => ({
			id: name,
			name,
			type,
			typeVersion: 1,
			position: [0, 0],
			parameters,
		});
		const result = await runWorkflow({
			workflow: {
				nodes: [
					node('When clicking Execute', 'n8n-nodes-base.manualTrigger'),
					node('First', 'testHttp', { path: '/echo' }),
					node('Second', 'testHttp', { path: '/echo' }),
				],
				connections: {
					'When clicking Execute': { main: [[{ node: 'First', type: 'main', index: 0 }]] },
					First: { main: [[{ node: 'Second', type: 'main', index: 0 }]] },
				},
			},
			nodeTypes,
			credentials,
			startItems: [{ id: 'x' }],
		});

		expect(result.status).toBe('success');
		expect(result.output('Second')).toEqual([
			{ json: { id: 'x', region: 'eu' }, pairedItem: { item: 0 } },
		]);
		expect(received).toHaveLength(2);
		expect(() => result.output('Missing')).toThrow(/did not run/);
	});

	it('returns static data as n8n saves it: changed by production runs, untouched by manual ones', async () => {
		const workflow = {
			nodes: [
				{
					id: '1',
					name: 'Start',
					type: 'test.start',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: '2',
					name: 'Counter',
					type: 'counter',
					typeVersion: 1,
					position: [200, 0],
					parameters: {},
				},
			] as INode[],
			connections: { Start: { main: [[{ node: 'Counter', type: 'main' as const, index: 0 }]] } },
			staticData: { global: { count: 1 } },
		};

		const production = await runWorkflow({
			workflow,
			nodeTypes: { counter: new Counter() },
			mode: 'trigger',
		});
		expect(production.output('Counter')[0].json.count).toBe(2);
		expect(production.staticData).toEqual({ global: { count: 2 } });

		const manual = await runWorkflow({ workflow, nodeTypes: { counter: new Counter() } });
		expect(manual.output('Counter')[0].json.count).toBe(2);
		expect(manual.staticData).toEqual({ global: { count: 1 } });
	});
});

describe('callWebhook', () => {
	const trigger: INode = {
		id: 'trigger',
		name: 'Trigger',
		type: 'testTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		webhookId: 'b7a3c1d2-0000-4000-8000-000000000001',
	};
	const deliver = (body: string, headers: Record<string, string> = {}) => ({
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'X-Token': 'secret-token', ...headers },
		body: Buffer.from(body),
	});

	it('starts the workflow and keeps static data across calls only as JSON', async () => {
		const first = await callWebhook({
			node: trigger,
			nodeType: new TestTrigger(),
			credentials,
			request: deliver('{"id":"e1","text":"hi"}'),
		});

		expect(first.response.workflowData).toEqual([
			[{ json: { id: 'e1', text: 'hi', raw: '{"id":"e1","text":"hi"}' } }],
		]);
		expect(first.status).toBe(200);
		expect(first.responseBody).toEqual({ message: 'Workflow was started' });
		expect(first.staticData).toEqual({
			'node:Trigger': { seen: ['e1'], lastSeenAt: '1970-01-01T00:00:00.000Z' },
		});

		const second = await callWebhook({
			node: trigger,
			nodeType: new TestTrigger(),
			credentials,
			staticData: first.staticData,
			request: deliver('{"id":"e1","text":"again"}'),
		});

		expect(second.response.workflowData).toBeUndefined();
		expect(second.responseBody).toEqual({ message: 'Webhook call received' });
		expect(second.staticData).toEqual(first.staticData);
	});

	it('hands what the webhook returned to the workflow it starts', async () => {
		const delivery = await callWebhook({
			node: trigger,
			nodeType: new TestTrigger(),
			credentials,
			request: deliver('{"id":"e4"}'),
		});
		const result = await runWorkflow({
			workflow: {
				nodes: [
					trigger,
					{ ...trigger, id: 'counter', name: 'Counter', type: 'counter', webhookId: undefined },
				],
				connections: { Trigger: { main: [[{ node: 'Counter', type: 'main', index: 0 }]] } },
			},
			nodeTypes: { testTrigger: new TestTrigger(), counter: new Counter() },
			credentials,
			startItems: delivery.response.workflowData?.[0].map((item) => item.json),
			mode: 'webhook',
		});

		expect(result.status).toBe('success');
		expect(result.output('Counter')).toEqual([
			{ json: { id: 'e4', raw: '{"id":"e4"}', count: 1 }, pairedItem: { item: 0 } },
		]);
	});

	it('answers 401 through the response object and starts nothing', async () => {
		const result = await callWebhook({
			node: trigger,
			nodeType: new TestTrigger(),
			credentials,
			request: deliver('{"id":"e2"}', { 'X-Token': 'wrong' }),
		});

		expect(result.response).toEqual({ noWebhookResponse: true });
		expect(result.status).toBe(401);
		expect(result.responseBody).toEqual({ message: 'Invalid token' });
		expect(result.staticData).toEqual({});
	});

	it('parses form-urlencoded bodies into fields and refuses malformed JSON with 422', async () => {
		const form = await callWebhook({
			node: trigger,
			nodeType: new TestTrigger(),
			credentials,
			request: deliver('id=e3&text=a+b', { 'Content-Type': 'application/x-www-form-urlencoded' }),
		});
		expect(form.response.workflowData?.[0][0].json).toMatchObject({ id: 'e3', text: 'a b' });

		const malformed = await callWebhook({
			node: trigger,
			nodeType: new TestTrigger(),
			credentials,
			request: deliver('{"id":'),
		});
		expect(malformed.status).toBe(422);
		expect(malformed.response.workflowData).toBeUndefined();
	});
});
