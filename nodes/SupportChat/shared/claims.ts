import { createHash } from 'crypto';

/**
 * Which events this n8n process has started a workflow for, by eventKey, per workflow: the place where
 * the webhook trigger and the poll trigger of one workflow learn of each other.
 *
 * n8n offers no atomic record a trigger can use. Remove Duplicates reads its stored list, adds to it and
 * writes the whole list back, so two runs that overlap lose one record, and the poll trigger then finds
 * that event again a minute later. Static data is loaded at a run's start and saved whole at its end:
 * last write wins too. Both triggers of a workflow run in one process (n8n's main, in regular mode), and
 * a claim is checked and made in one synchronous step, so of the two triggers exactly one runs an event
 * while the process lives. After a restart the memory is empty: the poll trigger's saved marks, and
 * Remove Duplicates behind the triggers, are what is left (docs: the poll trigger).
 *
 * The record is bounded whatever arrives (with Verification None anyone can send events), and a claim
 * is never dropped for a newer one before its time: dropping one is what would let its event run twice.
 * At the bound the webhook trigger claims nothing more. Where the workflow's poll trigger polls in this
 * process for the event's kind, the event is left to it, and the poll finds it later: nothing is lost,
 * nothing runs twice. Otherwise it runs unclaimed, since nothing else would run it (a webhook-only
 * workflow's claims serve nothing then). The last part of each bound is the poll's alone, so an event
 * the poll runs is recorded against a late delivery unless the poll itself fills that part.
 */

/**
 * Claims kept in the whole process. Each is a 16-character fingerprint and a small integer in a Map:
 * about 70 bytes (measured in test/unit/shared/claims.test.ts), so all claims stay under 4 MB, beside
 * one Map per workflow (of n8n's, never of a sender's making) that has claims.
 */
const MAX_CLAIMS = 50_000;
/** Claims kept per workflow: more than one poll interval's events of a busy service. */
const MAX_WORKFLOW_CLAIMS = 20_000;
/** Of each bound, the share the webhook trigger may fill; the rest is kept for the poll trigger. */
const WEBHOOK_SHARE = 0.8;
/** How long a claim is kept, in minutes: longer than any poll interval a catch-up is set to. */
const CLAIM_MINUTES = 48 * 60;
/** Workflows whose poll trigger is known to poll; the least recently polled forgotten first. */
const MAX_POLLING_WORKFLOWS = 1_000;

export type Claimant = 'webhook' | 'poll';

/**
 * What a trigger does with an event: `run` it (claimed, or unrecorded at the bound), leave it because
 * the other trigger ran it (`taken`), or, the webhook trigger at the bound, leave it to the poll (`left`).
 */
export type ClaimOutcome = 'run' | 'taken' | 'left';

/**
 * A fixed-size fingerprint of a key, as the claims and the webhook trigger's delivery memory keep keys:
 * any key costs the same, and ids are not kept in clear. Cut from the digest as bytes (the same 16
 * characters as the digest's text would start with), so the string is one of its own: a slice would
 * keep the whole digest's text alive in the process's memory.
 */
export const fingerprint = (key: string) =>
	createHash('sha256').update(key).digest().toString('base64url', 0, 12);

/** A claim as stored: the minute it was made and who made it, in one small integer. */
const stamp = (minute: number, by: Claimant) => minute * 2 + (by === 'poll' ? 1 : 0);
const minuteOf = (value: number) => Math.floor(value / 2);
const claimantOf = (value: number): Claimant => (value % 2 === 1 ? 'poll' : 'webhook');

class EventClaims {
	/** Per workflow, fingerprint → stamp, oldest first; a workflow without claims is not kept. */
	private readonly workflows = new Map<string, Map<string, number>>();
	/** Per workflow whose poll trigger polls here, the events it looks for. */
	private readonly polling = new Map<string, ReadonlySet<string>>();
	private total = 0;
	private sweptAt = -1;

	/**
	 * Claims `key` for `by`. A trigger's own repeated claim is answered `run`: its own rules (the poll's
	 * marks, the webhook's delivery IDs) decide on its repeats.
	 */
	claim(workflowId: string, key: string, by: Claimant, now: number): ClaimOutcome {
		const minute = Math.floor(now / 60_000);
		this.sweep(minute);
		const claims = this.workflows.get(workflowId) ?? new Map<string, number>();
		this.expire(workflowId, claims, minute);
		const hash = fingerprint(key);
		const earlier = claims.get(hash);
		if (earlier !== undefined) return claimantOf(earlier) === by ? 'run' : 'taken';
		const share = by === 'webhook' ? WEBHOOK_SHARE : 1;
		if (this.total >= MAX_CLAIMS * share || claims.size >= MAX_WORKFLOW_CLAIMS * share)
			return by === 'webhook' && this.pollFinds(workflowId, key) ? 'left' : 'run';
		claims.set(hash, stamp(minute, by));
		this.workflows.set(workflowId, claims);
		this.total++;
		return 'run';
	}

	/**
	 * The poll trigger of `workflowId` polls in this process for `events`: at the bound its webhook
	 * trigger leaves events of these kinds to it, and runs the others (the poll would never find them).
	 */
	polls(workflowId: string, events: readonly string[]): void {
		this.polling.delete(workflowId);
		this.polling.set(workflowId, new Set(events));
		for (const oldest of this.polling.keys()) {
			if (this.polling.size <= MAX_POLLING_WORKFLOWS) break;
			this.polling.delete(oldest);
		}
	}

	/**
	 * The workflow is being activated, its webhooks first, its pollers next: until its poll trigger polls
	 * (n8n runs it once as it starts it), nothing is left to one that may have been removed.
	 */
	activating(workflowId: string): void {
		this.polling.delete(workflowId);
	}

	/** Whether the workflow's poll trigger looks for the key's event (`eventKey`: the event, then `:`). */
	private pollFinds(workflowId: string, key: string): boolean {
		const colon = key.indexOf(':');
		return colon > 0 && this.polling.get(workflowId)?.has(key.slice(0, colon)) === true;
	}

	/** How many claims the process keeps. */
	get size(): number {
		return this.total;
	}

	/** Drops a workflow's expired claims: the Map keeps insertion order, so only the front is looked at. */
	private expire(workflowId: string, claims: Map<string, number>, minute: number): void {
		for (const [hash, value] of claims) {
			if (minute - minuteOf(value) <= CLAIM_MINUTES) break;
			claims.delete(hash);
			this.total--;
		}
		if (claims.size === 0) this.workflows.delete(workflowId);
	}

	/** Once a minute, every workflow's expired claims: the process-wide count must not keep the dead. */
	private sweep(minute: number): void {
		if (minute === this.sweptAt) return;
		this.sweptAt = minute;
		for (const [workflowId, claims] of this.workflows) this.expire(workflowId, claims, minute);
	}

	/** Forgets everything, as a restart of the process does (tests stand for a restart with it). */
	clear(): void {
		this.workflows.clear();
		this.polling.clear();
		this.total = 0;
		this.sweptAt = -1;
	}
}

/** The one record of this process; n8n loads a node's module once per process. */
export const EVENT_CLAIMS = new EventClaims();
