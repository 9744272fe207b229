/**
 * The redirect policy as a value: where a redirect leads, or why it is refused, with no request sent.
 * The engine tests (test/engine/errors.test.ts, hostile.test.ts) see the same refusals as messages.
 */
import type { IHttpRequestMethods } from 'n8n-workflow';

import { redirectTarget } from '../../../nodes/SupportChat/transport/redirects';

const BASE = 'https://chat.example.com/api';

function follow(
	location: string | undefined,
	method: IHttpRequestMethods = 'GET',
	visited?: string[],
) {
	const from = `${BASE}/users`;
	return redirectTarget({
		method,
		location,
		from,
		baseUrl: BASE,
		visited: new Set(visited ?? [from]),
	});
}

describe('redirectTarget', () => {
	it('follows a read to the same origin, relative or absolute, and remembers it', () => {
		const visited = new Set([`${BASE}/users`]);
		const next = redirectTarget({
			method: 'GET',
			location: '/api/v2/users',
			from: `${BASE}/users`,
			baseUrl: BASE,
			visited,
		});
		expect(next).toBe('https://chat.example.com/api/v2/users');
		expect(visited.has('https://chat.example.com/api/v2/users')).toBe(true);
		expect(follow('https://chat.example.com/other', 'HEAD')).toBe('https://chat.example.com/other');
	});

	it.each([
		['no Location', undefined, 'that says nowhere to go'],
		['a blank Location', '   ', 'that says nowhere to go'],
		['a long address', `/${'a'.repeat(2048)}`, 'to an address longer than 2048 characters'],
		['no URL', 'http://[nope', 'to an address that is not a URL'],
		[
			'another host',
			'https://evil.example.net/steal?x=1',
			"to https://evil.example.net/steal, another address than the Base URL's; the node does not follow it, since the API token would go with it",
		],
		[
			'another scheme',
			'http://chat.example.com/api/users',
			expect.stringContaining('another address than the Base URL'),
		],
	])('refuses %s', (_label, location, refused) => {
		expect(follow(location)).toEqual({ refused, description: expect.stringContaining('Base URL') });
	});

	it('refuses to send a write again, and says it may have been done', () => {
		expect(follow('/api/users/2', 'POST')).toEqual({
			refused:
				'to https://chat.example.com/api/users/2; the node does not send a POST again, so that nothing is done twice',
			description: expect.stringContaining('may or may not have done it'),
		});
	});

	it('refuses a circle, and a chain longer than five', () => {
		expect(follow(`${BASE}/users`)).toMatchObject({
			refused: 'that lead in a circle; stopped following them',
		});
		const six = [1, 2, 3, 4, 5, 6].map((n) => `${BASE}/hop${n}`);
		expect(follow('/api/seventh', 'GET', six)).toMatchObject({
			refused: 'after more than 5 redirects; stopped following them',
		});
	});
});
