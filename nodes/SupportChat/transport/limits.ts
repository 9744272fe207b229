import { sleep } from 'n8n-workflow';

import type { RetrySettings } from './retry';

/**
 * What bounds the client: how often it asks, how long an answer may take, how large it may be. One
 * home for the defaults, which the option descriptions repeat as literals (a unit test checks).
 */

export const MEGABYTE = 1024 * 1024;

export interface ClientSettings extends RetrySettings {
	/** Client-side ceiling on request rate, as the spec recommends (§8); 0 means none. */
	requestsPerSecond: number;
	/** Deadline for one whole answer, from sending the request to its last byte. */
	timeoutMs: number;
	/** Largest answer read, counted after decompression. */
	maxResponseBytes: number;
}

export const DEFAULT_CLIENT_SETTINGS: ClientSettings = {
	maxAttempts: 4,
	baseDelayMs: 500,
	maxDelayMs: 60_000,
	requestsPerSecond: 0,
	timeoutMs: 60_000,
	maxResponseBytes: 32 * MEGABYTE,
};

/**
 * For what the editor waits on (the credential test, a From List picker): one retry at most and a
 * short deadline, with the nodes' own size bound.
 */
export const INTERACTIVE_CLIENT_SETTINGS: ClientSettings = {
	...DEFAULT_CLIENT_SETTINGS,
	maxAttempts: 2,
	maxDelayMs: 2_000,
	timeoutMs: 15_000,
};

/**
 * The longest delay a timer takes (2^31 - 1 ms, about 24.8 days): a longer one fires at once, so a
 * Timeout or Max Retry Wait beyond it would fail every request immediately, or retry without waiting.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Spaces requests evenly so that no more than `requestsPerSecond` start in any second. One limiter
 * is shared by all items and all pages of an execution, so concurrent page fetches respect it too.
 */
export class RateLimiter {
	private lastStart = -Infinity;

	constructor(private readonly requestsPerSecond: number) {}

	/**
	 * A start is granted when a whole interval has passed since the previous one started, measured
	 * when it starts rather than planned ahead: a waiter woken late (a busy event loop) must not let
	 * the ones after it catch up in a burst. Concurrent waiters woken together re-check, and all but
	 * one sleep again.
	 */
	async wait(): Promise<void> {
		if (!(this.requestsPerSecond > 0)) return;
		const interval = 1000 / this.requestsPerSecond;
		for (;;) {
			const now = Date.now();
			const due = this.lastStart + interval;
			if (now >= due) {
				this.lastStart = now;
				return;
			}
			// A rate set by expression far below the editor's minimum asks for more than a timer takes.
			await sleep(Math.min(due - now, MAX_TIMER_MS));
		}
	}
}
