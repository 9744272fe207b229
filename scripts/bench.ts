/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The engine part of npm run bench (its real-n8n part is scripts/e2e-bench.js --plain-loop-only):
 * Return All of 20,000 users from the sandbox, on every page style that declares a count, and of
 * 2,000 users from Support Board's Web API (the sandbox's Support Board mode, each call answered 20 ms
 * late, and with SUPPORT_CHAT_TESTBED the real product on this machine), measured against the
 * plainest loop a node can write with n8n's own request helper (scripts/plainLoop:
 * `httpRequestWithAuthentication` per page, nothing else), in the same run:
 *  (b) that plain loop, one page after another;
 *  (a) our node in n8n's engine, sequential and with Pagination Concurrency 4;
 *  (c) on the page style only, a bare keep-alive HTTP loop: the ceiling for any client;
 *  (d) on the styles of the goal, the plain loop taking each body as a stream and parsing it, nothing
 *      else: what any node pays to bound an answer's size through n8n's helper, which reads the whole
 *      answer first in every other mode. The node's own work is the distance from (d) to (a).
 * Each measurement runs in its own child process (so its peak memory is its own) against a sandbox
 * in another process (so the server does not share the client's event loop). Rounds alternate the
 * order of the variants; each round gives a ratio (a)/(b), and the median of those ratios counts.
 * Absolute times are printed for orientation only: they are never compared across runs.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { GOAL, GOAL_STYLES as GOAL_STYLE_LIST, READ_AHEAD_GOAL } from './benchGoal';

const USERS = Number(process.env.BENCH_USERS ?? 20_000);
const PAGE_SIZE = 100;
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 5));
const TOKEN = 'bench-token';

/**
 * The sandbox's page styles measured. What each declares (sandbox/pagination.js) and whether the node
 * can plan the remaining pages from it, which is what Pagination Concurrency needs:
 *  - page: total_pages; planned by page number.
 *  - offset: total; planned by offset.
 *  - link: a Link rel="last" beside rel="next"; planned when the two differ only in the page parameter.
 *  - next-url: last_page and total beside next_page_url (Laravel); the next link outranks page numbers,
 *    so the node follows it page after page and holds the list to last_page, with no plan.
 *  - support-board: Support Board's get-users, 100 rows a page, no count at all: with concurrency the
 *    node reads pages ahead by number and stops at the first short one.
 *  - support-board-testbed (with SUPPORT_CHAT_TESTBED): the same against the real product.
 */
const TESTBED = process.env.SUPPORT_CHAT_TESTBED ?? '';
const STYLES = (
	process.env.BENCH_STYLES ??
	`page,offset,link,next-url,support-board${TESTBED ? ',support-board-testbed' : ''}`
).split(',');

const GOAL_STYLES: ReadonlySet<string> = new Set(GOAL_STYLE_LIST);

interface Measure {
	items: number;
	ms: number;
	/** The client process's CPU time (user and system) over the same span: near `ms` when it is CPU-bound. */
	cpuMs: number;
	maxRssMb: number;
}

/**
 * BENCH_BEFORE=<dir>: a copy of .tmp/tools compiled from earlier code; its node runs in the same
 * rounds, measured by this build's worker, so that before and after are ratios from one run.
 */
const BEFORE = process.env.BENCH_BEFORE ? path.resolve(process.env.BENCH_BEFORE) : undefined;
const NODE_VARIANTS = ['node', 'node-c4', ...(BEFORE ? ['before:node', 'before:node-c4'] : [])];

const SANDBOX_CLI = path.resolve(__dirname, '../../../sandbox/cli.js');

/** Support Board's own pages (100 rows, no count) as one more row: the sandbox's Support Board mode. */
const SUPPORT_BOARD = 'support-board';
/** The same rows from the test bed: the real product, whatever users it has. */
const SUPPORT_BOARD_TESTBED = 'support-board-testbed';
/** A fresh Support Board install lists its admin and an agent beside the seeded users. */
const SUPPORT_BOARD_STAFF = 2;
/**
 * Fewer users than the REST rows: the sandbox sorts every user for each page, as the product's SQL
 * does, and at 20,000 that work, done in one process, would hide what requests in flight together
 * gain. A multiple of 100, so that both loops end on the same empty page.
 */
const SB_USERS = Number(process.env.BENCH_SB_USERS ?? 2_000);
/** Each Web API call of the sandbox answers this late: an install across a network, not on loopback. */
const SB_LATENCY_MS = Number(process.env.BENCH_SB_LATENCY_MS ?? 20);

/** The records a style's list holds, when known before it is read (the test bed's are not). */
const expectedItems = (style: string): number | undefined =>
	style === SUPPORT_BOARD ? SB_USERS : style === SUPPORT_BOARD_TESTBED ? undefined : USERS;

