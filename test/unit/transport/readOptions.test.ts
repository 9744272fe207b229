import { clientSettings } from '../../../nodes/SupportChat/transport/readOptions';
import { DEFAULT_CLIENT_SETTINGS } from '../../../nodes/SupportChat/transport/limits';

describe('clientSettings', () => {
	it('takes the defaults when no option is set', () => {
		expect(clientSettings({})).toEqual(DEFAULT_CLIENT_SETTINGS);
	});

	// A timer longer than 2^31 - 1 ms fires at once: such a Timeout would fail every request
	// immediately, and such a Max Retry Wait would retry without waiting.
	it.each([
		[{ timeout: 3_000_000 }, 'timeoutMs', 2_147_483_647],
		[{ timeout: 0.0001 }, 'timeoutMs', 1000],
		[{ maxRetryWait: 1e9 }, 'maxDelayMs', 2_147_483_647],
		[{ maxRetryWait: -5 }, 'maxDelayMs', 0],
		[{ timeout: 30, maxRetryWait: 10 }, 'timeoutMs', 30_000],
	] as const)('%j gives %s %d', (options, key, expected) => {
		expect(clientSettings(options)[key]).toBe(expected);
	});
});
