import { maskUrl, maskUrlsIn } from '../../../nodes/SupportChat/shared/quotedUrls';

describe('maskUrl: a URL as a message may quote it, scheme and host only', () => {
	test.each([
		['alice:s3cret-pw@hooks.example.com/in', 'http://hooks.example.com/…'],
		['https://alice:s3cret-pw@hooks.example.com/in', 'https://hooks.example.com/…'],
		['https://alice:s3cret pw@hooks.example.com/in', 'https://hooks.example.com/…'],
		['https://alice:s3cret@ho st/in?token=abc', '[redacted]'],
		['https://alice:s3cret/x@host/in', '[redacted]'],
		[
			'https://hooks.slack.com/services/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',
			'https://hooks.slack.com/…',
		],
		['https://hooks.zapier.com/hooks/catch/1234567/abcdefg/', 'https://hooks.zapier.com/…'],
		['https://hook.eu1.make.com/lowercasesecret', 'https://hook.eu1.make.com/…'],
		['hooks.slack.com/services/T0123ABCD/B0456EFGH/XyZ', 'http://hooks.slack.com/…'],
		['https://h.test?token=abc', 'https://h.test/…'],
		['https://h.test#frag', 'https://h.test/…'],
		['https://[::1]:8443/api/v1/users', 'https://[::1]:8443/…'],
		['https://h.test\\T0123ABCD', 'https://h.test/…'],
		['https://h.test/', 'https://h.test'],
	])('%s', (url, shown) => {
		expect(maskUrl(url)).toBe(shown);
	});

	test('masks, then cuts', () => {
		expect(maskUrl(`https://${'a'.repeat(30)}.test/secret`, 20)).toBe('https://aaaaaaaaaaaa…');
	});
});

describe('maskUrlsIn: the URLs of free text', () => {
	test.each([
		[
			'Curl error: could not reach alice:s3cret-pw@hooks.example.com/in (timeout)',
			'Curl error: could not reach http://hooks.example.com/… (timeout)',
		],
		[
			'POST https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx failed',
			'POST https://hooks.slack.com/… failed',
		],
		[
			'"hooks.zapier.com/hooks/catch/1234567/3abcdef/" answered 410',
			'"http://hooks.zapier.com/…" answered 410',
		],
		['url=https://h.test/in?token=abc', 'url=https://h.test/…'],
		['a space: https://alice:s3cret pw@h.test/in', 'a space: [redacted] http://h.test/…'],
		['The service answered GET /users/42 with 404', 'The service answered GET /users/42 with 404'],
		['Write to ada@example.com', 'Write to ada@example.com'],
		// A port, a single label with one, a query with no path.
		['to hooks.example.com:8443/in/S3CRETpath', 'to http://hooks.example.com:8443/…'],
		['to localhost:5678/webhook/S3CRETpath', 'to http://localhost:5678/…'],
		['to hooks.example.com?token=S3CRET', 'to http://hooks.example.com/…'],
		// Escaped as PHP's json_encode writes it, or percent-encoded in a query.
		[
			'{"url":"https:\\/\\/hooks.slack.com\\/services\\/T0\\/S3CRET"}',
			'{"url":"https://hooks.slack.com/…"}',
		],
		['next=https%3A%2F%2Fhooks.slack.com%2Fservices%2FS3CRET', 'next=https://hooks.slack.com/…'],
		['next=https%253A%252F%252Fhooks.slack.com%252FS3CRET', 'next=https://hooks.slack.com/…'],
		['and/or 100% sure, a\\/b', 'and/or 100% sure, a\\/b'],
	])('%s', (text, shown) => {
		expect(maskUrlsIn(text)).toBe(shown);
	});

	test('takes linear time on long hostile text', () => {
		const started = Date.now();
		maskUrlsIn(`${'a'.repeat(100_000)}:${'b'.repeat(100_000)} ${'x.'.repeat(50_000)}/`);
		maskUrlsIn(`${'ab:'.repeat(50_000)}@`);
		maskUrlsIn(`${'ab://'.repeat(50_000)}`);
		expect(Date.now() - started).toBeLessThan(2000);
	});
});
