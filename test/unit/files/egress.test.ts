import type { IHttpRequestOptions } from 'n8n-workflow';

import { networkOf, pinnedRequest } from '../../../nodes/SupportChat/files/egress';
import { FileRefused } from '../../../nodes/SupportChat/files/urls';

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
