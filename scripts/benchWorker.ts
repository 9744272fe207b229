/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * One measured variant of scripts/bench.ts, in a process of its own; prints one JSON line.
 * Usage: BENCH_TOKEN=<token> [BENCH_CODE_DIR=<dir>] benchWorker <variant> <style> <baseUrl> <pageSize>
 * The time counted is the node's own execute() in n8n's engine: the median of MEASURED_RUNS runs of
 * the same variant in this process, after WARM_UP_RUNS. Workflow setup and the JIT's first passes
 * are the same for every variant and would only blur the ratio, and a single run after one warm-up
 * varied by a fifth from one process to the next.
 * BENCH_CODE_DIR: a copy of .tmp/tools compiled from earlier code (scripts/bench.ts's BENCH_BEFORE),
 * whose node is measured by this worker, beside this build's plain loop and credentials: before and
 * after are measured the same way.
 */
import http from 'node:http';
import path from 'node:path';

import type { IDataObject, IExecuteFunctions, INodeType } from 'n8n-workflow';

import { SupportChatApi } from '../credentials/SupportChatApi.credentials';
import type * as NodeModule from '../nodes/SupportChat/SupportChat.node';
import { runNode } from '../test/helpers/engine';
import { PlainLoop } from './plainLoop/PlainLoop.node';

const WARM_UP_RUNS = 2;
const MEASURED_RUNS = 3;

const { SupportChat } = require(
	path.join(
		process.env.BENCH_CODE_DIR ?? path.resolve(__dirname, '..'),
		'nodes/SupportChat/SupportChat.node',
	),
) as typeof NodeModule;

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
	if (variant === 'helper' || variant === 'helper-stream')
		items = await viaEngine(
			new PlainLoop() as INodeType,
			{ style, baseUrl, pageSize, token, stream: variant === 'helper-stream' },
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
	for (let run = 0; run < WARM_UP_RUNS; run++) await measure();
	const runs: Array<{ items: number; ms: number; cpuMs: number }> = [];
	for (let run = 0; run < MEASURED_RUNS; run++) runs.push(await measure());
	const { items, ms, cpuMs } = runs.sort((a, b) => a.ms - b.ms)[Math.floor(MEASURED_RUNS / 2)];
	const maxRssMb = process.resourceUsage().maxRSS / 1024;
	process.stdout.write(`${JSON.stringify({ items, ms, cpuMs, maxRssMb })}\n`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