function testbed(): { baseUrl: string; token: string } {
	const env = JSON.parse(readFileSync(TESTBED, 'utf8')) as { base: string; adminToken: string };
	return { baseUrl: env.base, token: env.adminToken };
}

async function startSandboxProcess(
	pagination: string,
): Promise<{ baseUrl: string; token: string; stop: () => void }> {
	if (pagination === SUPPORT_BOARD_TESTBED) return { ...testbed(), stop: () => undefined };
	const mode =
		pagination === SUPPORT_BOARD
			? [
					...['--api', SUPPORT_BOARD, '--seed-users', String(SB_USERS - SUPPORT_BOARD_STAFF)],
					...['--sb-latency-ms', String(SB_LATENCY_MS)],
				]
			: ['--pagination', pagination, '--seed-users', String(USERS)];
	const child = spawn(
		process.execPath,
		[
			SANDBOX_CLI,
			'--port',
			'0',
			'--token',
			TOKEN,
			...mode,
			'--seed-conversations',
			'0',
			'--max-page-size',
			String(PAGE_SIZE),
			'--no-log',
		],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const baseUrl = await new Promise<string>((resolve, reject) => {
		let out = '';
		child.stdout.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			if (out.includes('\n')) resolve(out.split('\n')[0].trim());
		});
		child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
	});
	return { baseUrl, token: TOKEN, stop: () => child.kill() };
}

function runVariant(key: string, style: string, baseUrl: string, token: string): Measure {
	const before = key.startsWith('before:');
	const variant = before ? key.slice('before:'.length) : key;
	const out = execFileSync(
		process.execPath,
		[
			path.resolve(__dirname, 'benchWorker.js'),
			variant,
			style === SUPPORT_BOARD_TESTBED ? SUPPORT_BOARD : style,
			baseUrl,
			String(PAGE_SIZE),
		],
		{
			encoding: 'utf8',
			// The token goes by the environment: a process's arguments are there for anyone to list.
			env: {
				...process.env,
				N8N_LOG_LEVEL: 'silent',
				BENCH_TOKEN: token,
				...(before ? { BENCH_CODE_DIR: BEFORE! } : {}),
			},
			maxBuffer: 1 << 20,
		},
	);
	const measure = JSON.parse(out.trim().split('\n').pop()!) as Measure;
	const expected = expectedItems(style);
	if (expected !== undefined && measure.items !== expected)
		throw new Error(`${variant} on ${style} returned ${measure.items} items, expected ${expected}`);
	return measure;
}

