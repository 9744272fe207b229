/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import path from 'node:path';

import { startN8n, type Execution, type N8nInstance } from '../harness';
import { deployWorkflow, readWorkflow, sleep } from '.';
import { startSandbox, type Sandbox } from '../../sandbox';

/*
 * `examples/catch-up-both-triggers.json` published in a real n8n against the sandbox in Support Board
 * mode (the webhook trigger and the poll trigger into Remove Duplicates by eventKey; after it, a No Op
 * and, for New Message, a reply as the agent), and what its runs did, read back from n8n by eventKey.
 * Shared by catchUp.e2e.test.ts (downtime and catch-up) and pollOnce.e2e.test.ts (history, replies,
 * overlapping deliveries).
 */

export const EXAMPLE = path.resolve(
	__dirname,
	'..',
	'..',
	'examples',
	'catch-up-both-triggers.json',
);
/** The example's nodes by their part. */
export const NODES = {
	webhook: 'Webhook: as it happens',
	poll: 'Poll: what the webhook missed',
	dedupe: 'Each event once',
	handler: 'Handle the event',
	messagesOnly: 'New messages only',
	reply: 'Reply as the agent',
} as const;
/** The text the example's reply sends. */
export function readExampleReply(): string {
	const reply = readWorkflow(EXAMPLE).nodes.find((node) => node.name === NODES.reply);
	if (typeof reply?.parameters.message !== 'string')
		throw new Error(`${EXAMPLE}: no "${NODES.reply}" with a message`);
	return reply.parameters.message;
}
/** A poll comes at most a minute after the last; a restart's first poll at activation. */
export const POLL_WAIT_MS = 150_000;
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

type Item = {
	json: Record<string, any>;
	pairedItem?: { item: number } | Array<{ item: number }> | number;
};

const itemsOf = (run: Execution, node: string): Item[] =>
	run.data?.resultData?.runData?.[node]?.[0]?.data?.main?.[0] ?? [];
const keyOf = (item: Item): string => String(item.json.eventKey);

/** Which trigger started a run. */
export function triggerOf(run: Execution): 'poll' | 'webhook' | 'none' {
	const runData = run.data?.resultData?.runData ?? {};
	return runData[NODES.poll] ? 'poll' : runData[NODES.webhook] ? 'webhook' : 'none';
}

/** The eventKeys a trigger emitted into a run, before Remove Duplicates. */
export function emitted(run: Execution): string[] {
	return itemsOf(run, triggerOf(run) === 'poll' ? NODES.poll : NODES.webhook).map(keyOf);
}

/** What a run handled: the eventKeys that reached the No Op after Remove Duplicates, and which trigger sent them. */
export function handled(run: Execution): { keys: string[]; trigger: string } {
	return { keys: itemsOf(run, NODES.handler).map(keyOf), trigger: triggerOf(run) };
}

/** The eventKeys a run answered: each reply sent, by the New Message item it was sent for. */
export function replied(run: Execution): string[] {
	const kept = itemsOf(run, NODES.messagesOnly);
	return itemsOf(run, NODES.reply).map((item, index) => {
		const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
		const from = typeof paired === 'number' ? paired : (paired?.item ?? index);
		return keyOf(kept[from]);
	});
}

/**
 * n8n 2.41.1's Remove Duplicates writes its workflow's one row of processed_data on first use without a
 * lock: two runs that reach it first at the same instant both insert it, and SQLite refuses one
 * (SQLITE_CONSTRAINT). That run's event is lost to the webhook, and the poll finds it again: the run
 * fails, nothing is lost. Seen once on a fresh machine under load (docs/poll-trigger.md › Both triggers, each event once).
 */
export function isFirstUseRace(run: Execution): boolean {
	const result = run.data?.resultData;
	return (
		run.status === 'error' &&
		result?.lastNodeExecuted === NODES.dedupe &&
		/UNIQUE constraint failed: processed_data\./.test(String(result?.error?.message ?? ''))
	);
}

export type Seen = { key: string; trigger: string; executionId: string; startedAt: number };

export const countByKey = (keys: Iterable<string>): Map<string, number> => {
	const byKey = new Map<string, number>();
	for (const key of keys) byKey.set(key, (byKey.get(key) ?? 0) + 1);
	return byKey;
};

export interface CatchUpOptions {
	token: string;
	key: string;
	mode?: 'regular' | 'queue';
	seed?: { users: number; conversations: number };
	/** Runs after the sandbox started and before the workflow is published: history the poll must not emit. */
	beforePublish?: (world: CatchUpWorld) => Promise<void>;
}

/** The sandbox, n8n with the example published, and the example's runs. */
export class CatchUpWorld {
	n8n!: N8nInstance;
	workflowId = '';
	triggerUrl = '';
	/** The sandbox's agent (Alex Agent), as the product numbers users. */
	agentId = '';
	/** Finished executions with their data, by id: they no longer change, so each is read once. */
	private readonly finished = new Map<string, Execution>();

	private constructor(
		readonly sandbox: Sandbox,
		readonly token: string,
	) {}

