import { EVENT_CLAIMS } from '../../../nodes/SupportChat/shared/claims';

const HOUR = 60 * 60_000;

describe('EVENT_CLAIMS: one of the two triggers of a workflow runs an event', () => {
	beforeEach(() => EVENT_CLAIMS.clear());

	it('the first claimant wins; the other is refused; a claimant repeating its own claim is not', () => {
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:7', 'webhook', 0)).toBe(true);
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:7', 'poll', 1)).toBe(false);
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:7', 'webhook', 2)).toBe(true);
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:8', 'poll', 3)).toBe(true);
		expect(EVENT_CLAIMS.claim('w1', 'messageCreated:8', 'webhook', 4)).toBe(false);
	});

	it("workflows do not see each other's claims", () => {
		expect(EVENT_CLAIMS.claim('w1', 'userCreated:1', 'webhook', 0)).toBe(true);
		expect(EVENT_CLAIMS.claim('w2', 'userCreated:1', 'poll', 0)).toBe(true);
	});

	it('a claim is kept for two days, then forgotten; a restart (clear) forgets all', () => {
		EVENT_CLAIMS.claim('w1', 'userCreated:1', 'webhook', 0);
		expect(EVENT_CLAIMS.claim('w1', 'userCreated:1', 'poll', 47 * HOUR)).toBe(false);
		EVENT_CLAIMS.claim('w1', 'userCreated:2', 'webhook', 0);
		expect(EVENT_CLAIMS.claim('w1', 'userCreated:2', 'poll', 49 * HOUR)).toBe(true);
		EVENT_CLAIMS.claim('w1', 'userCreated:3', 'webhook', 49 * HOUR);
		EVENT_CLAIMS.clear();
		expect(EVENT_CLAIMS.claim('w1', 'userCreated:3', 'poll', 49 * HOUR)).toBe(true);
	});

	it('at most 20,000 claims a workflow are kept, the oldest forgotten first, whatever the keys', () => {
		const long = 'x'.repeat(1_000);
		for (let i = 0; i <= 20_000; i++) EVENT_CLAIMS.claim('w1', `${long}${i}`, 'webhook', i);
		expect(EVENT_CLAIMS.claim('w1', `${long}0`, 'poll', 20_001)).toBe(true);
		expect(EVENT_CLAIMS.claim('w1', `${long}20000`, 'poll', 20_002)).toBe(false);
	});
});
