/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; README › Development › Lint */
/**
 * npm run bench: Return All of 100,000 users from the sandbox, measured in one run as
 *  (c) a bare keep-alive fetch loop, the ceiling for any client;
 *  (b) the plainest loop a node can write with n8n's own request helper, one page after another;
 *  (a) our node in n8n's engine, sequential and with Pagination Concurrency.
 * Each variant runs in its own child process (so its peak memory is its own) against a sandbox in
 * another process (so the server does not share the client's event loop), three times, round-robin;
 * the median counts.
 * Figures are printed as items/s and as ratios to (b) and (c) measured in this same run.
 */
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const PAGE_SIZE = 100;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TOKEN = 'bench-token';

interface Measure {
	items: number;
	ms: number;
	maxRssMb: number;
}

const VARIANTS = [
	{ key: 'fetch', label: '(c) bare keep-alive fetch loop' },
	{ key: 'helper', label: '(b) plain loop with n8n helper' },
	{ key: 'node', label: '(a) our node, sequential' },
	{ key: 'node-c4', label: '(a) our node, concurrency 4' },
] as const;

async function startSandboxProcess(): Promise<{ baseUrl: string; stop: () => void }> {
	const cli = path.resolve(__dirname, '../../../sandbox/cli.js');
	const child = spawn(
		process.execPath,
		[cli, '--port', '0', '--token', TOKEN, '--pagination', 'page', '--seed-users', String(USERS), '--seed-conversations', '0', '--max-page-size', String(PAGE_SIZE), '--no-log'],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const baseUrl = await new Promise<string>((resolve, reject) => {
		let out = '';
		child.stdout.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			const line = out.split('\n')[0];
			if (out.includes('\n')) resolve(line.trim());
		});
		child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
	});
	return { baseUrl, stop: () => child.kill() };
}

function runVariant(variant: string, baseUrl: string): Measure {
	const worker = path.resolve(__dirname, 'benchWorker.js');
	const out = execFileSync(process.execPath, [worker, variant, baseUrl, TOKEN, String(PAGE_SIZE)], {
		encoding: 'utf8',
		env: { ...process.env, N8N_LOG_LEVEL: 'silent' },
		maxBuffer: 1 << 20,
	});
	return JSON.parse(out.trim().split('\n').pop()!) as Measure;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

async function main() {
	const sandbox = await startSandboxProcess();
	try {
		// Runs go round-robin, so a change in background load touches every variant alike;
		// the first round only warms up the sandbox and the disk cache.
		const runs = new Map<string, Measure[]>(VARIANTS.map((v) => [v.key, []]));
		for (let round = 0; round <= RUNS; round++) {
			for (const variant of VARIANTS) {
				const measure = runVariant(variant.key, sandbox.baseUrl);
				if (measure.items !== USERS) {
					throw new Error(`${variant.label} returned ${measure.items} items, expected ${USERS}`);
				}
				if (round > 0) runs.get(variant.key)!.push(measure);
			}
		}
		const results = new Map(
			[...runs].map(([key, list]) => [
				key,
				{ rate: median(list.map((r) => (r.items / r.ms) * 1000)), rss: Math.max(...list.map((r) => r.maxRssMb)) },
			]),
		);
		const fetchRate = results.get('fetch')!.rate;
		const helperRate = results.get('helper')!.rate;
		console.log(`Return All of ${USERS} users, pages of ${PAGE_SIZE}, median of ${RUNS} runs (node ${process.version})\n`);
		console.log('variant                              items/s   vs (b)   vs (c)   peak RSS');
		for (const variant of VARIANTS) {
			const r = results.get(variant.key)!;
			console.log(
				`${variant.label.padEnd(36)} ${Math.round(r.rate).toString().padStart(8)}   ${(r.rate / helperRate).toFixed(2).padStart(6)}   ${(r.rate / fetchRate).toFixed(2).padStart(6)}   ${r.rss.toFixed(0).padStart(5)} MB`,
			);
		}
	} finally {
		sandbox.stop();
	}
}

if (require.main === module) {
	// Compile-time check that the worker exists next to this file in the build output.
	execFileSync(process.execPath, ['-e', `require.resolve(${JSON.stringify(path.resolve(__dirname, 'benchWorker.js'))})`]);
	main().catch((error) => {
		console.error(error);
		process.exitCode = 1;
	});
}
