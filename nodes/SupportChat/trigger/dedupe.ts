import { fingerprint } from '../shared/claims';

import { isRecord } from '../shared/json';

/**
 * Duplicate suppression. Senders retry (the spec asks receivers to expect it, §6), and a retry of a
 * delivery that was already handled must not start the workflow twice.
 *
 * The memory lives in the node's workflow static data, the one place n8n keeps a trigger's state
 * between deliveries. n8n rebuilds the workflow for every call from the static data it saved as JSON,
 * so the record is plain JSON (no Map or Set), and it is reassigned as a whole on every change so that
 * n8n notices the change and saves it.
 */

/** The static data key the record is kept under. */
const DEDUPE_KEY = 'supportChatDeliveries';

/**
 * Hard cap on remembered deliveries per trigger node; the oldest are forgotten first. An entry saved is
 * `["<16 characters>",<Unix seconds>]`, 32 bytes of JSON with its comma, so the saved record stays under 16 kB.
 */
const MAX_REMEMBERED = 500;

interface DedupeRecord {
	v: 1;
	/** `[hash of the delivery key, first seen in Unix seconds]`, oldest first. */
	seen: Array<[string, number]>;
}

interface DedupeOptions {
	/** How long a delivery is remembered, in milliseconds; 0 or less turns suppression off. */
	windowMs: number;
	/** Overrides `MAX_REMEMBERED` (tests). */
	maxEntries?: number;
}

function readRecord(store: Record<string, unknown>): Array<[string, number]> {
	const record = store[DEDUPE_KEY];
	if (!isRecord(record) || !Array.isArray(record.seen)) return [];
	return record.seen.filter(
		(entry): entry is [string, number] =>
			Array.isArray(entry) &&
			entry.length === 2 &&
			typeof entry[0] === 'string' &&
			typeof entry[1] === 'number' &&
			Number.isFinite(entry[1]),
	);
}

/**
 * How many trigger nodes (per workflow and per test or production URL) the process remembers deliveries
 * for. With MAX_REMEMBERED each, at most 50,000 entries of a 16-character fingerprint and a number, under
 * 100 bytes each in a Map (measured in test/unit/trigger/dedupe.test.ts): under 5 MB, whatever arrives.
 */
const MAX_SCOPES = 100;

/**
 * The deliveries one trigger node has accepted in this process: `fingerprint → first seen (Unix
 * seconds)`, oldest first. Static data alone cannot stop duplicates that arrive together: n8n gives each
 * request its own copy, loaded when the request starts and saved when it ends, last write wins. This
 * record is shared by every request the process serves, and checking it and writing to it happen in
 * one synchronous step, so of two copies of a delivery in flight at once exactly one is accepted.
 */
export class DeliveryMemory {
	private readonly seen = new Map<string, number>();

	/** Drops what is older than the window; the Map keeps insertion order, so only the front is looked at. */
	prune(nowSeconds: number, windowSeconds: number): void {
		for (const [hash, seenAt] of this.seen) {
			if (nowSeconds - seenAt <= windowSeconds) break;
			this.seen.delete(hash);
		}
	}

	has(hash: string): boolean {
		return this.seen.has(hash);
	}

	add(hash: string, seenAt: number, limit: number): void {
		if (this.seen.has(hash)) return;
		this.seen.set(hash, seenAt);
		for (const oldest of this.seen.keys()) {
			if (this.seen.size <= limit) break;
			this.seen.delete(oldest);
		}
	}

	entries(): Array<[string, number]> {
		return [...this.seen];
	}
}

/** The process's memories, one per scope (workflow, node, test or production), the least recently used forgotten first. */
class DeliveryRegistry {
	private readonly scopes = new Map<string, DeliveryMemory>();

	constructor(private readonly maxScopes = MAX_SCOPES) {}

	scope(scope: string): DeliveryMemory {
		// Node names are as long as the user makes them: the registry keeps a fixed-size fingerprint.
		const key = fingerprint(scope);
		let memory = this.scopes.get(key);
		if (memory === undefined) memory = new DeliveryMemory();
		else this.scopes.delete(key);
		this.scopes.set(key, memory);
		for (const oldest of this.scopes.keys()) {
			if (this.scopes.size <= this.maxScopes) break;
			this.scopes.delete(oldest);
		}
		return memory;
	}

	/**
	 * Forgets everything, as a restart of the process does. Tests stand for a restart with it: the other
	 * way, loading the module afresh, would load a second n8n-workflow beside the engine's.
	 */
	clear(): void {
		this.scopes.clear();
	}
}

/** The one registry of this process; n8n loads a node's module once per process. */
export const DELIVERY_REGISTRY = new DeliveryRegistry();

/** The registry key of a trigger node: a test delivery must never hide the same delivery to the production URL. */
export function scopeKey(workflowId: string | undefined, node: string, test: boolean): string {
	return JSON.stringify([workflowId ?? '', node, test ? 'test' : 'production']);
}

/** Both records, each fingerprint once at its earliest sighting, oldest first, the newest `limit` kept. */
function merge(
	stored: Array<[string, number]>,
	remembered: Array<[string, number]>,
	limit: number,
): Array<[string, number]> {
	const earliest = new Map<string, number>();
	for (const [hash, seenAt] of [...stored, ...remembered]) {
		const known = earliest.get(hash);
		if (known === undefined || seenAt < known) earliest.set(hash, seenAt);
	}
	return [...earliest].sort((a, b) => a[1] - b[1]).slice(-limit);
}

/**
 * Whether `key` was already seen within the window; if not, remembers it (first sighting starts the
 * window, repeats do not extend it). Entries older than the window are dropped, and beyond the cap the
 * oldest go. `store` is the node's static data, changed in place; nothing is written when nothing changed.
 *
 * With `memory`, the process's record counts too, and what is written to `store` is the union of both:
 * the copy a request saves last then carries what requests running beside it accepted. The function
 * never awaits, so nothing can come between the check and the record.
 *
 * @param now the current time in milliseconds
 */
export function seenBefore(
	store: Record<string, unknown>,
	key: string,
	now: number,
	options: DedupeOptions & { memory?: DeliveryMemory },
): boolean {
	if (!(options.windowMs > 0)) return false;
	const nowSeconds = Math.floor(now / 1000);
	const windowSeconds = Math.ceil(options.windowMs / 1000);
	const limit = Math.max(1, Math.floor(options.maxEntries ?? MAX_REMEMBERED));
	const hash = fingerprint(key);
	const { memory } = options;
	memory?.prune(nowSeconds, windowSeconds);

	const current = readRecord(store).filter(([, seenAt]) => nowSeconds - seenAt <= windowSeconds);
	if (memory?.has(hash) || current.some(([entry]) => entry === hash)) return true;

	memory?.add(hash, nowSeconds, limit);
	current.push([hash, nowSeconds]);
	const seen =
		memory === undefined ? current.slice(-limit) : merge(current, memory.entries(), limit);
	const record: DedupeRecord = { v: 1, seen };
	store[DEDUPE_KEY] = record;
	return false;
}
