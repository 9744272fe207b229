import type { IHttpRequestMethods } from 'n8n-workflow';

import {
	decideRetry,
	isSafeToRepeat,
	parseRetryAfter,
} from '../../../nodes/SupportChat/transport/retry';

describe('parseRetryAfter', () => {
	const now = Date.parse('2026-11-22T10:00:00Z');
	it.each<[unknown, number | undefined]>([
		['5', 5000],
		['0', 0],
		// RFC 9110 delay-seconds is digits only: anything else falls back to the backoff (issue 8, class 9).
		['1.5', undefined],
		['-5', undefined],
		['+5', undefined],
		['2.', undefined],
		['1,2', undefined],
		['2001', 2001000],
		['99999999999999999999', 1e23],
		[' 12 ', 12000],
		[['3'], 3000],
		['Sun, 22 Nov 2026 10:00:30 GMT', 30000],
		['Sun, 22 Nov 2026 09:59:00 GMT', 0],
		['Sunday, 22-Nov-26 10:00:30 GMT', 30000],
		['Sun Nov 22 10:00:30 2026', 30000],
		['Sun, 22 Nov 2026 10:00:30', undefined],
		['22 Nov 2026 10:00:30 GMT', undefined],
		['soon', undefined],
		['', undefined],
		[undefined, undefined],
	])('%p → %p', (value, expected) => {
		expect(parseRetryAfter(value, now)).toBe(expected);
	});
});

describe('decideRetry', () => {
	const settings = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 10_000 };
	const half = () => 0.5;
	it.each<[string, IHttpRequestMethods, Parameters<typeof decideRetry>[1], number, object]>([
		[
			'429 on a POST, with Retry-After',
			'POST',
			{ kind: 'status', status: 429, retryAfterMs: 2000 },
			1,
			{ retry: true, delayMs: 2000 },
		],
		[
			'429 without Retry-After backs off',
			'GET',
			{ kind: 'status', status: 429 },
			2,
			{ retry: true, delayMs: 150 },
		],
		[
			'429 asking for too long',
			'GET',
			{ kind: 'status', status: 429, retryAfterMs: 3_600_000 },
			1,
			{ retry: false, reason: 'wait-too-long' },
		],
		['500 on GET', 'GET', { kind: 'status', status: 500 }, 1, { retry: true, delayMs: 75 }],
		['503 on PUT', 'PUT', { kind: 'status', status: 503 }, 1, { retry: true }],
		['network failure on DELETE', 'DELETE', { kind: 'network' }, 1, { retry: true }],
		[
			'500 on POST is never repeated',
			'POST',
			{ kind: 'status', status: 500 },
			1,
			{ retry: false, reason: 'unsafe-method' },
		],
		[
			'network failure on POST is never repeated',
			'POST',
			{ kind: 'network' },
			1,
			{ retry: false, reason: 'unsafe-method' },
		],
		[
			'404 is final',
			'GET',
			{ kind: 'status', status: 404 },
			1,
			{ retry: false, reason: 'not-retryable' },
		],
		[
			'attempts run out',
			'GET',
			{ kind: 'status', status: 500 },
			3,
			{ retry: false, reason: 'attempts-exhausted' },
		],
	])('%s', (_name, method, outcome, attempt, expected) => {
		expect(decideRetry(isSafeToRepeat(method), outcome, attempt, settings, half)).toMatchObject(
			expected,
		);
	});

	it('never waits longer than the cap', () => {
		const decision = decideRetry(
			true,
			{ kind: 'network' },
			30,
			{ ...settings, maxAttempts: 99 },
			() => 1,
		);
		expect(decision).toEqual({ retry: true, delayMs: 10_000 });
	});
});
