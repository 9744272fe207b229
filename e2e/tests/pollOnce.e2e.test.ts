/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import fs from 'node:fs';

import { sleep } from '../support';
import {
	CatchUpWorld,
	countByKey,
	emitted,
	handled,
	isFirstUseRace,
	readExampleReply,
	replied,
	triggerOf,
} from '../support/catchUp';
import type { Execution } from '../harness';

/*
 * Each event once, each New Message answered once, in Support Board mode: `examples/catch-up-both-triggers.json`
 * (the webhook trigger and the poll trigger into Remove Duplicates by eventKey, then a reply as the agent
 * to each New Message) published in a real n8n 2.41.1. What it holds the poll trigger to (issue 20):
 * - the agent's replies are the service's side: they never come back as New Message, so the workflow does
 *   not answer itself (Ignore Own Messages, on by default in both triggers);
 * - what happened before publishing never runs: an old conversation a visitor writes in again gives a New
 *   Message, never a New Conversation, also when its creation and its last message share a second, or
 *   its last message is an assignment note;
 * - the same across a restart: what visitors wrote while n8n was down runs once and is answered once;
 * - visitors writing in pairs at the same instant while polls run: every event runs, none twice (both
 *   triggers in one n8n process claim each eventKey; Remove Duplicates is the guard across restarts).
 *
 * The figures (events, runs per event, replies per visitor message, runs started by the workflow's own
 * replies, history runs, elapsed) are printed, and written as JSON to $SUPPORT_CHAT_E2E_POLL_REPORT.
 * About 6 to 7 minutes: polls come a minute apart, and the last check waits for three of them.
 * The example and its runs read back by eventKey: e2e/support/catchUp.ts.
 */

const TOKEN = 'sb-poll-once-admin-token-51c2';
const KEY = 'sb-poll-once-secret-key-9a0e';
/** Pairs sent on the regular beat; more are sent around each expected poll. */
const PAIRS = Math.max(1, Number(process.env.SUPPORT_CHAT_E2E_POLL_PAIRS ?? 35));
const PAIR_INTERVAL_MS = 2500;
/** Where around an expected poll (ms) a pair is sent as well: the poll and the webhook then find the same messages. */
const AROUND_POLL_MS = [-600, -300, -100, 0, 150];
const CHATS = 10;
const MIN_EVENTS = 100;
const POLLS_AFTER_LAST = 3;

const REPLY = readExampleReply();
const startedAt = Date.now();
let world: CatchUpWorld;
const report: Record<string, any> = { phases: {} };

const productId = (internal: string) => Number(internal.slice(2));

/** Everything before publishing, by the highest product id of each record. */
const history = { userId: 0, conversationId: 0, messageId: 0 };

/** Whether a key names a record that existed before the workflow was published. */
function isHistory(key: string): boolean {
	const [event, rest = ''] = key.split(':');
	const id = Number(rest.split('@').at(-1));
	if (event === 'userCreated') return id <= history.userId;
	if (event === 'conversationCreated') return id <= history.conversationId;
	return id <= history.messageId;
}

type VisitorMessage = { key: string; conversationId: number; phase: string };
/** Every visitor message sent after publishing: each must run once and be answered once. */
const visitorMessages: VisitorMessage[] = [];
/** Every event sent after publishing (users, conversations, visitor messages): each must run once. */
const events: Array<{ key: string; phase: string }> = [];

async function say(conversationId: number, text: string, phase: string): Promise<string> {
	const sent = await world.sb.visitor.say(conversationId, text);
	const key = `messageCreated:${sent.id}`;
	visitorMessages.push({ key, conversationId, phase });
	events.push({ key, phase });
	return key;
}

async function startChat(label: string, phase: string): Promise<number> {
	const chat = await world.sb.visitor.start({
		message: `Hello from ${label}`,
		first_name: 'Visitor',
		last_name: label,
	});
	const conversationId = Number(chat.conversation.id);
	const messageKey = `messageCreated:${chat.message.id}`;
	visitorMessages.push({ key: messageKey, conversationId, phase });
	for (const key of [
		`userCreated:${chat.user.id}`,
		`conversationCreated:${conversationId}`,
		messageKey,
	])
		events.push({ key, phase });
	return conversationId;
}

