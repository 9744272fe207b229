/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * One measured variant of scripts/bench.ts, in a process of its own; prints one JSON line.
 * Usage: BENCH_TOKEN=<token> benchWorker <variant> <style> <baseUrl> <pageSize>
 * The time counted is the node's own execute() in n8n's engine, after one warm-up run of the same
 * variant in this process: workflow setup and the JIT's first pass are the same for every variant
 * and would only blur the ratio.
 */
import http from 'node:http';

import type { IDataObject, IExecuteFunctions, INodeType } from 'n8n-workflow';

import { SupportChatApi } from '../credentials/SupportChatApi.credentials';
import { SupportChat } from '../nodes/SupportChat/SupportChat.node';
import { runNode } from '../test/helpers/engine';
import { PlainLoop } from './plainLoop/PlainLoop.node';

const [variant, style, baseUrl, pageSizeText] = process.argv.slice(2);
const token = process.env.BENCH_TOKEN ?? '';
const pageSize = Number(pageSizeText);

async function viaFetch(): Promise<number> {
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	let count = 0;
	for (let page = 1; ; page++) {
		const body = await new Promise<{ users: unknown[] }>((resolve, reject) => {
			http
				.get(
					`${baseUrl}/users?page=${page}&per_page=${pageSize}`,
					{ agent, headers: { Authorization: `Bearer ${token}` } },
					(res) => {
						const chunks: Buffer[] = [];
						res.on('data', (c: Buffer) => chunks.push(c));
						res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
					},
				)
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

async function viaEngine(
	nodeType: INodeType,
	parameters: IDataObject,
	clock: Clock,
): Promise<number> {
	const credentials =
		style === 'support-board'
			? { baseUrl, apiToken: token, api: 'supportBoard' }
			: { baseUrl, apiToken: token };
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
	const nodeParams = {
		resource: 'user',
		operation: 'getAll',
		returnAll: true,
		options: { pageSize },
	};
	if (variant === 'fetch') {
		const started = performance.now();
		const cpu = process.cpuUsage();
		const items = await viaFetch();
		const { user, system } = process.cpuUsage(cpu);
		return { items, ms: performance.now() - started, cpuMs: (user + system) / 1000 };
	}
	let items: number;
	if (variant === 'helper')
		items = await viaEngine(
			new PlainLoop() as INodeType,
			{ style, baseUrl, pageSize, token },
			clock,
		);
	else if (variant === 'node') items = await viaEngine(new SupportChat(), nodeParams, clock);
	else if (variant === 'node-c4')
		items = await viaEngine(
			new SupportChat(),
			{ ...nodeParams, options: { pageSize, concurrency: 4 } },
			clock,
		);
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