const median = (values: number[]) =>
	[...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
const rate = (m: Measure) => (m.items / m.ms) * 1000;

interface Row {
	style: string;
	helperRate: number;
	ratios: Record<string, number>;
	rates: Record<string, number>;
	/** Median share of the measured time the client's CPU was busy, per variant. */
	busy: Record<string, number>;
	fetchRatio?: number;
	rss: number;
	/** The record counts the variants returned. */
	items: number[];
}

async function benchStyle(style: string): Promise<Row> {
	const sandbox = await startSandboxProcess(style);
	try {
		const variants = [
			'helper',
			...NODE_VARIANTS,
			...(GOAL_STYLES.has(style) ? ['helper-stream'] : []),
			...(style === 'page' ? ['fetch'] : []),
		];
		const ratios = new Map<string, number[]>(variants.map((v) => [v, []]));
		const rates = new Map<string, number[]>(variants.map((v) => [v, []]));
		const busy = new Map<string, number[]>(variants.map((v) => [v, []]));
		let rss = 0;
		// The test bed's count is known only from what the variants return (others may add users meanwhile).
		const items = new Set<number>();
		// Round 0 warms the sandbox and the disk cache and is not counted.
		for (let round = 0; round <= ROUNDS; round++) {
			const order = round % 2 === 0 ? variants : [...variants].reverse();
			const measured = new Map(
				order.map((v) => [v, runVariant(v, style, sandbox.baseUrl, sandbox.token)]),
			);
			for (const m of measured.values()) items.add(m.items);
			if (round === 0) continue;
			const helper = rate(measured.get('helper')!);
			for (const [v, m] of measured) {
				ratios.get(v)!.push(rate(m) / helper);
				rates.get(v)!.push(rate(m));
				if (typeof m.cpuMs === 'number') busy.get(v)!.push(m.cpuMs / m.ms);
				if (v !== 'fetch') rss = Math.max(rss, m.maxRssMb);
			}
		}
		const medianOf = (map: Map<string, number[]>) =>
			Object.fromEntries(
				[...map].filter(([, list]) => list.length > 0).map(([v, list]) => [v, median(list)]),
			);
		const r = medianOf(ratios);
		return {
			style,
			helperRate: median(rates.get('helper')!),
			ratios: r,
			rates: medianOf(rates),
			busy: medianOf(busy),
			fetchRatio: r.fetch,
			rss,
			items: [...items].sort((x, y) => x - y),
		};
	} finally {
		sandbox.stop();
	}
}

/** Whether a ratio meets the goal on a row it applies to: what the last column shows. */
function goalCell(row: Row): string {
	if (row.style === SUPPORT_BOARD) {
		const c4 = row.ratios['node-c4'];
		return `read ahead: concurrency ${c4 !== undefined && c4 >= READ_AHEAD_GOAL ? 'met' : 'NOT met'} (≥ ${READ_AHEAD_GOAL.toFixed(1)}×)`;
	}
	if (row.style === SUPPORT_BOARD_TESTBED)
		return `read ahead: as measured (${row.items.join(', ')} users)`;
	if (!GOAL_STYLES.has(row.style)) return 'not in scope (no plan from a count)';
	const met = (value: number | undefined, floor: number) =>
		value !== undefined && value >= floor ? 'met' : 'NOT met';
	return `sequential ${met(row.ratios.node, GOAL.sequential)}, concurrency ${met(row.ratios['node-c4'], GOAL.concurrent)}`;
}

async function main() {
	const rows: Row[] = [];
	const loadBefore = os.loadavg()[0];
	for (const style of STYLES) rows.push(await benchStyle(style));
	const load = `load average ${loadBefore.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end, ${os.cpus().length} CPUs`;
	console.log(
		`Return All of ${USERS} users (Support Board: ${SB_USERS}, each call ${SB_LATENCY_MS} ms late), pages of ${PAGE_SIZE}; median of ${ROUNDS} alternating rounds of ratios to (b) (node ${process.version}; ${load})\n`,
	);
	const cell = (value: number | undefined, width: number) =>
		value === undefined ? ''.padStart(width + 1) : `${value.toFixed(2).padStart(width)}×`;
	const pct = (value: number | undefined) =>
		value === undefined ? '' : `${Math.round(value * 100)}%`;
	console.log(
		`page style   (b) items/s   (a) sequential   (a) concurrency 4${BEFORE ? '   before: sequential   before: concurrency 4' : ''}   (d) stream loop   client CPU busy (seq / c4)   peak RSS   goal (≥ ${GOAL.sequential.toFixed(1)}× / ≥ ${GOAL.concurrent.toFixed(1)}×)`,
	);
	for (const row of rows) {
		const before = BEFORE
			? `   ${cell(row.ratios['before:node'], 17)}   ${cell(row.ratios['before:node-c4'], 20)}`
			: '';
		const busy = `${pct(row.busy.node)} / ${pct(row.busy['node-c4'])}`.padStart(26);
		console.log(
			`${row.style.padEnd(12)} ${Math.round(row.helperRate).toString().padStart(11)}   ${cell(row.ratios.node, 14)}   ${cell(row.ratios['node-c4'], 17)}${before}   ${cell(row.ratios['helper-stream'], 14)}   ${busy}   ${row.rss.toFixed(0).padStart(5)} MB   ${goalCell(row)}`,
		);
	}
	const page = rows.find((row) => row.fetchRatio !== undefined);
	if (page)
		console.log(
			`\n(c) a bare keep-alive HTTP loop on the page style: ${page.fetchRatio!.toFixed(2)}× (b)`,
		);
	console.log(
		`The goal applies to ${[...GOAL_STYLES].join(', ')}: the styles whose count the node plans the remaining pages from.`,
	);
	console.log(
		"(d) the plain loop taking each body as a stream, as the node must to bound its size (n8n's helper reads the whole answer first in every other mode), and nothing else: the node's own work is the distance from (d) to (a).",
	);
	if (rows.some((row) => row.style === 'next-url')) {
		console.log(
			'next-url: declares last_page and total, but the node follows next_page_url page after page (held to last_page): concurrency has no plan to use.',
		);
	}
	if (rows.some((row) => row.style.startsWith(SUPPORT_BOARD))) {
		console.log(
			"support-board: Support Board's Web API (get-users, 100 rows a page, no count): with concurrency the node reads pages ahead by number and stops at the first short one; the plain loop reads one page after another to the empty one.",
		);
	}
	console.log(
		"Client CPU busy: the node process's CPU time over its measured time; near 100% with concurrency, the client itself is the limit.",
	);
	console.log(
		"These rows run n8n's engine with the test helpers' credentials, kept decrypted in memory. There n8n's request helper finds " +
			'them for free; in n8n it reads them from the database and decrypts them for every request. The node reads them once ' +
			'and hands them to each request, the plain loop does not: `npm run bench` goes on to measure both in a real n8n.',
	);
}

if (require.main === module) {
	// Compile-time check that the worker exists next to this file in the build output.
	execFileSync(process.execPath, [
		'-e',
		`require.resolve(${JSON.stringify(path.resolve(__dirname, 'benchWorker.js'))})`,
	]);
	main().catch((error) => {
		console.error(error);
		process.exitCode = 1;
	});
}
