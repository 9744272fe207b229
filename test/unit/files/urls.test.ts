import {
	FileRefused,
	checkFileUrl,
	networkOf,
	pinnedRequest,
} from '../../../nodes/SupportChat/files/urls';
import type { IHttpRequestOptions } from 'n8n-workflow';

// The address the API is called at, as the wires make it: Support Board's endpoint, REST's prefix.
const SB = { baseUrl: 'https://chat.example.com/supportboard/include/api.php', allowHttp: false };
const LOCAL = { baseUrl: 'http://127.0.0.1:8780/script/include/api', allowHttp: false };

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
		// Another port of the Base URL's host is another service of its machine (issue 27), http and https aside.
		[
			'https://chat.example.com:8443/a.png',
			"The attachment https://chat.example.com:8443/a.png is on another port of the Base URL's host",
		],
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
		// The Base URL's own origin, at a loopback or private address: its files, with the token.
		['http://127.0.0.1:8780/uploads/a.txt', LOCAL, 'token http://127.0.0.1:8780/uploads/a.txt'],
		[
			'https://172.16.0.9/a',
			{ baseUrl: 'https://172.16.0.9/sb/include/api.php', allowHttp: false },
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

describe("the Base URL's origin is exempt, and only for its files (issue 27)", () => {
	it('another port of its host is another host: refused when private', () => {
		expect(verdict('http://127.0.0.1:9999/a.txt', LOCAL)).toMatch(/private or loopback address/);
		expect(
			verdict('https://172.16.0.9:8443/a', {
				baseUrl: 'https://172.16.0.9/sb/include/api.php',
				allowHttp: false,
			}),
		).toMatch(/private or loopback address/);
	});

	it.each([
		['https://chat.example.com/supportboard/include/api.php', SB],
		['https://chat.example.com/supportboard/include/ajax.php', SB],
		['https://chat.example.com/supportboard/include/upload.php', SB],
		['https://chat.example.com/supportboard/INCLUDE/api.php', SB],
		['https://chat.example.com/supportboard//include/api.php', SB],
		['https://chat.example.com/supportboard/includ%65/api.php', SB],
		['https://chat.example.com/supportboard/uploads/%2e%2e/include/api.php', SB],
		['https://chat.example.com/supportboard/x/..%2Finclude/api.php', SB],
		['https://chat.example.com/supportboard/include./api.php', SB],
		['https://chat.example.com/supportboard\\include\\api.php', SB],
		['http://127.0.0.1:8780/script/include/api/users', LOCAL],
		['http://127.0.0.1:8780/script/include/api', LOCAL],
		['http://127.0.0.1:8780/script/include/api.php', LOCAL],
		// Path parameters, which servlet containers (Tomcat, Jetty, Spring) drop from each segment.
		['https://chat.example.com/supportboard/include;x=1/api.php', SB],
		['http://127.0.0.1:8780/script;a/include;jsessionid=0/api/users', LOCAL],
		['http://127.0.0.1:8780/script/uploads/..;x/include/api/users', LOCAL],
	])('%s is the API: refused', (url, source) => {
		expect(verdict(url, source)).toMatch(/is in the folder of the service's API/);
	});

	it('files beside the API are fetched with the credentials', () => {
		expect(verdict('https://chat.example.com/supportboard/uploads/include/a.png')).toBe(
			'token https://chat.example.com/supportboard/uploads/include/a.png',
		);
		expect(verdict('http://127.0.0.1:8780/script/uploads/a.png', LOCAL)).toBe(
			'token http://127.0.0.1:8780/script/uploads/a.png',
		);
	});
});

describe('every spelling of a forbidden address (issue 27)', () => {
	it.each([
		'https://localhost./a',
		'https://app.localhost../a',
		'https://LOCALHOST/a',
		'https://127.0.0.1./a',
		'https://198.18.0.1/a',
		'https://198.19.255.255/a',
		'https://192.0.0.8/a',
		'https://192.0.2.1/a',
		'https://198.51.100.7/a',
		'https://203.0.113.9/a',
		'https://224.0.0.1/a',
		'https://240.0.0.1/a',
		'https://255.255.255.255/a',
		'https://[::]/a',
		'https://[fec0::1]/a',
		'https://[ff02::1]/a',
		'https://[2001:db8::1]/a',
		'https://[100::1]/a',
		'https://[::ffff:7f00:1]/a',
		'https://[::127.0.0.1]/a',
		'https://[64:ff9b::7f00:1]/a',
		'https://[64:ff9b::a00:1]/a',
		'https://[64:ff9b:1::1]/a',
		'https://[2002:7f00:1::]/a',
		'https://[2002:c0a8:101::1]/a',
		'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/a',
	])('%s', (url) => {
		expect(verdict(url)).toMatch(/private or loopback address/);
	});

	it.each([
		'https://8.8.8.8/a',
		'https://[2606:4700::1111]/a',
		'https://[64:ff9b::808:808]/a',
		'https://[::ffff:808:808]/a',
		'https://[2002:808:808::1]/a',
		'https://198.20.0.1/a',
		'https://cdn.example.net./a',
	])('%s is public', (url) => {
		expect(verdict(url)).toMatch(/^plain /);
	});
});

describe('quoted addresses are masked before they are cut', () => {
	it('a secret across the cut shows none of its characters', () => {
		const masked = 'S3CRET-token-abcdef';
		const mask = (text: string) => text.split(masked).join('[redacted]');
		const url = `https://cdn.example.net/${'a'.repeat(170)}/${masked}/x.png`;
		const got = checkFileUrl(url, undefined, { ...SB, mask }, false) as FileRefused;
		expect(got.message).toContain('[redacted]'.slice(0, 5));
		expect(got.message).not.toContain(masked.slice(0, 6));
	});
});

const GET = (url: string): IHttpRequestOptions => ({ method: 'GET', url });

/** Helpers as n8n 2.x gives them, whose lookup answers `addresses` (or fails with `error`). */
function helpers(addresses: string[], error?: Error) {
	const asked: string[] = [];
	return {
		asked,
		helpers: {
			httpRequest: async () => ({}),
			getSecureEgressFilter: ((policy?: string) => {
				expect(policy).toBe('enforced');
				const lookup = (name: string, options: object, done: (...args: unknown[]) => void) => {
					asked.push(name);
					expect(options).toEqual({ all: true });
					if (error) done(error, []);
					else
						done(
							null,
							addresses.map((address) => ({ address, family: 4 })),
						);
				};
				return { createSecureLookup: () => lookup };
			}) as never,
		},
	};
}

it('sends to the address checked, the name in Host and, over https, as the TLS server name', async () => {
	const { helpers: h, asked } = helpers(['203.0.114.7']);
	const sent = await pinnedRequest(networkOf(h), GET('https://cdn.example.net.:8443/a?b=1'), 'x');
	expect(asked).toEqual(['cdn.example.net']);
	expect(sent).toMatchObject({
		url: 'https://203.0.114.7:8443/a?b=1',
		headers: { host: 'cdn.example.net.:8443' },
		agentOptions: { servername: 'cdn.example.net' },
	});
});

it('brackets an IPv6 address, and sets no server name over http', async () => {
	const { helpers: h } = helpers(['2606:4700::1111']);
	const sent = await pinnedRequest(networkOf(h), GET('http://cdn.example.net/a'), 'x');
	expect(sent.url).toBe('http://[2606:4700::1111]/a');
	expect(sent.agentOptions).toBeUndefined();
});

it.each([['127.0.0.1'], ['::ffff:10.0.0.1'], ['fe80::1%eth0'], ['8.8.8.8', '192.168.0.1']])(
	'refuses a name with a forbidden address among its answers (%s), without the address',
	async (...addresses) => {
		const { helpers: h } = helpers(addresses);
		const refused = await pinnedRequest(networkOf(h), GET('https://a.example/x'), 'SHOWN').catch(
			(e: unknown) => e,
		);
		expect(refused).toBeInstanceOf(FileRefused);
		expect((refused as FileRefused).message).toMatch(
			/SHOWN could not be downloaded: no answer from its server/,
		);
		expect((refused as FileRefused).message).not.toContain(addresses[addresses.length - 1]);
	},
);

it("n8n's own refusal in the lookup reads the same, without n8n's text", async () => {
	const blocked = Object.assign(new Error('blocked 10.0.0.1'), { name: 'SsrfBlockedIpError' });
	const { helpers: h } = helpers([], blocked);
	const refused = (await pinnedRequest(networkOf(h), GET('https://a.example/x'), 'S').catch(
		(e: unknown) => e,
	)) as FileRefused;
	expect(refused.message).toMatch(/could not be downloaded: no answer from its server/);
	expect(refused.message).not.toContain('10.0.0.1');
});

it('an address as written is not resolved; without an egress filter (n8n 1.x) nothing is', async () => {
	const { helpers: h, asked } = helpers(['8.8.8.8']);
	expect(await pinnedRequest(networkOf(h), GET('https://[2606:4700::1]/a'), 'x')).toEqual(
		GET('https://[2606:4700::1]/a'),
	);
	expect(asked).toEqual([]);
	const plain = networkOf({ httpRequest: async () => ({}) });
	expect(plain.resolve).toBeUndefined();
	expect(await pinnedRequest(plain, GET('https://cdn.example.net/a'), 'x')).toEqual(
		GET('https://cdn.example.net/a'),
	);
});
