import { normalizeBaseUrl } from '../../nodes/SupportChat/transport/baseUrl';
import { extractErrorMessage, failureInBody, hintForStatus } from '../../nodes/SupportChat/transport/errors';
import { RateLimiter } from '../../nodes/SupportChat/transport/limits';
import type { IHttpRequestMethods } from 'n8n-workflow';

import { decideRetry, isSafeToRepeat, parseRetryAfter } from '../../nodes/SupportChat/transport/retry';

describe('normalizeBaseUrl', () => {
	it.each([
		['https://chat.example.com', 'https://chat.example.com/script/include/api'],
		['https://chat.example.com/', 'https://chat.example.com/script/include/api'],
		['https://chat.example.com/script/include/api', 'https://chat.example.com/script/include/api'],
		['https://chat.example.com/script/include/api/', 'https://chat.example.com/script/include/api'],
		['  https://chat.example.com/support/script/include/api//  ', 'https://chat.example.com/support/script/include/api'],
		['https://chat.example.com:8443/sub', 'https://chat.example.com:8443/sub/script/include/api'],
		['http://localhost:5678', 'http://localhost:5678/script/include/api'],
		['http://127.0.0.1:5678/script/include/api', 'http://127.0.0.1:5678/script/include/api'],
		['http://[::1]:5678', 'http://[::1]:5678/script/include/api'],
	])('%s → %s', (input, expected) => {
		expect(normalizeBaseUrl(input)).toEqual({ ok: true, url: expected });
	});

	it.each([
		['', /empty/],
		['chat.example.com', /not a valid URL/],
		['ftp://chat.example.com', /must start with https/],
		['http://chat.example.com', /only reachable over HTTPS.*Allow Plain HTTP/],
		['http://10.0.0.5', /Allow Plain HTTP/],
	])('refuses %p', (input, message) => {
		const result = normalizeBaseUrl(input);
		expect(result.ok).toBe(false);
		expect(!result.ok && result.message).toMatch(message);
	});

	it('accepts plain HTTP on another host only when the user opted in', () => {
		expect(normalizeBaseUrl('http://chat.internal', true)).toEqual({ ok: true, url: 'http://chat.internal/script/include/api' });
	});
});

describe('extractErrorMessage', () => {
	it.each<[string, unknown, string | undefined]>([
		['message', { message: 'User not found' }, 'User not found'],
		['error string', { error: 'invalid_token' }, 'invalid_token'],
		['error object', { error: { code: 42, message: 'Bad assignee' } }, 'Bad assignee'],
		['errors[] with field', { errors: [{ field: 'email', message: 'is invalid' }] }, 'email: is invalid'],
		['errors[] of strings', { errors: ['a', 'b'] }, 'a; b'],
		['detail', { detail: 'Not allowed' }, 'Not allowed'],
		['envelope', { success: false, response: { message: 'Conversation is closed' } }, 'Conversation is closed'],
		['validation map', { email: ['is taken'], phone: 'bad' }, 'email: is taken; phone: bad'],
		['plain text', 'Service Unavailable', 'Service Unavailable'],
		['HTML page', '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>', 'Bad Gateway'],
		['HTML without heading', '<html><head><title>Oops</title></head></html>', 'Oops'],
		['nothing', {}, undefined],
		['undefined', undefined, undefined],
	])('from %s', (_name, body, expected) => {
		expect(extractErrorMessage(body)).toBe(expected);
	});

	it('clips very long messages', () => {
		expect(extractErrorMessage({ message: 'x'.repeat(1000) })!.length).toBeLessThanOrEqual(300);
	});
});

describe('failureInBody', () => {
	it.each<[unknown, string | undefined]>([
		[{ success: false, error: 'quota exceeded' }, 'quota exceeded'],
		[{ ok: false, message: 'nope' }, 'nope'],
		[{ status: 'error', message: 'broken' }, 'broken'],
		[{ error: 'only an error' }, 'only an error'],
		[{ success: false }, 'the service reported a failure without a message'],
		[{ success: true, response: { id: 1 } }, undefined],
		[{ id: 1, error: null }, undefined],
		[{ data: [], error: 'partial' }, undefined],
		[{ status: 'active', id: 'c1' }, undefined],
		[[1, 2], undefined],
	])('%j → %p', (body, expected) => {
		expect(failureInBody(body)).toBe(expected);
	});
});

describe('hintForStatus', () => {
	it.each([
		[401, /token/],
		[403, /permission|not allowed/],
		[404, /user was not found.*ID/],
		[422, /field/],
		[429, /Requests per Second/],
		[503, /retried automatically.*not/],
	])('%i', (status, hint) => {
		expect(hintForStatus(status, 'user')).toMatch(hint);
	});
});

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
		['429 on a POST, with Retry-After', 'POST', { kind: 'status', status: 429, retryAfterMs: 2000 }, 1, { retry: true, delayMs: 2000 }],
		['429 without Retry-After backs off', 'GET', { kind: 'status', status: 429 }, 2, { retry: true, delayMs: 150 }],
		['429 asking for too long', 'GET', { kind: 'status', status: 429, retryAfterMs: 3_600_000 }, 1, { retry: false, reason: 'wait-too-long' }],
		['500 on GET', 'GET', { kind: 'status', status: 500 }, 1, { retry: true, delayMs: 75 }],
		['503 on PUT', 'PUT', { kind: 'status', status: 503 }, 1, { retry: true }],
		['network failure on DELETE', 'DELETE', { kind: 'network' }, 1, { retry: true }],
		['500 on POST is never repeated', 'POST', { kind: 'status', status: 500 }, 1, { retry: false, reason: 'unsafe-method' }],
		['network failure on POST is never repeated', 'POST', { kind: 'network' }, 1, { retry: false, reason: 'unsafe-method' }],
		['404 is final', 'GET', { kind: 'status', status: 404 }, 1, { retry: false, reason: 'not-retryable' }],
		['attempts run out', 'GET', { kind: 'status', status: 500 }, 3, { retry: false, reason: 'attempts-exhausted' }],
	])('%s', (_name, method, outcome, attempt, expected) => {
		expect(decideRetry(isSafeToRepeat(method), outcome, attempt, settings, half)).toMatchObject(expected);
	});

	it('never waits longer than the cap', () => {
		const decision = decideRetry(true, { kind: 'network' }, 30, { ...settings, maxAttempts: 99 }, () => 1);
		expect(decision).toEqual({ retry: true, delayMs: 10_000 });
	});
});

describe('RateLimiter', () => {
	// The test's clock, so that a start is read exactly when it is granted: a real clock read a moment
	// after the grant can cross a millisecond and show 99 ms between starts 100 ms apart.
	beforeEach(() => jest.useFakeTimers({ now: 0 }));
	afterEach(() => jest.useRealTimers());

	it('keeps a whole interval between starts even when a stalled event loop wakes its waiters together', async () => {
		const limiter = new RateLimiter(10);
		const starts: number[] = [];
		const waiters = [0, 1, 2, 3].map(() => limiter.wait().then(() => starts.push(Date.now())));
		// The first start is granted at once; the others all sleep until the same moment.
		await waiters[0];
		// A stall, as a busy n8n process has: the clock moves on while no timer runs, so the waiters'
		// timers come due together, and they wake together.
		jest.setSystemTime(350);
		await jest.advanceTimersByTimeAsync(1000);
		await Promise.all(waiters);
		expect(starts).toHaveLength(4);
		for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(100);
	});
});
