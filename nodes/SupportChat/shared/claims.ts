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
 */

/** Keys kept per workflow, the oldest forgotten first: more than one poll interval's events of a busy service. */
const MAX_CLAIMS = 20_000;
/** How long a claim is kept: longer than any poll interval a catch-up is set to. */
const CLAIM_MS = 48 * 60 * 60_000;
/** Workflows remembered, the least recently used forgotten first. */
const MAX_WORKFLOWS = 100;

export type Claimant = 'webhook' | 'poll';

/** A fixed-size fingerprint: any key costs the same, and ids are not kept in clear. */
const fingerprint = (key: string) =>
	createHash('sha256').update(key).digest('base64url').slice(0, 16);

class EventClaims {
	private readonly workflows = new Map<string, Map<string, { by: Claimant; at: number }>>();

	/**
	 * Claims `key` for `by`: true when no trigger of the workflow ran it yet (and now it is claimed), false
	 * when the other trigger did. A trigger's own repeated claim is answered true: its own rules (the poll's
	 * marks, the webhook's delivery IDs) decide on its repeats.
	 */
	claim(workflowId: string, key: string, by: Claimant, now: number): boolean {
		const claims = this.workflow(workflowId);
		for (const [hash, claim] of claims) {
			if (now - claim.at <= CLAIM_MS) break;
			claims.delete(hash);
		}
		const hash = fingerprint(key);
		const earlier = claims.get(hash);
		if (earlier !== undefined) return earlier.by === by;
		claims.set(hash, { by, at: now });
		for (const oldest of claims.keys()) {
			if (claims.size <= MAX_CLAIMS) break;
			claims.delete(oldest);
		}
		return true;
	}

	private workflow(workflowId: string): Map<string, { by: Claimant; at: number }> {
		let claims = this.workflows.get(workflowId);
		if (claims === undefined) claims = new Map();
		else this.workflows.delete(workflowId);
		this.workflows.set(workflowId, claims);
		for (const oldest of this.workflows.keys()) {
			if (this.workflows.size <= MAX_WORKFLOWS) break;
			this.workflows.delete(oldest);
		}
		return claims;
	}

	/** Forgets everything, as a restart of the process does (tests stand for a restart with it). */
	clear(): void {
		this.workflows.clear();
	}
}

/** The one record of this process; n8n loads a node's module once per process. */
export const EVENT_CLAIMS = new EventClaims();
