import { FileRefused, checkFileUrl } from '../../../nodes/SupportChat/transport/fileUrls';

const SB = { baseUrl: 'https://chat.example.com/supportboard', allowHttp: false };
const LOCAL = { baseUrl: 'http://127.0.0.1:8780', allowHttp: false };

/** What checkFileUrl decides, in a line: `token <url>`, `plain <url>`, or the refusal's message. */
function verdict(
	url: string,
	source: { baseUrl: string; allowHttp: boolean } | undefined = SB,
	otherHosts = true,
	relativeTo?: string,
): string {
	const got = checkFileUrl(url, relativeTo, source, otherHosts);
	if (got instanceof FileRefused) return got.message;
	return `${got.withCredentials ? 'token' : 'plain'} ${got.url}`;
}

describe('the credentials go to the Base URL origin only', () => {
	it.each([
		[
			'https://chat.example.com/supportboard/uploads/a.png',
			'token https://chat.example.com/supportboard/uploads/a.png',
		],
		['https://chat.example.com/elsewhere/a.png', 'token https://chat.example.com/elsewhere/a.png'],
		['/supportboard/uploads/a.png', 'token https://chat.example.com/supportboard/uploads/a.png'],
		['https://chat.example.com:8443/a.png', 'plain https://chat.example.com:8443/a.png'],
		['https://cdn.example.net/a.png', 'plain https://cdn.example.net/a.png'],
		['https://chat.example.com.evil.net/a.png', 'plain https://chat.example.com.evil.net/a.png'],
		[
			'http://chat.example.com/supportboard/uploads/a.png',
			'The attachment http://chat.example.com/supportboard/uploads/a.png is on plain http://',
		],
	])('%s: %s', (url, expected) => {
		expect(verdict(url)).toBe(expected);
	});

	it("without credentials every file is another host's", () => {
		const got = checkFileUrl('https://chat.example.com/a.png', undefined, undefined, true);
		expect(got).toEqual({
			ok: true,
			url: 'https://chat.example.com/a.png',
			withCredentials: false,
		});
		expect(verdict('https://chat.example.com/a.png')).toBe('token https://chat.example.com/a.png');
	});

	it('a redirect is read against where it came from', () => {
		expect(verdict('../b.png', SB, true, 'https://cdn.example.net/x/y/a.png')).toBe(
			'plain https://cdn.example.net/x/b.png',
		);
	});
});

describe('refused', () => {
	it.each([
		['ftp://cdn.example.net/a', /is not http\(s\)/],
		['file:///etc/passwd', /is not http\(s\)/],
		['javascript:alert(1)', /is not http\(s\)/],
		['https://user:pass@cdn.example.net/a', /carries a user name or password/],
		[`https://cdn.example.net/${'a'.repeat(2100)}`, /longer than 2048 characters/],
		['http://cdn.example.net/a', /is on plain http:\/\//],
		['https://10.0.0.5/a', /private or loopback address/],
		['https://192.168.1.1/a', /private or loopback address/],
		['https://172.20.0.1/a', /private or loopback address/],
		['https://169.254.169.254/latest/meta-data', /private or loopback address/],
		['https://100.64.0.1/a', /private or loopback address/],
		['https://0.0.0.0/a', /private or loopback address/],
		['https://127.0.0.1/a', /private or loopback address/],
		['https://2130706433/a', /private or loopback address/],
		['https://0x7f.1/a', /private or loopback address/],
		['https://localhost/a', /private or loopback address/],
		['https://app.localhost/a', /private or loopback address/],
		['https://[::1]/a', /private or loopback address/],
		['https://[fd00::1]/a', /private or loopback address/],
		['https://[fe80::1]/a', /private or loopback address/],
		['https://[::ffff:10.0.0.1]/a', /private or loopback address/],
	])('%s', (url, why) => {
		expect(verdict(url)).toMatch(why);
	});

	it('not a URL', () => {
		expect(checkFileUrl('https://exa mple.com/a', undefined, undefined, true)).toMatchObject({
			message: expect.stringMatching(/is not a URL/),
		});
	});

	it('another host while Download From Other Hosts is off, with the option to change', () => {
		const got = checkFileUrl('https://cdn.example.net/a.png', undefined, SB, false);
		expect(got).toBeInstanceOf(FileRefused);
		expect((got as FileRefused).description).toMatch(/Options → Download From Other Hosts/);
	});

	it('plain http, with the credentials setting to change', () => {
		const got = checkFileUrl('http://cdn.example.net/a.png', undefined, SB, true);
		expect((got as FileRefused).description).toMatch(/Allow Plain HTTP/);
	});
});

describe('allowed by exception', () => {
	it.each([
		// The Base URL's own host at a loopback address: another port is another origin, fetched without the token.
		['http://127.0.0.1:9999/a.txt', LOCAL, 'plain http://127.0.0.1:9999/a.txt'],
		['http://127.0.0.1:8780/uploads/a.txt', LOCAL, 'token http://127.0.0.1:8780/uploads/a.txt'],
		[
			'https://172.16.0.9/a',
			{ baseUrl: 'https://172.16.0.9/sb', allowHttp: false },
			'token https://172.16.0.9/a',
		],
		[
			'http://cdn.intranet.lan/a',
			{ baseUrl: 'https://chat.example.com', allowHttp: true },
			'plain http://cdn.intranet.lan/a',
		],
	])('%s', (url, source, expected) => {
		expect(verdict(url, source)).toBe(expected);
	});
});
