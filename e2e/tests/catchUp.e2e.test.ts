/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import fs from 'node:fs';

import { settledExecutions } from '../support';
import { CatchUpWorld, countByKey, handled, isFirstUseRace, type Seen } from '../support/catchUp';

/*
 * Catch-up after downtime, in Support Board mode: `examples/catch-up-both-triggers.json` published (the
 * webhook trigger and the poll trigger into Remove Duplicates by eventKey, then a No Op whose input is
 * what ran, and a reply as the agent to each New Message). Each round: events while n8n runs (new users
 * through add-user, visitors' chats and messages, agents' replies), n8n stopped, more events (their
 * webhooks fail: nothing listens), n8n started again on the same database and user folder. Every event
 * must run exactly once, whichever trigger found it, and the downtime's events must run after the
 * restart; agents' messages (an agent's reply through the Web API, the workflow's own replies) are no
 * event the workflow runs. Then the same eventKey delivered many times at once: does Remove Duplicates
 * hold when its executions run together?
 *
 * The figures (events, runs, duplicates, the delay from the restart to the downtime's runs, the
 * concurrency distribution) are printed, and written as JSON to $SUPPORT_CHAT_E2E_CATCH_UP_REPORT.
 * Times are measured, never asserted. About 4 minutes: the poll interval is one minute at the shortest.
 * The example, its runs read back by eventKey, and the Web API: e2e/support/catchUp.ts.
 */

const TOKEN = 'sb-catch-up-admin-token-7e1f';
const KEY = 'sb-catch-up-secret-key-3c4d';
const ROUNDS = Math.max(1, Number(process.env.SUPPORT_CHAT_E2E_CATCH_UP_ROUNDS ?? 2));
const CONCURRENCY_TRIALS = Math.max(
	1,
	Number(process.env.SUPPORT_CHAT_E2E_CONCURRENCY_TRIALS ?? 8),
);
const COPIES = 6;
/**
 * `SUPPORT_CHAT_E2E_CATCH_UP_MODE=queue`: main (the leader, which polls), a worker and a webhook process on
 * PostgreSQL and Redis; the restart stops and starts all three.
 */
const MODE = process.env.SUPPORT_CHAT_E2E_CATCH_UP_MODE === 'queue' ? 'queue' : 'regular';

let world: CatchUpWorld;
const report: Record<string, unknown> = { rounds: [] as unknown[] };

/**
 * Events of every kind the workflow listens for; returns their eventKeys, which the webhook sends, and
 * the agent's message, which must not run (the workflow's own side).
 */
async function makeEvents(
	label: string,
): Promise<{ keys: string[]; webhookKeys: string[]; agentKeys: string[] }> {
	const sb = world.sb;
	const keys: string[] = [];
	const webhookKeys: string[] = [];
	const added = await world.callApi<number | string>('add-user', {
		first_name: `Added`,
		last_name: label,
		email: `${label}@added.example`,
	});
	keys.push(`userCreated:${added}`);
	const chat = await sb.visitor.start({
		message: `Hello from ${label}`,
		first_name: 'Visitor',
		last_name: label,
	});
	const conversationId = String(chat.conversation.id);
	keys.push(
		`userCreated:${chat.user.id}`,
		`conversationCreated:${conversationId}`,
		`messageCreated:${chat.message.id}`,
	);
	webhookKeys.push(`conversationCreated:${conversationId}`, `messageCreated:${chat.message.id}`);
	const reply = await world.callApi<{ id: number }>('send-message', {
		conversation_id: conversationId,
		user_id: world.agentId,
		message: `An agent answers ${label}`,
	});
	const again = await sb.visitor.say(conversationId, `Thanks (${label})`);
	keys.push(`messageCreated:${again.id}`);
	webhookKeys.push(`messageCreated:${again.id}`);
	await sb.settled();
	return { keys, webhookKeys, agentKeys: [`messageCreated:${reply.id}`] };
}

const count = (seen: Seen[]) => countByKey(seen.map((s) => s.key));

beforeAll(async () => {
	world = await CatchUpWorld.start({ token: TOKEN, key: KEY, mode: MODE });
	// The first poll ran at publication and emitted nothing: is its baseline in the database yet?
	report.mode = MODE;
	report.staticDataAfterPublish = await world.staticData();
	world.connectWebhooks(KEY);
}, 300_000);

afterAll(async () => {
	const file = process.env.SUPPORT_CHAT_E2E_CATCH_UP_REPORT;
	if (file) fs.writeFileSync(file, JSON.stringify(report, null, 2));
	process.stderr.write(`[e2e] catch-up report ${JSON.stringify(report)}\n`);
	await world?.close();
});