/** The workflow's replies in the sandbox: the admin's messages with the example's text. */
function replies() {
	const admin = world.sb.data.admin.id;
	return world.sandbox.state.messages.filter(
		(m) => (m as { user_id?: string }).user_id === admin && m.message === REPLY,
	);
}

/** What the runs did so far, by eventKey. */
async function tally() {
	const { runs } = await world.executions();
	const ownKeys = new Set(replies().map((m) => `messageCreated:${productId(m.id)}`));
	const handledBy = countByKey(runs.flatMap((run) => handled(run).keys));
	const repliedBy = countByKey(runs.flatMap(replied));
	const ownRuns = runs.filter((run) => emitted(run).some((key) => ownKeys.has(key)));
	const historyRuns = runs.filter((run) => emitted(run).some(isHistory));
	const repliesByConversation = countByKey(
		replies().map((m) => String(productId(m.conversation_id))),
	);
	const messagesByConversation = countByKey(visitorMessages.map((m) => String(m.conversationId)));
	return {
		runs,
		handledBy,
		repliedBy,
		ownKeys,
		ownRuns,
		historyRuns,
		historyKeys: [...new Set(historyRuns.flatMap(emitted).filter(isHistory))],
		/** Per conversation with a visitor message: the workflow's replies there minus the visitor messages. */
		extraReplies: [...new Set([...messagesByConversation.keys(), ...repliesByConversation.keys()])]
			.map((id) => ({
				conversationId: id,
				replies: repliesByConversation.get(id) ?? 0,
				visitorMessages: messagesByConversation.get(id) ?? 0,
			}))
			.filter((row) => row.replies !== row.visitorMessages),
	};
}
type Tally = Awaited<ReturnType<typeof tally>>;

const runsOf = (t: Tally, keys: string[]) =>
	Object.fromEntries(keys.map((key) => [key, t.handledBy.get(key) ?? 0]));
const repliesOf = (t: Tally, keys: string[]) =>
	Object.fromEntries(keys.map((key) => [key, t.repliedBy.get(key) ?? 0]));
const ones = (keys: string[]) => Object.fromEntries(keys.map((key) => [key, 1]));
const distribution = (counts: number[]) =>
	Object.fromEntries([...countByKey(counts.map(String))].sort());

function phaseFigures(t: Tally, phase: string) {
	const keys = events.filter((e) => e.phase === phase).map((e) => e.key);
	const messages = visitorMessages.filter((m) => m.phase === phase).map((m) => m.key);
	return {
		events: keys.length,
		runsPerEvent: distribution(keys.map((k) => t.handledBy.get(k) ?? 0)),
		visitorMessages: messages.length,
		repliesPerVisitorMessage: distribution(messages.map((k) => t.repliedBy.get(k) ?? 0)),
		workflowReplies: replies().length,
		runsStartedByOwnReplies: t.ownRuns.length,
		historyRuns: t.historyRuns.length,
		historyKeys: t.historyKeys,
		elapsedMs: Date.now() - startedAt,
	};
}

