/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; README › Development › Lint */
/**
 * One measured variant of scripts/bench.ts, in a process of its own; prints one JSON line.
 * Usage: benchWorker <variant> <style> <baseUrl> <token> <pageSize>
 * The time counted is the node's own execute() in n8n's engine, after one warm-up run of the same
 * variant in this process: workflow setup and the JIT's first pass are the same for every variant
 * and would only blur the ratio.
 */
import http from 'node:http';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { SupportChatApi } from '../credentials/SupportChatApi.credentials';
import { SupportChat } from '../nodes/SupportChat/SupportChat.node';
import { runNode } from '../test/helpers/engine';

const [variant, style, baseUrl, token, pageSizeText] = process.argv.slice(2);
const pageSize = Number(pageSizeText);

/** How the plainest loop reads each sandbox style: where the records are and which parameter pages. */
const PLAIN: Record<string, { records: (body: any) => IDataObject[]; query: (page: number) => IDataObject }> = {
	page: { records: (body) => body.users, query: (page) => ({ page, per_page: pageSize }) },
	'next-url': { records: (body) => body.data, query: (page) => ({ page, per_page: pageSize }) },
	link: { records: (body) => body, query: (page) => ({ page, per_page: pageSize }) },
	offset: { records: (body) => body.items, query: (page) => ({ offset: (page - 1) * pageSize, limit: pageSize }) },
};

/**
 * The plainest Return All a node can write with n8n's helper: `httpRequestWithAuthentication` per
 * page, page after page until an empty one, nothing else.
 */
class PlainLoop implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Plain Loop',
		name: 'plainLoop',
		group: ['transform'],
		version: 1,
		description: 'Benchmark baseline',
		defaults: { name: 'Plain Loop' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'supportChatApi', required: true }],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		if (style === 'support-board') return [await supportBoardLoop(this)];
		const plain = PLAIN[style];
		if (!plain) throw new Error(`no plain loop for style ${style}`);
		const out: INodeExecutionData[] = [];
		for (let page = 1; ; page++) {
			const body = await this.helpers.httpRequestWithAuthentication.call(this, 'supportChatApi', {
				method: 'GET',
				url: `${baseUrl}/users`,
				qs: plain.query(page),
				json: true,
			});
			const users = plain.records(body);
			if (users.length === 0) break;
			for (const user of users) out.push({ json: user, pairedItem: { item: 0 } });
		}
		return [out];
	}
}

/** The same plain loop over Support Board's Web API: get-users by its 0-based page index, 100 rows a page. */
async function supportBoardLoop(ctx: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	for (let page = 0; ; page++) {
		const body = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'supportChatApi', {
			method: 'POST',
			url: `${baseUrl}/include/api.php`,
			body: { function: 'get-users', token, pagination: page },
			json: true,
		})) as { response: IDataObject[] };
		if (body.response.length === 0) break;
		for (const user of body.response) out.push({ json: user, pairedItem: { item: 0 } });
	}
	return out;
}

async function viaFetch(): Promise<number> {
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	let count = 0;
	for (let page = 1; ; page++) {
		const body = await new Promise<{ users: unknown[] }>((resolve, reject) => {
			http
				.get(`${baseUrl}/users?page=${page}&per_page=${pageSize}`, { agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
					const chunks: Buffer[] = [];
					res.on('data', (c: Buffer) => chunks.push(c));
					res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
				})
				.on('error', reject);
		});
		if (body.users.length === 0) break;
		count += body.users.length;
	}
	agent.destroy();
	return count;
}

/** The node type with its execute() timed; the description and everything else are the node's own. */
interface Clock {
	ms: number;
	/** The process's CPU time (user and system) over the same span. */
	cpuMs: number;
}

function timed(nodeType: INodeType, clock: Clock): INodeType {
	return Object.assign(Object.create(nodeType) as INodeType, {
		async execute(this: IExecuteFunctions) {
			const started = performance.now();
			const cpu = process.cpuUsage();
			const result = await nodeType.execute!.call(this);
			clock.ms = performance.now() - started;
			const { user, system } = process.cpuUsage(cpu);
			clock.cpuMs = (user + system) / 1000;
			return result;
		},
	});
}

async function viaEngine(nodeType: INodeType, parameters: IDataObject, clock: Clock): Promise<number> {
	const credentials = style === 'support-board' ? { baseUrl, apiToken: token, api: 'supportBoard' } : { baseUrl, apiToken: token };
	const run = await runNode({
		node: { name: 'Bench', type: 'bench.node', parameters: parameters as never },
		nodeTypes: { 'bench.node': timed(nodeType, clock) },
		credentials: { types: [new SupportChatApi()], data: { supportChatApi: credentials } },
	});
	if (run.status !== 'success') throw new Error(JSON.stringify(run.error('Bench')));
	return run.output('Bench').length;
}

async function measure(): Promise<{ items: number; ms: number; cpuMs: number }> {
	const clock: Clock = { ms: 0, cpuMs: 0 };
	const nodeParams = { resource: 'user', operation: 'getAll', returnAll: true, options: { pageSize } };
	if (variant === 'fetch') {
		const started = performance.now();
		const cpu = process.cpuUsage();
		const items = await viaFetch();
		const { user, system } = process.cpuUsage(cpu);
		return { items, ms: performance.now() - started, cpuMs: (user + system) / 1000 };
	}
	let items: number;
	if (variant === 'helper') items = await viaEngine(new PlainLoop(), {}, clock);
	else if (variant === 'node') items = await viaEngine(new SupportChat(), nodeParams, clock);
	else if (variant === 'node-c4') items = await viaEngine(new SupportChat(), { ...nodeParams, options: { pageSize, concurrency: 4 } }, clock);
	else throw new Error(`unknown variant ${variant}`);
	return { items, ms: clock.ms, cpuMs: clock.cpuMs };
}

async function main() {
	await measure();
	const { items, ms, cpuMs } = await measure();
	const maxRssMb = process.resourceUsage().maxRSS / 1024;
	process.stdout.write(`${JSON.stringify({ items, ms, cpuMs, maxRssMb })}\n`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
