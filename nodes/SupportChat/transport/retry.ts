import type { IHttpRequestMethods } from 'n8n-workflow';

/**
 * Methods the spec's operations use that can be repeated without a second effect: reads, a PUT that
 * sets the same fields again, a DELETE of the same record. A POST (create user, send message, add tag,
 * assign, close) is never repeated after an ambiguous failure: the service may have done it already.
 */
const SAFE_TO_REPEAT: ReadonlySet<IHttpRequestMethods> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

export function isSafeToRepeat(method: IHttpRequestMethods): boolean {
	return SAFE_TO_REPEAT.has(method);
}

/**
 * The retry rule in words. The hint after a server error (./errors) reads it from here; Max Attempts
 * repeats it as a literal (n8n's linter reads descriptions statically) and so does
 * docs/errors-and-limits.md; a test holds both to this text. The code is `decideRetry` below,
 * with `isSafeToRepeat` (and, for Support Board, its wire's function table).
 */
export const RETRY_RULE =
	'A 429 is retried on any request. Server errors, network failures and timeouts are retried only where repeating does nothing twice: reads, updates and deletes (with Support Board, its reads, update-user and delete-user), never creations, messages, tags, assignments or closings. A delete retried after its first attempt went through finds nothing, which counts as deleted.';

/** The three forms of an HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms. */
const HTTP_DATES: readonly RegExp[] = [
	/^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
	/^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \d{2}-(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
	/^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [\d ]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];
const DELAY_SECONDS = /^\d+$/;

/**
 * Reads a Retry-After header (RFC 9110 §10.2.3): delay-seconds (digits only) or an HTTP-date.
 * Returns milliseconds to wait (never negative), or undefined when the header is absent or is neither:
 * `-5`, `+5`, `2.` or `1,2` are not read as dates (Date.parse would take them for years past and retry
 * at once), and the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: unknown, nowMs: number): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' && typeof text !== 'number') return undefined;
	const trimmed = String(text).trim();
	if (DELAY_SECONDS.test(trimmed)) return Number(trimmed) * 1000;
	if (trimmed.length > 40 || !HTTP_DATES.some((form) => form.test(trimmed))) return undefined;
	// asctime carries no zone: it is GMT by definition.
	const date = Date.parse(trimmed.endsWith('GMT') ? trimmed : `${trimmed} GMT`);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - nowMs);
}

export interface RetrySettings {
	/** Total attempts including the first one. */
	maxAttempts: number;
	/** First backoff delay; doubles on each further attempt. */
	baseDelayMs: number;
	/** Longest wait the node accepts, for backoff and for Retry-After alike. */
	maxDelayMs: number;
}

export type AttemptOutcome =
	| { kind: 'status'; status: number; retryAfterMs?: number }
	| { kind: 'network' };

type RetryDecision =
	| { retry: true; delayMs: number }
	| {
			retry: false;
			reason: 'not-retryable' | 'attempts-exhausted' | 'unsafe-method' | 'wait-too-long';
			waitMs?: number;
	  };

/**
 * The retry rule, in one place:
 * - 429 on any method: the service refused before doing anything. Wait Retry-After when given, else back off.
 * - 5xx and network failures: only for a request safe to repeat (by its method, see SAFE_TO_REPEAT,
 *   or as its API's wire knows it, see ../apis).
 * - anything else: not retried.
 * Backoff is exponential with "equal jitter" (AWS architecture blog, "Exponential Backoff And Jitter"): at least half the step, so a retry never hammers at once.
 * `random` is injected so the rule is testable.
 */
export function decideRetry(
	repeatable: boolean,
	outcome: AttemptOutcome,
	attempt: number,
	settings: RetrySettings,
	random: () => number = Math.random,
): RetryDecision {
	const rateLimited = outcome.kind === 'status' && outcome.status === 429;
	const transient =
		outcome.kind === 'network' || (outcome.kind === 'status' && outcome.status >= 500);
	if (!rateLimited && !transient) return { retry: false, reason: 'not-retryable' };
	if (!rateLimited && !repeatable) return { retry: false, reason: 'unsafe-method' };
	if (attempt >= settings.maxAttempts) return { retry: false, reason: 'attempts-exhausted' };

	const told = outcome.kind === 'status' ? outcome.retryAfterMs : undefined;
	if (told !== undefined) {
		if (told > settings.maxDelayMs) return { retry: false, reason: 'wait-too-long', waitMs: told };
		return { retry: true, delayMs: told };
	}
	const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
	return { retry: true, delayMs: Math.round(ceiling / 2 + (random() * ceiling) / 2) };
}

/** What a message adds about the retries behind it: why the rule stopped, in the rule's own words. */
export function describeRetries(decision: RetryDecision, attempts: number, what: string): string {
	if (decision.retry) return '';
	switch (decision.reason) {
		case 'attempts-exhausted':
			return ` (gave up after ${attempts} attempts)`;
		case 'unsafe-method':
			return ` (${what} not retried: the service may already have done it, and repeating could do it twice)`;
		case 'wait-too-long':
			return ` (the service asked to wait ${Math.ceil((decision.waitMs ?? 0) / 1000)} s, longer than "Max Retry Wait")`;
		default:
			return '';
	}
}