beforeAll(async () => {
	world = await CatchUpWorld.start({
		token: TOKEN,
		key: KEY,
		seed: { users: 8, conversations: 3 },
		// History: n8n hears nothing of it (the webhooks point nowhere yet); the poll's baseline reads it.
		beforePublish: async (w) => {
			await w.callApi('add-user', {
				first_name: 'Old',
				last_name: 'User',
				email: 'old@added.example',
			});
			const old = await w.sb.visitor.start({
				message: 'An old question',
				first_name: 'Visitor',
				last_name: 'old',
			});
			await w.callApi('send-message', {
				conversation_id: old.conversation.id,
				user_id: w.agentId,
				message: 'An old answer',
			});
			await w.sb.visitor.say(old.conversation.id, 'Thanks, back then');
			// In one second: a chat whose creation and last message share the second of the newest message,
			// and another whose last message is the note an assignment posts.
			await sleep(1000 - (Date.now() % 1000));
			const noted = await w.sb.visitor.start({
				message: 'Please assign me',
				first_name: 'Visitor',
				last_name: 'noted',
			});
			const same = await w.sb.visitor.start({
				message: 'Created and written in one second',
				first_name: 'Visitor',
				last_name: 'same',
			});
			await w.callApi('update-conversation-agent', {
				conversation_id: noted.conversation.id,
				agent_id: w.agentId,
			});
			const state = w.sandbox.state;
			Object.assign(history, {
				userId: Math.max(...state.users.map((u) => productId(u.id))),
				conversationId: Math.max(...state.conversations.map((c) => productId(c.id))),
				messageId: Math.max(...state.messages.map((m) => productId(m.id))),
			});
			report.history = {
				...history,
				old: Number(old.conversation.id),
				noted: Number(noted.conversation.id),
				same: Number(same.conversation.id),
				seeded: productId(state.conversations[0].id),
				times: state.conversations.slice(-2).map((c) => c.created_at),
				lastMessages: state.messages
					.slice(-3)
					.map((m) => ({ id: productId(m.id), at: m.created_at, note: m.message === '' })),
			};
		},
	});
	world.connectWebhooks(KEY);
	report.reply = REPLY;
}, 300_000);

afterAll(async () => {
	report.elapsedMs = Date.now() - startedAt;
	const file = process.env.SUPPORT_CHAT_E2E_POLL_REPORT;
	if (file) fs.writeFileSync(file, JSON.stringify(report, null, 2));
	process.stderr.write(`[e2e] poll-once report ${JSON.stringify(report)}\n`);
	await world?.close();
});

describe('what happened before publishing', () => {
	let t: Tally;
	let keys: string[];

	beforeAll(async () => {
		const h = report.history;
		// The first alone: two runs that reach Remove Duplicates first at the same instant race (isFirstUseRace).
		const first = await say(h.old, 'Back again', 'history');
		await world.waitForKeys([first], { timeoutMs: 60_000, orMissing: true });
		for (const id of [h.noted, h.same, h.seeded]) await say(id, `Back again in ${id}`, 'history');
		// Found by the poll only: its run shows a poll came after the messages, and saves the poll's marks.
		const added = await world.callApi('add-user', {
			first_name: 'New',
			last_name: 'User',
			email: 'new@added.example',
		});
		events.push({ key: `userCreated:${added}`, phase: 'history' });
		keys = events.filter((e) => e.phase === 'history').map((e) => e.key);
		const { missing } = await world.waitForKeys(keys, { orMissing: true });
		t = await tally();
		report.phases.history = { ...phaseFigures(t, 'history'), missing };
	}, 240_000);

	test('a visitor writing again in an old conversation gives one New Message run', () => {
		expect(runsOf(t, keys)).toEqual(ones(keys));
	});

	test('nothing from before publishing runs: no old conversation comes back as a New Conversation', () => {
		expect(t.historyKeys).toEqual([]);
	});

	test('each visitor message is answered once, and nothing more is sent', () => {
		const messages = visitorMessages.map((m) => m.key);
		expect(repliesOf(t, messages)).toEqual(ones(messages));
		expect(t.extraReplies).toEqual([]);
	});
});

