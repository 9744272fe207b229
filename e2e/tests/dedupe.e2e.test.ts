/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import fs from 'node:fs';

import { request, startN8n, type Execution, type N8nInstance } from '../harness';
import {
	deployWorkflow,
	lastExecutionId,
	readWorkflow,
	resignDelivery,
	sendTogether,
	settledExecutions,
	signedLeadDelivery,
	SANDBOX_TOKEN,
	type SignedDelivery,
	type TogetherAnswer,
} from '../support';
import { startSandbox, type Sandbox } from '../../sandbox';

/*
 * Duplicates under concurrency, in a real n8n (issue 8, class 10). Senders retry, and a delivery can
 * reach n8n several times at the same moment (a retry racing a slow first attempt, a sender that posts
 * twice). n8n hands every request its own copy of the trigger's static data, loaded from the database
 * and saved back last-write-wins, so a check-and-record there alone lets concurrent copies all pass.
 *
 * - Regular mode (one process): N identical signed deliveries released together start exactly one
 *   run, the others are answered 200 "duplicate delivery"; A and B together, then a retry of each:
 *   the retries start nothing.
 * - Queue mode with two `n8n webhook` processes: nothing locks across processes (the static data is
 *   shared through the database only), so what is promised is at most one run per webhook process
 *   that received a copy, and exactly one when every copy reaches the same process. The measured
 *   distribution is printed (and written as JSON to $SUPPORT_CHAT_E2E_DEDUPE_REPORT when set).
 *
 * Workflow: e2e/fixtures/dedupe.workflow.json (the trigger, Standard Webhooks, then a No Op).
 * $SUPPORT_CHAT_E2E_DEDUPE_TRIALS raises the number of trials of each kind (for measuring).
 */

const COPIES = 20;
const EXTRA_TRIALS = Math.max(
	0,
	Math.floor(Number(process.env.SUPPORT_CHAT_E2E_DEDUPE_TRIALS) || 0),
);
// Lean for CI (each trial is a few seconds of n8n under load); the split is measured over 10 at least.
const REGULAR_TRIALS = Math.max(3, EXTRA_TRIALS);
const PAIR_TRIALS = Math.max(3, Math.ceil(EXTRA_TRIALS / 2));
const QUEUE_SINGLE_TRIALS = Math.max(2, EXTRA_TRIALS);
const QUEUE_SPLIT_TRIALS = Math.max(10, EXTRA_TRIALS);

const TRIGGER = 'Delivery';
const RAN = { received: true };
const DUPLICATE = { received: true, ignored: 'duplicate delivery' };

type Outcome = 'ran' | 'duplicate' | 'other';

interface Trial {
	id: string;
	/** Copies sent to each webhook base URL, in the order of the instance's webhookBaseUrls. */
	copies: number[];
	/** Answers that said the delivery started a run, per webhook base URL. */
	ranAnswers: number[];
	duplicates: number;
	/** Answers that were neither (status and text), to be shown when an assertion fails. */
	others: string[];
	/** Executions the copies started, from the executions API. */
	runs: Execution[];
	/** Delivery ids the runs' trigger items carry. */
	runDeliveryIds: string[];
	/** From the release of the copies to the last answer. */
	answeredMs: number;
	/** From the last answer until the executions had settled (includes the quiet period). */
	settledMs: number;
}

const figures: Record<string, unknown> = { copies: COPIES };

function outcome(answer: TogetherAnswer): Outcome {
	if (answer.status !== 200) return 'other';
	try {
		const body: unknown = JSON.parse(answer.text);
		if (JSON.stringify(body) === JSON.stringify(RAN)) return 'ran';
		if (JSON.stringify(body) === JSON.stringify(DUPLICATE)) return 'duplicate';
	} catch {
		// Not JSON.
	}
	return 'other';
}

function triggerDeliveryId(execution: Execution): unknown {
	return execution.data?.resultData?.runData?.[TRIGGER]?.[0]?.data?.main?.[0]?.[0]?.json
		?.deliveryId;
}

/**
 * Sends `copies[i]` identical copies of one fresh delivery to `baseUrls[i]`'s production URL, all
 * released together (interleaved across the URLs), and counts the runs they started.
 */
