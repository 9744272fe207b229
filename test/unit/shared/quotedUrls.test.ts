import { maskUrl, maskUrlsIn } from '../../../nodes/SupportChat/shared/quotedUrls';

describe('maskUrl: a URL as a message may quote it', () => {
	test.each([
		['alice:s3cret-pw@hooks.example.com/in', '[redacted]@hooks.example.com/in'],
		['https://alice:s3cret-pw@hooks.example.com/in', 'https://[redacted]@hooks.example.com/in'],
		[
			'https://alice:s3cret pw@hooks.example.com/in put',
			'https://[redacted]@hooks.example.com/[redacted]',
		],
		[
			'https://hooks.slack.com/services/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',
			'https://hooks.slack.com/services/[redacted]/[redacted]/[redacted]',
		],
		['https://alice:s3cret@ho st/in?token=abc def', 'https://[redacted]@ho st/in?token=[redacted]'],
		['https://alice:s3cret/x@host/in', 'https://alice:[redacted]/[redacted]/in'],
		[
			'https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx',
			'https://hooks.slack.com/services/[redacted]/[redacted]/[redacted]',
		],
		[
			'https://hooks.zapier.com/hooks/catch/1234567/3abcdef/',
			'https://hooks.zapier.com/hooks/catch/[redacted]/[redacted]/',
		],
		[
			'https://hook.eu1.make.com/abcdefghijklmnopqrstuvwxyzabcdef',
			'https://hook.eu1.make.com/[redacted]',
		],
		[
			'hooks.slack.com/services/T0123ABCD/B0456EFGH/XyZ',
			'hooks.slack.com/services/[redacted]/[redacted]/XyZ',
		],
		[
			'https://n8n.example.com/webhook/support-chat#frag',
			'https://n8n.example.com/webhook/support-chat',
		],
		['https://[::1]:8443/api/v1/users', 'https://[::1]:8443/api/v1/users'],
		['https://h.test/a?x=1&flag&=2', 'https://h.test/a?x=[redacted]&[redacted]&=[redacted]'],
		['https://h.test\\T0123ABCD', 'https://h.test\\[redacted]'],
	])('%s', (url, shown) => {
		expect(maskUrl(url)).toBe(shown);
	});

	test('masks, then cuts', () => {
		const url = `https://alice:${'p'.repeat(200)}@h.test/in`;
		expect(maskUrl(url, 20)).toBe('https://[redacted]@h…');
	});

	test('takes linear time on a long hostile URL', () => {
		const started = Date.now();
		maskUrl(`${'a:'.repeat(50_000)}@${'/b'.repeat(50_000)}?${'&c='.repeat(50_000)}`);
		expect(Date.now() - started).toBeLessThan(1000);
	});
});

describe('maskUrlsIn: the URLs of free text', () => {
	test.each([
		[
			'Curl error: could not reach alice:s3cret-pw@hooks.example.com/in (timeout)',
			'Curl error: could not reach [redacted]@hooks.example.com/in (timeout)',
		],
		[
			'POST https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx failed',
			'POST https://hooks.slack.com/services/[redacted]/[redacted]/[redacted] failed',
		],
		[
			'"hooks.zapier.com/hooks/catch/1234567/3abcdef/" answered 410',
			'"hooks.zapier.com/hooks/catch/[redacted]/[redacted]/" answered 410',
		],
		['The service answered GET /users/42 with 404', 'The service answered GET /users/42 with 404'],
		['Write to ada@example.com', 'Write to ada@example.com'],
	])('%s', (text, shown) => {
		expect(maskUrlsIn(text)).toBe(shown);
	});

	test('takes linear time on long hostile text', () => {
		const started = Date.now();
		maskUrlsIn(`${'a'.repeat(100_000)}:${'b'.repeat(100_000)} ${'x.'.repeat(50_000)}`);
		maskUrlsIn(`${'ab:'.repeat(50_000)}`);
		expect(Date.now() - started).toBeLessThan(1000);
	});
});