describe('across a restart', () => {
	let t: Tally;
	let keys: string[];

	beforeAll(async () => {
		const h = report.history;
		const staticBefore = await world.staticData();
		await world.n8n.stopProcesses();
		const from = world.sb.deliveries.length;
		await say(h.old, 'Anyone there while you were down?', 'restart');
		await say(h.same, 'Still waiting', 'restart');
		const fresh = await startChat('while-down', 'restart');
		const failed = world.sb.deliveries.slice(from);
		const restartAt = Date.now();
		await world.n8n.startProcesses();
		keys = events.filter((e) => e.phase === 'restart').map((e) => e.key);
		const { missing, seen } = await world.waitForKeys(keys, { orMissing: true });
		t = await tally();
		const downRuns = seen.filter((s) => keys.includes(s.key));
		report.phases.restart = {
			...phaseFigures(t, 'restart'),
			missing,
			newConversation: fresh,
			failedDeliveriesWhileDown: failed.length,
			deliveryStatusesWhileDown: [...new Set(failed.map((d) => d.status))],
			runsBy: [...new Set(downRuns.map((s) => s.trigger))],
			firstRunAfterRestartMs:
				downRuns.length > 0 ? Math.min(...downRuns.map((s) => s.startedAt)) - restartAt : null,
			staticDataBeforeStop: staticBefore,
		};
	}, 300_000);

	test('what visitors did while n8n was down runs once after the restart, found by the poll', () => {
		expect(report.phases.restart.deliveryStatusesWhileDown).toEqual([0]);
		expect(runsOf(t, keys)).toEqual(ones(keys));
		expect(report.phases.restart.runsBy).toEqual(['poll']);
	});

	test('each is answered once; the chat started while down is a New Conversation, the old ones are not', () => {
		const messages = visitorMessages.filter((m) => m.phase === 'restart').map((m) => m.key);
		expect(repliesOf(t, messages)).toEqual(ones(messages));
		expect(t.extraReplies).toEqual([]);
		expect(t.historyKeys).toEqual([]);
	});

	test('nothing that ran before the restart runs again', () => {
		const before = events.filter((e) => e.phase === 'history').map((e) => e.key);
		expect(runsOf(t, before)).toEqual(ones(before));
	});
});