async function trial(
	n8n: N8nInstance,
	workflowId: string,
	triggerPath: string,
	baseUrls: string[],
	copies: number[],
): Promise<Trial> {
	const afterId = await lastExecutionId(n8n, workflowId);
	const delivery = signedLeadDelivery();
	const targets: number[] = [];
	for (let round = 0; targets.length < copies.reduce((a, b) => a + b, 0); round++) {
		copies.forEach((count, index) => {
			if (round < count) targets.push(index);
		});
	}
	const { answers } = await sendTogether(
		targets.map((index) => ({
			url: `${baseUrls[index]}/webhook/${triggerPath}`,
			headers: delivery.headers,
			body: delivery.body,
		})),
	);
	const answeredAt = Date.now();
	const ranAnswers = baseUrls.map(() => 0);
	let duplicates = 0;
	const others: string[] = [];
	answers.forEach((answer, i) => {
		const kind = outcome(answer);
		if (kind === 'ran') ranAnswers[targets[i]] += 1;
		else if (kind === 'duplicate') duplicates += 1;
		else others.push(`${answer.status} ${answer.text.slice(0, 200)}`);
	});
	// Every run is announced by its answer; waiting for that many keeps a slow queue from hiding one.
	const minCount = ranAnswers.reduce((a, b) => a + b, 0);
	const runs = await settledExecutions(n8n, workflowId, {
		afterId,
		minCount,
		quietMs: 1200,
		timeoutMs: 90_000,
	});
	const settledMs = Date.now() - answeredAt;
	const withData = await Promise.all(runs.map(async (run) => await n8n.execution(run.id)));
	return {
		id: delivery.id,
		copies,
		ranAnswers,
		duplicates,
		others,
		runs: withData,
		runDeliveryIds: withData.map((run) => String(triggerDeliveryId(run))),
		answeredMs: Math.max(...answers.map((a) => a.ms)),
		settledMs,
	};
}

/** "1 run ×7, 2 runs ×3" */
function distribution(trials: Trial[]): string {
	const counts = new Map<number, number>();
	for (const t of trials) counts.set(t.runs.length, (counts.get(t.runs.length) ?? 0) + 1);
	return [...counts.entries()]
		.sort(([a], [b]) => a - b)
		.map(([runs, times]) => `${runs} run${runs === 1 ? '' : 's'} ×${times}`)
		.join(', ');
}

function summarise(key: string, label: string, trials: Trial[]): void {
	const line =
		`${label}, ${trials.length} trials: ${distribution(trials)} ` +
		`(runs per trial ${trials.map((t) => t.runs.length).join(' ')}; answered within ` +
		`${Math.min(...trials.map((t) => t.answeredMs))}-${Math.max(...trials.map((t) => t.answeredMs))} ms of the release)`;
	process.stderr.write(`[e2e] dedupe: ${line}\n`);
	figures[key] = {
		label,
		summary: line,
		trials: trials.map((t) => ({
			id: t.id,
			copies: t.copies,
			runs: t.runs.length,
			ranAnswers: t.ranAnswers,
			duplicates: t.duplicates,
			others: t.others.length,
			answeredMs: t.answeredMs,
			settledMs: t.settledMs,
		})),
	};
}

/** What holds in every trial, fixed or not: each copy is answered, and every run is one that an answer announced. */
function expectConsistent(trials: Trial[]): void {
	for (const t of trials) {
		expect(t.others).toEqual([]);
		expect(t.ranAnswers.reduce((a, b) => a + b, 0) + t.duplicates).toBe(
			t.copies.reduce((a, b) => a + b, 0),
		);
		expect(t.runs.length).toBe(t.ranAnswers.reduce((a, b) => a + b, 0));
		expect(t.runDeliveryIds).toEqual(t.runs.map(() => t.id));
		for (const run of t.runs) expect(run).toMatchObject({ status: 'success', mode: 'webhook' });
	}
}

let sandbox: Sandbox;

beforeAll(async () => {
	// Only the credentials' base URL points at it: the workflow never calls the service.
	sandbox = await startSandbox({ token: SANDBOX_TOKEN });
});

afterAll(async () => {
	await sandbox?.close();
	if (process.env.SUPPORT_CHAT_E2E_DEDUPE_REPORT) {
		fs.writeFileSync(
			process.env.SUPPORT_CHAT_E2E_DEDUPE_REPORT,
			`${JSON.stringify(figures, null, 2)}\n`,
		);
	}
});