	static async start(options: CatchUpOptions): Promise<CatchUpWorld> {
		const sandbox = await startSandbox({
			api: 'support-board',
			token: options.token,
			seed: options.seed ?? { users: 8, conversations: 3 },
		});
		const world = new CatchUpWorld(sandbox, options.token);
		world.agentId = String(Number(world.sb.data.staff!.agent.id.slice(2)));
		await options.beforePublish?.(world);
		world.n8n = await startN8n({
			mode: options.mode ?? 'regular',
			packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR,
		});
		const deployed = await deployWorkflow(world.n8n, sandbox, readWorkflow(EXAMPLE), {
			credentials: {
				api: 'supportBoard',
				baseUrl: world.sb.installUrl,
				apiToken: options.token,
				allowHttp: false,
				webhookSecret: options.key,
			},
		});
		world.workflowId = deployed.id;
		world.triggerUrl = deployed.triggerUrl as string;
		return world;
	}

	get sb() {
		return this.sandbox.supportBoard!;
	}

	/** Points the product's webhooks at the published trigger. */
	connectWebhooks(key: string): void {
		this.sb.configureWebhooks({ url: this.triggerUrl, key, active: true });
	}

	async staticData(): Promise<unknown> {
		return (await this.n8n.api('GET', `/workflows/${this.workflowId}`)).staticData ?? null;
	}

	/** A Web API call with the admin token; throws on the product's refusal. */
	async callApi<T = any>(fn: string, args: Record<string, unknown>): Promise<T> {
		const res = await fetch(this.sb.apiUrl, {
			method: 'POST',
			body: JSON.stringify({ function: fn, token: this.token, ...args }),
		});
		const body = (await res.json()) as { success: boolean; response: T };
		if (!body.success) throw new Error(`${fn}: ${JSON.stringify(body)}`);
		return body.response;
	}

	/** Every execution of the workflow, oldest first, finished ones with their data; `running` while any is not over. */
	async executions(): Promise<{ runs: Execution[]; running: boolean }> {
		const listed: Execution[] = [];
		let cursor: string | undefined;
		do {
			const query = new URLSearchParams({
				workflowId: this.workflowId,
				includeData: 'false',
				limit: '250',
			});
			if (cursor) query.set('cursor', cursor);
			const page = await this.n8n.api('GET', `/executions?${query}`);
			listed.push(...page.data);
			cursor = page.nextCursor ?? undefined;
		} while (cursor);
		const runs: Execution[] = [];
		let running = false;
		for (const entry of listed.sort((a, b) => Number(a.id) - Number(b.id))) {
			if (!FINISHED.has(entry.status)) {
				running = true;
				continue;
			}
			let run = this.finished.get(entry.id);
			if (!run) {
				run = await this.n8n.execution(entry.id);
				this.finished.set(entry.id, run);
			}
			runs.push(run);
		}
		return { runs, running };
	}

	/** Every key handled by any finished run so far. */
	async allHandled(): Promise<{ seen: Seen[]; runs: Execution[]; running: boolean }> {
		const { runs, running } = await this.executions();
		const seen: Seen[] = [];
		for (const run of runs) {
			const { keys, trigger } = handled(run);
			for (const key of keys)
				seen.push({ key, trigger, executionId: run.id, startedAt: Date.parse(run.startedAt) });
		}
		return { seen, runs, running };
	}

	/**
	 * Waits until every key has been handled and no run is under way. Throws after `timeoutMs` unless
	 * `orMissing`, which returns the keys still missing instead (for tests that report before they assert).
	 */
	async waitForKeys(
		keys: string[],
		options: { timeoutMs?: number; orMissing?: boolean } = {},
	): Promise<{ seen: Seen[]; missing: string[] }> {
		const timeoutMs = options.timeoutMs ?? POLL_WAIT_MS;
		const start = Date.now();
		for (;;) {
			const { seen, running } = await this.allHandled();
			const have = new Set(seen.map((s) => s.key));
			const missing = keys.filter((k) => !have.has(k));
			if (missing.length === 0 && !running) return { seen, missing };
			if (Date.now() - start > timeoutMs) {
				if (options.orMissing) return { seen, missing };
				throw new Error(`not handled after ${timeoutMs} ms: ${missing.join(', ')}`);
			}
			await sleep(1000);
		}
	}

	/** The poll trigger's polls the sandbox has seen (each poll calls get-new-conversations once). */
	polls(): number[] {
		return this.sandbox.requests
			.filter((r) => r.function === 'get-new-conversations')
			.map((r) => r.time);
	}

	/** Waits until `count` polls have started after `since` (epoch ms) and every run is over. */
	async waitForPolls(
		count: number,
		since: number,
		timeoutMs = (count + 1) * 75_000,
	): Promise<number[]> {
		const start = Date.now();
		for (;;) {
			const after = this.polls().filter((time) => time > since);
			// A few seconds after the last poll's request, its run (if it emitted) has been created.
			const settled = after.length >= count && Date.now() - (after.at(-1) ?? 0) > 5000;
			if (settled && !(await this.executions()).running) return after;
			if (Date.now() - start > timeoutMs)
				throw new Error(`${after.length} of ${count} polls after ${timeoutMs} ms`);
			await sleep(1000);
		}
	}

	async close(): Promise<void> {
		await this.n8n?.stop();
		await this.sandbox.close();
	}
}