describe(`visitors writing in pairs at the same instant while polls run (at least ${MIN_EVENTS} events)`, () => {
	let t: Tally;
	let keys: string[];
	let lastVisitorAt = 0;
	let pollsAfter: number[] = [];

	/** When the poll is expected next: its cron beat (two polls a minute apart), else the last poll plus a minute. */
	function nextPolls(until: number): number[] {
		const polls = world.polls();
		const beat =
			[...polls]
				.reverse()
				.find(
					(time, i, all) => i + 1 < all.length && Math.abs(time - all[i + 1] - 60_000) < 2000,
				) ??
			polls.at(-1) ??
			Date.now();
		const times: number[] = [];
		for (let at = beat + 60_000; at < until; at += 60_000)
			if (at > Date.now() + 1000) times.push(at);
		return times;
	}

	beforeAll(async () => {
		const phase = 'pairs';
		const chats: number[] = [];
		for (let i = 0; i < CHATS; i += 2) {
			chats.push(
				...(await Promise.all([startChat(`pair-${i}`, phase), startChat(`pair-${i + 1}`, phase)])),
			);
		}
		const start = Date.now();
		const beat = Array.from({ length: PAIRS }, (_, i) => start + i * PAIR_INTERVAL_MS);
		const end = beat.at(-1)!;
		const aroundPolls = nextPolls(end).flatMap((at) => AROUND_POLL_MS.map((offset) => at + offset));
		const schedule = [...beat, ...aroundPolls].sort((a, b) => a - b);
		for (const [i, at] of schedule.entries()) {
			await sleep(Math.max(0, at - Date.now()));
			const [a, b] = [chats[(2 * i) % CHATS], chats[(2 * i + 1) % CHATS]];
			await Promise.all([say(a, `Pair ${i}, first`, phase), say(b, `Pair ${i}, second`, phase)]);
		}
		lastVisitorAt = Date.now();
		keys = events.filter((e) => e.phase === phase).map((e) => e.key);
		const { missing } = await world.waitForKeys(keys, { orMissing: true });
		pollsAfter = await world.waitForPolls(POLLS_AFTER_LAST, lastVisitorAt);
		t = await tally();
		const runs = keys.map((k) => t.handledBy.get(k) ?? 0);
		const twice = keys.filter((k) => (t.handledBy.get(k) ?? 0) > 1);
		const polls = world.polls().filter((time) => time >= start && time <= lastVisitorAt);
		report.phases.pairs = {
			...phaseFigures(t, phase),
			missing,
			pairs: schedule.length,
			pairsAroundExpectedPolls: aroundPolls.length,
			pollsWhileSending: polls.length,
			sendingMs: lastVisitorAt - start,
			eventsRunTwiceOrMore: twice.length,
			rateRunTwice: keys.length > 0 ? twice.length / keys.length : 0,
			keysRunTwice: twice.map((key) => {
				const runs = t.runs.filter((r) => handled(r).keys.includes(key));
				const at = runs.map((r) => Date.parse(r.startedAt));
				return {
					key,
					runs: runs.length,
					by: runs.map(triggerOf),
					msApart: Math.max(...at) - Math.min(...at),
				};
			}),
			runsTotal: runs.reduce((sum, n) => sum + n, 0),
			pollsAfterLastVisitorMessage: pollsAfter.length,
			runsStartedByOwnRepliesAfterLastVisitorMessage: t.ownRuns.filter(
				(r) => Date.parse(r.startedAt) > lastVisitorAt,
			).length,
		};
		const all = events.map((e) => e.key);
		report.totals = {
			events: all.length,
			visitorMessages: visitorMessages.length,
			executions: t.runs.length,
			executionsBy: Object.fromEntries(countByKey(t.runs.map(triggerOf))),
			runsPerEvent: distribution(all.map((k) => t.handledBy.get(k) ?? 0)),
			eventsRunTwiceOrMore: all.filter((k) => (t.handledBy.get(k) ?? 0) > 1).length,
			repliesPerVisitorMessage: distribution(
				visitorMessages.map((m) => t.repliedBy.get(m.key) ?? 0),
			),
			workflowReplies: replies().length,
			runsStartedByOwnReplies: t.ownRuns.length,
			historyRuns: t.historyRuns.length,
			historyKeys: t.historyKeys,
			failedRuns: t.runs.filter((r) => r.status !== 'success').length,
		};
		process.stderr.write(
			`[e2e] poll-once pairs: ${keys.length} events, ${report.phases.pairs.runsTotal} runs, ${twice.length} run twice or more ` +
				`(${(100 * report.phases.pairs.rateRunTwice).toFixed(1)}%), ${missing.length} never; ${replies().length} replies to ` +
				`${visitorMessages.length} visitor messages; ${t.ownRuns.length} runs started by the workflow's own replies\n`,
		);
	}, 600_000);

	test('every event runs at least once', () => {
		expect(keys.length).toBeGreaterThanOrEqual(MIN_EVENTS);
		expect(keys.filter((k) => !t.handledBy.has(k))).toEqual([]);
	});

	test('no event runs twice', () => {
		expect(keys.filter((k) => (t.handledBy.get(k) ?? 0) > 1)).toEqual([]);
	});

	test('each visitor message is answered once, and nothing more is sent', () => {
		const messages = visitorMessages.map((m) => m.key);
		expect(repliesOf(t, messages)).toEqual(ones(messages));
		expect(t.extraReplies).toEqual([]);
	});

	test(`the workflow's own replies start no run, up to ${POLLS_AFTER_LAST} polls after the last visitor message`, () => {
		expect(pollsAfter.length).toBeGreaterThanOrEqual(POLLS_AFTER_LAST);
		expect(
			t.ownRuns.map(
				(r: Execution) =>
					`${r.id} ${triggerOf(r)}: ${emitted(r).filter((k) => t.ownKeys.has(k)).length} own replies`,
			),
		).toEqual([]);
	});

	test('over the whole test: every event ran exactly once, nothing from before publishing ran, every run succeeded', () => {
		const all = events.map((e) => e.key);
		expect(runsOf(t, all)).toEqual(ones(all));
		expect(t.historyKeys).toEqual([]);
		expect(
			t.runs
				.filter((r) => r.status !== 'success' && !isFirstUseRace(r))
				.map((r) => `${r.id} ${r.status} ${r.data?.resultData?.lastNodeExecuted}`),
		).toEqual([]);
	});
});
