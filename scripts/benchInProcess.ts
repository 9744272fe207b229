/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * A steadier engine measure than scripts/bench.ts's one process per measurement: the plain loop, this
 * build's node and, with BENCH_BEFORE=<dir> (a copy of .tmp/tools compiled from earlier code), the
 * earlier node, all in one process, sequential Return All of 20,000 users, alternating for
 * BENCH_ROUNDS rounds (24 by default) after two warm-up runs each. Prints the median time of each and
 * the plain loop's median over each node's. One page style (BENCH_STYLE, `page` by default).
 * Usage: npx tsc -p tsconfig.tools.json && node .tmp/tools/scripts/benchInProcess.js
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

import type { IDataObject, IExecuteFunctions, INodeType } from 'n8n-workflow';

import { SupportChatApi } from '../credentials/SupportChatApi.credentials';
import type * as NodeModule from '../nodes/SupportChat/SupportChat.node';
import { runNode } from '../test/helpers/engine';
import { PlainLoop } from './plainLoop/PlainLoop.node';

const STYLE = process.env.BENCH_STYLE ?? 'page';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 24);
const USERS = 20_000;
const PAGE_SIZE = 100;
const TOKEN = 'bench-token';

const nodeOf = (dir: string): INodeType =>
	new (
		require(path.join(dir, 'nodes/SupportChat/SupportChat.node')) as typeof NodeModule
	).SupportChat();

async function main() {
	const sandbox = spawn(
		process.execPath,
		[
			path.resolve(__dirname, '../../../sandbox/cli.js'),
			...['--port', '0', '--token', TOKEN, '--pagination', STYLE],
			...['--seed-users', String(USERS), '--seed-conversations', '0'],
			...['--max-page-size', String(PAGE_SIZE), '--no-log'],
		],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	try {
		const baseUrl = await new Promise<string>((resolve) => {
			let out = '';
			sandbox.stdout.on('data', (chunk: Buffer) => {
				out += chunk.toString();
				if (out.includes('\n')) resolve(out.split('\n')[0].trim());
			});
		});
		const nodeParameters = {
			resource: 'user',
			operation: 'getAll',
			returnAll: true,
			options: { pageSize: PAGE_SIZE },
		};
		const variants: Array<{ name: string; type: INodeType; parameters: IDataObject }> = [
			{
				name: 'plain loop',
				type: new PlainLoop() as INodeType,
				parameters: { style: STYLE, baseUrl, pageSize: PAGE_SIZE, token: TOKEN },
			},
			{ name: 'node', type: nodeOf(path.resolve(__dirname, '..')), parameters: nodeParameters },
			...(process.env.BENCH_BEFORE
				? [
						{
							name: 'before',
							type: nodeOf(path.resolve(process.env.BENCH_BEFORE)),
							parameters: nodeParameters,
						},
					]
				: []),
		];
		let last = 0;
		const run = async (variant: (typeof variants)[number]): Promise<number> => {
			const type = variant.type;
			const timed = Object.assign(Object.create(type) as INodeType, {
				async execute(this: IExecuteFunctions) {
					const started = performance.now();
					const result = await type.execute!.call(this);
					last = performance.now() - started;
					return result;
				},
			});
			const result = await runNode({
				node: { name: 'Bench', type: 'bench.node', parameters: variant.parameters as never },
				nodeTypes: { 'bench.node': timed },
				credentials: {
					types: [new SupportChatApi()],
					data: { supportChatApi: { baseUrl, apiToken: TOKEN } },
				},
			});
			if (result.status !== 'success' || result.output('Bench').length !== USERS)
				throw new Error(`${variant.name} did not return ${USERS} users`);
			return last;
		};
		for (const variant of variants) for (let i = 0; i < 2; i++) await run(variant);
		const times = variants.map((): number[] => []);
		for (let round = 0; round < ROUNDS; round++) {
			const order = variants.map((_, index) => index);
			if (round % 2 === 1) order.reverse();
			for (const index of order) times[index].push(await run(variants[index]));
		}
		const median = (values: number[]) =>
			[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
		const plain = median(times[0]);
		console.log(
			`Return All of ${USERS} users, style ${STYLE}, ${ROUNDS} alternating rounds in one process`,
		);
		variants.forEach((variant, index) => {
			const ms = median(times[index]);
			console.log(
				`${variant.name.padEnd(10)} ${ms.toFixed(0).padStart(5)} ms   ${(plain / ms).toFixed(2)}×`,
			);
		});
	} finally {
		sandbox.kill();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