describe('regular mode: one n8n process', () => {
	let n8n: N8nInstance;
	let workflowId: string;
	let triggerPath: string;

	beforeAll(async () => {
		n8n = await startN8n({ mode: 'regular', packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR });
		const deployed = await deployWorkflow(n8n, sandbox, readWorkflow('dedupe.workflow.json'));
		workflowId = deployed.id;
		triggerPath = (deployed.triggerUrl as string).slice(`${n8n.webhookBaseUrl}/webhook/`.length);
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	test(`${COPIES} identical signed deliveries released together start exactly one run (${REGULAR_TRIALS} trials, fresh ids)`, async () => {
		const trials: Trial[] = [];
		for (let i = 0; i < REGULAR_TRIALS; i++)
			trials.push(await trial(n8n, workflowId, triggerPath, [n8n.webhookBaseUrl], [COPIES]));
		summarise('regular', `regular mode, ${COPIES} copies at once`, trials);
		expectConsistent(trials);
		expect(trials.map((t) => t.runs.length)).toEqual(trials.map(() => 1));
		expect(trials.map((t) => t.duplicates)).toEqual(trials.map(() => COPIES - 1));
	});

	test(`deliveries A and B released together, then a retry of each: A and B ran once each (${PAIR_TRIALS} trials)`, async () => {
		const url = n8n.webhookUrl(triggerPath);
		const rows: Array<{ together: number; retriesRan: number; retryAnswers: string[] }> = [];
		for (let i = 0; i < PAIR_TRIALS; i++) {
			const afterId = await lastExecutionId(n8n, workflowId);
			const pair: SignedDelivery[] = [signedLeadDelivery(), signedLeadDelivery()];
			const { answers } = await sendTogether(
				pair.map((d) => ({ url, headers: d.headers, body: d.body })),
			);
			expect(answers.map(outcome)).toEqual(['ran', 'ran']);
			const together = await settledExecutions(n8n, workflowId, {
				afterId,
				minCount: 2,
				quietMs: 1200,
			});
			// A sender's retry: the same id and body, signed again with a new timestamp, one after the other.
			const beforeRetries = await lastExecutionId(n8n, workflowId);
			const retryAnswers: string[] = [];
			for (const delivery of pair) {
				const retry = resignDelivery(delivery);
				const answer = await request('POST', url, undefined, {
					headers: retry.headers,
					rawBody: retry.body,
				});
				retryAnswers.push(`${answer.status} ${JSON.stringify(answer.body)}`);
			}
			const announced = retryAnswers.filter((text) => text === `200 ${JSON.stringify(RAN)}`).length;
			const retried = await settledExecutions(n8n, workflowId, {
				afterId: beforeRetries,
				minCount: announced,
				quietMs: 1200,
			});
			rows.push({ together: together.length, retriesRan: retried.length, retryAnswers });
		}
		const line = `regular mode, A and B together then a retry of each, ${PAIR_TRIALS} trials: retries that started a run ${rows.map((r) => r.retriesRan).join(' ')} (of 2 each)`;
		process.stderr.write(`[e2e] dedupe: ${line}\n`);
		figures.regularPairs = { summary: line, trials: rows };
		expect(rows.map((r) => r.together)).toEqual(rows.map(() => 2));
		expect(rows.map((r) => r.retriesRan)).toEqual(rows.map(() => 0));
		for (const row of rows)
			expect(row.retryAnswers).toEqual([
				`200 ${JSON.stringify(DUPLICATE)}`,
				`200 ${JSON.stringify(DUPLICATE)}`,
			]);
	});
});

describe('queue mode: main, a worker and two webhook processes on PostgreSQL and Redis', () => {
	let n8n: N8nInstance;
	let workflowId: string;
	let triggerPath: string;

	beforeAll(async () => {
		n8n = await startN8n({
			mode: 'queue',
			webhookProcesses: 2,
			packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR,
		});
		const deployed = await deployWorkflow(n8n, sandbox, readWorkflow('dedupe.workflow.json'));
		workflowId = deployed.id;
		triggerPath = (deployed.triggerUrl as string).slice(`${n8n.webhookBaseUrl}/webhook/`.length);
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	test('two webhook processes on ports of their own serve the production URL', () => {
		expect(n8n.processes.map((p) => p.name)).toEqual(['main', 'worker1', 'webhook', 'webhook2']);
		expect(n8n.webhookBaseUrls).toHaveLength(2);
		expect(new Set([n8n.baseUrl, ...n8n.webhookBaseUrls]).size).toBe(3);
		expect(n8n.webhookBaseUrls[0]).toBe(n8n.webhookBaseUrl);
	});

	test(`${COPIES} copies all to one webhook process start exactly one run (${QUEUE_SINGLE_TRIALS} trials, alternating processes)`, async () => {
		const trials: Trial[] = [];
		for (let i = 0; i < QUEUE_SINGLE_TRIALS; i++) {
			const copies = i % 2 === 0 ? [COPIES, 0] : [0, COPIES];
			trials.push(await trial(n8n, workflowId, triggerPath, n8n.webhookBaseUrls, copies));
		}
		summarise(
			'queueSingle',
			`queue mode, ${COPIES} copies all to one of 2 webhook processes`,
			trials,
		);
		expectConsistent(trials);
		expect(trials.map((t) => t.runs.length)).toEqual(trials.map(() => 1));
	});

	test(`${COPIES} copies split across both webhook processes: at most one run per process (${QUEUE_SPLIT_TRIALS} trials)`, async () => {
		const half = COPIES / 2;
		const trials: Trial[] = [];
		for (let i = 0; i < QUEUE_SPLIT_TRIALS; i++) {
			trials.push(await trial(n8n, workflowId, triggerPath, n8n.webhookBaseUrls, [half, half]));
		}
		summarise('queueSplit', `2 webhook processes, ${COPIES} copies split ${half}/${half}`, trials);
		expectConsistent(trials);
		// No lock across processes: each process that got copies may start one run, never more.
		const broken = trials.filter(
			(t) => Math.max(...t.ranAnswers) > 1 || t.runs.length < 1 || t.runs.length > 2,
		);
		expect(
			broken.map((t) => ({ id: t.id, runs: t.runs.length, runsAnnouncedPerProcess: t.ranAnswers })),
		).toEqual([]);
	});
});
