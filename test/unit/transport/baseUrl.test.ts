import { normalizeBaseUrl } from '../../../nodes/SupportChat/transport/baseUrl';

describe('normalizeBaseUrl', () => {
	it.each([
		['https://chat.example.com', 'https://chat.example.com/script/include/api'],
		['https://chat.example.com/', 'https://chat.example.com/script/include/api'],
		['https://chat.example.com/script/include/api', 'https://chat.example.com/script/include/api'],
		['https://chat.example.com/script/include/api/', 'https://chat.example.com/script/include/api'],
		[
			'  https://chat.example.com/support/script/include/api//  ',
			'https://chat.example.com/support/script/include/api',
		],
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
		expect(normalizeBaseUrl('http://chat.internal', true)).toEqual({
			ok: true,
			url: 'http://chat.internal/script/include/api',
		});
	});
});
