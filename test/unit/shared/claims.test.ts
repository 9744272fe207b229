/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { EVENT_CLAIMS } from '../../../nodes/SupportChat/shared/claims';

const HOUR = 60 * 60_000;
/** The bounds nodes/SupportChat/shared/claims.ts states: claims in the process, per workflow, and their memory. */
const MAX_CLAIMS = 50_000;
const MAX_WORKFLOW_CLAIMS = 20_000;
const WEBHOOK_SHARE = 0.8;
const MAX_BYTES = 4 * 1024 * 1024;

describe('EVENT_CLAIMS: one of the two triggers of a workflow runs an event', () => {
	beforeEach(() => EVENT_CLAIMS.clear());

	it('the first claimant wins; the other is refused; a claimant repeating its own claim is not', () => {
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:7', 'webhook', 0)).toBe('run');
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:7', 'poll', 1)).toBe('taken');
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:7', 'webhook', 2)).toBe('run');
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:8', 'poll', 3)).toBe('run');
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:8', 'webhook', 4)).toBe('taken');
	});

	it("workflows do not see each other's claims", () => {
		expect(EVENT_CLAIMS.claim('w1', 'userCreated:1', 'webhook', 0)).toBe('run');
		expect(EVENT_CLAIMS.claim('w2', 'userCreated:1', 'poll', 0)).toBe('run');
	});

	it('a claim is kept for two days, then forgotten; a restart (clear) forgets all', () => {
		EVENT_CLAIMS.claim('w1', 'userCreated:1', 'webhook', 0);
		expect(EVENT_CLAIMS.claim('w1', 'userCreated:1', 'poll', 47 * HOUR)).toBe('taken');
		EVENT_CLAIMS.claim('w1', 'userCreated:2', 'webhook', 0);
		expect(EVENT_CLAIMS.claim('w1', 'userCreated:2', 'poll', 49 * HOUR)).toBe('run');
		EVENT_CLAIMS.claim('w1', 'userCreated:3', 'webhook', 49 * HOUR);
		EVENT_CLAIMS.clear();
		expect(EVENT_CLAIMS.claim('w1', 'userCreated:3', 'poll', 49 * HOUR)).toBe('run');
	});
});

describe('EVENT_CLAIMS cannot be flooded (issue 27, class 8)', () => {
	beforeEach(() => EVENT_CLAIMS.clear());

	const flood = (workflowId: string, count: number, at = 0, from = 0) => {
		const outcomes = new Map<string, number>();
		for (let i = from; i < from + count; i++) {
			const outcome = EVENT_CLAIMS.claim(workflowId, `messageCreated:${i}`, 'webhook', at);
			outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
		}
		return Object.fromEntries(outcomes);
	};

	it('no claim is dropped for a newer one: at the bound a polling workflow leaves events to its poll', () => {
		EVENT_CLAIMS.polls('w1', ['messageCreated']);
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:real', 'webhook', 0)).toBe('run');
		const webhookBound = MAX_WORKFLOW_CLAIMS * WEBHOOK_SHARE;
		expect(flood('w1', 20_000, HOUR)).toEqual({
			run: webhookBound - 1,
			left: 20_000 - webhookBound + 1,
		});
		// The real event's claim survived the flood: the poll leaves it out.
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:real', 'poll', 2 * HOUR)).toBe('taken');
		// What was left to the poll, the poll runs and claims (the rest of the bound is its own) ...
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:19999', 'poll', 2 * HOUR)).toBe('run');
		// ... so a late delivery of it runs nothing.
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:19999', 'webhook', 2 * HOUR)).toBe('taken');
		// An event of a kind the poll does not look for still runs: nothing else would run it.
		expect(EVENT_CLAIMS.claim('w1', 'tagApplied:1@vip', 'webhook', 2 * HOUR)).toBe('run');
		// When the claims expire, the webhook claims again.
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:new', 'webhook', 50 * HOUR)).toBe('run');
	});

	it('a webhook-only workflow runs every event at the bound, unclaimed; so does one activated again until its poll polls', () => {
		expect(flood('w1', 20_000)).toEqual({ run: 20_000 });
		expect(EVENT_CLAIMS.size).toBe(MAX_WORKFLOW_CLAIMS * WEBHOOK_SHARE);
		EVENT_CLAIMS.polls('w2', ['messageCreated']);
		EVENT_CLAIMS.activating('w2');
		expect(flood('w2', 20_000)).toEqual({ run: 20_000 });
		EVENT_CLAIMS.polls('w2', ['messageCreated']);
		expect(flood('w2', 1, 0, 20_000)).toEqual({ left: 1 });
	});

	it('the process-wide bound holds across workflows, and the poll keeps its reserve', () => {
		for (let w = 0; w < 10; w++) flood(`w${w}`, 10_000);
		expect(EVENT_CLAIMS.size).toBe(MAX_CLAIMS * WEBHOOK_SHARE);
		EVENT_CLAIMS.polls('w0', ['messageCreated']);
		expect(flood('w0', 1, 0, 10_000)).toEqual({ left: 1 });
		// The poll still claims what it runs, up to the bound; beyond it, it runs them unrecorded.
		const polled = new Set<string>();
		for (let i = 0; i < MAX_WORKFLOW_CLAIMS; i++)
			polled.add(EVENT_CLAIMS.claim('w0', `conversationCreated:${i}`, 'poll', 0));
		expect([...polled]).toEqual(['run']);
		expect(EVENT_CLAIMS.size).toBe(MAX_CLAIMS);
	});

	it(`a flood across 100 workflows keeps all claims under ${MAX_BYTES / 1024 / 1024} MB`, () => {
		setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as () => void;
		gc();
		const before = process.memoryUsage().heapUsed;
		const long = 'x'.repeat(200);
		for (let w = 0; w < 100; w++) {
			for (let i = 0; i < 20_000; i++)
				EVENT_CLAIMS.claim(
					`workflow-${w}`,
					`messageCreated:${long}${i}`,
					w % 2 ? 'poll' : 'webhook',
					w,
				);
		}
		gc();
		const used = process.memoryUsage().heapUsed - before;
		process.stderr.write(
			`[claims] ${EVENT_CLAIMS.size} claims after 2,000,000 across 100 workflows: ${(used / 1024 / 1024).toFixed(2)} MB (${(used / EVENT_CLAIMS.size).toFixed(0)} bytes each)\n`,
		);
		expect(EVENT_CLAIMS.size).toBe(MAX_CLAIMS);
		expect(used).toBeLessThan(MAX_BYTES);
	});
});