test(
	`events while n8n (${MODE}) runs and while it is down: each runs exactly once (${ROUNDS} rounds)`,
	async () => {
		const sent: string[] = [];
		const agentKeys: string[] = [];
		for (let round = 1; round <= ROUNDS; round++) {
			// Up: the webhook delivers some at once; the poll brings the rest (add-user sends no webhook; the
			// agent's reply is the service's side, which neither trigger runs) and, emitting, saves its marks
			// before the downtime.
			const up = await makeEvents(`r${round}-up`);
			sent.push(...up.keys);
			agentKeys.push(...up.agentKeys);
			const deliveredUp = world.sb.deliveries.filter((d) => d.status === 200).length;
			await world.waitForKeys(up.keys);
			const before = await world.allHandled();
			const pollsEmitted = before.runs.filter((r) => handled(r).trigger === 'poll').length;
			expect(pollsEmitted).toBeGreaterThan(0);
			const staticBefore = await world.staticData();

			await world.n8n.stopProcesses();
			const fromDown = world.sb.deliveries.length;
			const down = await makeEvents(`r${round}-down`);
			sent.push(...down.keys);
			agentKeys.push(...down.agentKeys);
			const failed = world.sb.deliveries.slice(fromDown);
			// Nothing listened: every delivery of the downtime failed (status 0) and is lost for the webhook.
			expect(failed.length).toBeGreaterThan(0);
			expect(failed.every((d) => d.status === 0)).toBe(true);

			const restartAt = Date.now();
			const { ms: startMs } = await world.n8n.startProcesses();
			const readyAt = Date.now();
			const { seen } = await world.waitForKeys(down.keys);
			const downRuns = seen.filter((s) => down.keys.includes(s.key));
			const staticAfter = await world.staticData();
			const first = Math.min(...downRuns.map((s) => s.startedAt));
			const last = Math.max(...downRuns.map((s) => s.startedAt));
			(report.rounds as unknown[]).push({
				round,
				sentWhileUp: up.keys.length,
				webhookDeliveriesOkSoFar: deliveredUp,
				sentWhileDown: down.keys.length,
				failedDeliveriesWhileDown: failed.length,
				pollExecutionsBeforeDowntime: pollsEmitted,
				downtimeEventsBy: [...new Set(downRuns.map((s) => s.trigger))],
				restartReadyMs: startMs,
				firstDowntimeRunAfterReadyMs: first - readyAt,
				lastDowntimeRunAfterReadyMs: last - readyAt,
				firstDowntimeRunAfterStartCommandMs: first - restartAt,
				staticDataBeforeStop: staticBefore,
				staticDataAfterRestart: staticAfter,
			});
		}
		// A last look a poll later: nothing more may arrive for these events (a late duplicate).
		await new Promise((resolve) => setTimeout(resolve, 65_000));
		const { seen, runs } = await world.allHandled();
		const counts = count(seen);
		const duplicates = [...counts].filter(([, n]) => n > 1);
		// The agents' messages among them: the agent's reply, the workflow's own replies.
		const unexpected = [...counts.keys()].filter((k) => !sent.includes(k));
		Object.assign(report, {
			eventsSent: sent.length,
			agentMessagesSent: agentKeys.length,
			agentMessagesRun: agentKeys.filter((k) => counts.has(k)).length,
			eventsRun: seen.length,
			distinctRun: counts.size,
			duplicates,
			unexpected,
			executions: runs.length,
			failedExecutions: runs
				.filter((r) => r.status !== 'success')
				.map(
					(r) => `${r.id} ${r.status}${isFirstUseRace(r) ? ' (Remove Duplicates, first use)' : ''}`,
				),
			runsByTrigger: Object.fromEntries(
				['webhook', 'poll'].map((t) => [t, seen.filter((s) => s.trigger === t).length]),
			),
		});
		// Every run succeeds but for Remove Duplicates' first-use race, whose event the checks below still
		// require to have run exactly once.
		expect(runs.filter((r) => r.status !== 'success' && !isFirstUseRace(r))).toEqual([]);
		expect(duplicates).toEqual([]);
		expect(unexpected).toEqual([]);
		expect([...counts.keys()].sort()).toEqual([...sent].sort());
	},
	20 * 60_000,
);

test(
	'the same eventKey delivered many times at once: how many runs pass Remove Duplicates',
	async () => {
		// A real message-sent delivery of the run above, as the template: Support Board sends no delivery id,
		// so the trigger lets every copy through and only Remove Duplicates stands between them.
		const template = world.sb.deliveries.find(
			(d) => d.function === 'message-sent' && d.status === 200,
		);
		expect(template).toBeDefined();
		const body = JSON.parse(template!.body);
		const distribution: number[] = [];
		for (let trial = 0; trial < CONCURRENCY_TRIALS; trial++) {
			const messageId = 900_000 + trial;
			const copy = JSON.stringify({ ...body, data: { ...body.data, message_id: messageId } });
			const { runs: before } = await world.allHandled();
			const after = before.length > 0 ? Math.max(...before.map((r) => Number(r.id))) : 0;
			const answers = await Promise.all(
				Array.from(
					{ length: COPIES },
					async () =>
						(
							await fetch(world.triggerUrl, {
								method: 'POST',
								headers: { 'content-type': 'application/json' },
								body: copy,
							})
						).status,
				),
			);
			expect(answers).toEqual(Array(COPIES).fill(200));
			// Settled rather than counted: a trigger that recognises the key may start fewer runs than copies.
			await settledExecutions(world.n8n, world.workflowId, {
				afterId: after,
				minCount: 1,
				quietMs: 3000,
			});
			const { runs } = await world.allHandled();
			const passed = runs.filter(
				(r) => Number(r.id) > after && handled(r).keys.includes(`messageCreated:${messageId}`),
			).length;
			// Never lost; how many got through is what is measured.
			expect(passed).toBeGreaterThanOrEqual(1);
			expect(passed).toBeLessThanOrEqual(COPIES);
			distribution.push(passed);
		}
		report.concurrency = {
			copies: COPIES,
			trials: CONCURRENCY_TRIALS,
			runsPassedPerTrial: distribution,
		};
	},
	10 * 60_000,
);
