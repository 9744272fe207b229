/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; README › Development › Lint */
/** One measured variant of scripts/bench.ts, in a process of its own; prints one JSON line. */
import http from 'node:http';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { SupportChatApi } from '../credentials/SupportChatApi.credentials';
import { SupportChat } from '../nodes/SupportChat/SupportChat.node';
import { runNode } from '../test/helpers/engine';

const [variant, baseUrl, token, pageSizeText] = process.argv.slice(2);
const pageSize = Number(pageSizeText);

/** The plainest Return All a node can write with n8n's helper: page after page until an empty one. */
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
		const out: INodeExecutionData[] = [];
		for (let page = 1; ; page++) {
			const body = (await this.helpers.httpRequestWithAuthentication.call(this, 'supportChatApi', {
				method: 'GET',
				url: `${baseUrl}/users`,
				qs: { page, per_page: pageSize },
				json: true,
			})) as { users: IDataObject[] };
			if (body.users.length === 0) break;
			for (const user of body.users) out.push({ json: user, pairedItem: { item: 0 } });
		}
		return [out];
	}
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

async function viaEngine(nodeType: INodeType, parameters: IDataObject): Promise<number> {
	const run = await runNode({
		node: { name: 'Bench', type: 'bench.node', parameters: parameters as never },
		nodeTypes: { 'bench.node': nodeType },
		credentials: { types: [new SupportChatApi()], data: { supportChatApi: { baseUrl, apiToken: token } } },
	});
	if (run.status !== 'success') throw new Error(JSON.stringify(run.error('Bench')));
	return run.output('Bench').length;
}

async function main() {
	const started = performance.now();
	let items: number;
	const nodeParams = { resource: 'user', operation: 'getAll', returnAll: true, options: { pageSize } };
	if (variant === 'fetch') items = await viaFetch();
	else if (variant === 'helper') items = await viaEngine(new PlainLoop(), {});
	else if (variant === 'node') items = await viaEngine(new SupportChat(), nodeParams);
	else if (variant === 'node-c4') items = await viaEngine(new SupportChat(), { ...nodeParams, options: { pageSize, concurrency: 4 } });
	else throw new Error(`unknown variant ${variant}`);
	const ms = performance.now() - started;
	const maxRssMb = process.resourceUsage().maxRSS / 1024;
	process.stdout.write(`${JSON.stringify({ items, ms, maxRssMb })}\n`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
