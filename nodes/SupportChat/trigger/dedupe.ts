import { createHash } from 'crypto';

import { isRecord } from './util';

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
export const DEDUPE_KEY = 'supportChatDeliveries';

/** Hard cap on remembered deliveries; the oldest are forgotten first. Keeps the saved record near 20 kB. */
export const MAX_REMEMBERED = 500;

interface DedupeRecord {
	v: 1;
	/** `[hash of the delivery key, first seen in Unix seconds]`, oldest first. */
	seen: Array<[string, number]>;
}

export interface DedupeOptions {
	/** How long a delivery is remembered, in milliseconds; 0 or less turns suppression off. */
	windowMs: number;
	/** Overrides `MAX_REMEMBERED` (tests). */
	maxEntries?: number;
}

/** A short fixed-size fingerprint: any key length costs the same, and ids are not stored in clear. */
function fingerprint(key: string): string {
	return createHash('sha256').update(key).digest('base64url').slice(0, 16);
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
 * Whether `key` was already seen within the window; if not, remembers it (first sighting starts the
 * window, repeats do not extend it). Entries older than the window are dropped, and beyond the cap the
 * oldest go. `store` is the node's static data, changed in place; nothing is written when nothing changed.
 *
 * @param now the current time in milliseconds
 */
export function seenBefore(
	store: Record<string, unknown>,
	key: string,
	now: number,
	options: DedupeOptions,
): boolean {
	if (!(options.windowMs > 0)) return false;
	const nowSeconds = Math.floor(now / 1000);
	const windowSeconds = Math.ceil(options.windowMs / 1000);
	const limit = Math.max(1, Math.floor(options.maxEntries ?? MAX_REMEMBERED));
	const hash = fingerprint(key);

	const current = readRecord(store).filter(([, seenAt]) => nowSeconds - seenAt <= windowSeconds);
	if (current.some(([entry]) => entry === hash)) return true;

	current.push([hash, nowSeconds]);
	const record: DedupeRecord = { v: 1, seen: current.slice(-limit) };
	store[DEDUPE_KEY] = record;
	return false;
}
