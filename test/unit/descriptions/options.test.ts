import { paginationOptions, requestOptions } from '../../../nodes/SupportChat/descriptions/options';
import { DEFAULT_CLIENT_SETTINGS } from '../../../nodes/SupportChat/transport/limits';
import { DEFAULT_PAGINATION } from '../../../nodes/SupportChat/transport/pagination/styles';

// The editor shows the literal defaults of the options; the transport falls back to its own
// constants when an option is not set. Both must say the same thing.
describe('option defaults', () => {
	const defaults = Object.fromEntries(
		[...requestOptions, ...paginationOptions].map((p) => [p.name, p.default]),
	);

	it('match the transport', () => {
		expect(defaults).toMatchObject({
			maxAttempts: DEFAULT_CLIENT_SETTINGS.maxAttempts,
			maxRetryWait: DEFAULT_CLIENT_SETTINGS.maxDelayMs / 1000,
			timeout: DEFAULT_CLIENT_SETTINGS.timeoutMs / 1000,
			requestsPerSecond: DEFAULT_CLIENT_SETTINGS.requestsPerSecond,
			maxResponseSize: DEFAULT_CLIENT_SETTINGS.maxResponseBytes / (1024 * 1024),
			paginationStyle: DEFAULT_PAGINATION.style,
			pageParam: DEFAULT_PAGINATION.pageParam,
			offsetParam: DEFAULT_PAGINATION.offsetParam,
			limitParam: DEFAULT_PAGINATION.limitParam,
			pageSize: DEFAULT_PAGINATION.pageSize,
			firstPage: DEFAULT_PAGINATION.firstPage,
			maxPages: DEFAULT_PAGINATION.maxPages,
			concurrency: DEFAULT_PAGINATION.concurrency,
			itemsPath: DEFAULT_PAGINATION.itemsPath,
			nextPath: DEFAULT_PAGINATION.nextPath,
			cursorParam: DEFAULT_PAGINATION.cursorParam,
		});
	});
});
