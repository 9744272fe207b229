import { RateLimiter } from '../../../nodes/SupportChat/transport/limits';

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
		for (let i = 1; i < starts.length; i++)
			expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(100);
	});
});
