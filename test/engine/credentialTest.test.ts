/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The credential dialog's test (issue 9), run as n8n runs it: the nodes' `testedBy` function under
 * n8n-core's CredentialTestContext, against the sandbox. What it answers is what the dialog shows.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SecretMask } from '../../nodes/SupportChat/shared/secrets';
import { hintForStatus } from '../../nodes/SupportChat/transport/errors';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import { SupportChatTrigger } from '../../nodes/SupportChat/SupportChatTrigger.node';
import type { ErrorStyle, Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { testCredentials } from '../helpers/engine';
import { ACTION_TYPE, calls, TOKEN, TRIGGER_TYPE } from '../helpers/supportChat';

const WRONG_TOKEN = 'wrong-token-7c1e93';

let sandbox: Sandbox;
/** Another origin a redirect may point to; it must hear nothing. */
let other: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ token: TOKEN, seed: { users: 2, conversations: 1 } });
	other = await startSandbox({ token: TOKEN });
});
afterAll(async () => {
	await sandbox.close();
	await other.close();
});
beforeEach(() => {
	sandbox.reset();
	other.reset();
});

const test = (data: IDataObject = {}) =>
	testCredentials({
		credentialType: new SupportChatApi(),
		nodeTypes: { [ACTION_TYPE]: new SupportChat(), [TRIGGER_TYPE]: new SupportChatTrigger() },
		data: {
			baseUrl: sandbox.origin,
			apiToken: TOKEN,
			allowHttp: false,
			webhookSecret: '',
			...data,
		},
	});

function expectNoSecret(text: string, secret: string): void {
	// No form of the secret the mask knows (raw, URL-encoded, base64) is in the text.
	expect(new SecretMask([secret]).found(text)).toBe(false);
}

it('the right token: "Connection successful", after one authorised GET /tags', async () => {
	expect(await test()).toEqual({ status: 'OK', message: 'Connection successful' });
	expect(
		sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status} ${r.headers.authorization}`),
	).toEqual(['GET /tags 200 Bearer ***']);
});

it('the Base URL may be typed with the API path and a trailing slash', async () => {
	expect(await test({ baseUrl: `${sandbox.origin}/script/include/api/` })).toMatchObject({
		status: 'OK',
	});
});

describe('a wrong token: the service’s own message, then what to check; the token nowhere', () => {
	it.each<ErrorStyle>(['message', 'error', 'errors', 'detail', 'text'])(
		'error bodies in the %s style',
		async (errorStyle) => {
			sandbox.configure({ errorStyle });
			const result = await test({ apiToken: WRONG_TOKEN });
			expect(result).toEqual({
				status: 'Error',
				message: `The service answered GET /tags with 401: Invalid bearer token. ${hintForStatus(401)}`,
			});
			expectNoSecret(JSON.stringify(result), WRONG_TOKEN);
			expect(calls(sandbox)).toEqual(['GET /tags']);
		},
	);

	it('a service that echoes the token in its refusal has it masked', async () => {
		sandbox.fault({
			kind: 'raw',
			status: 403,
			contentType: 'application/json',
			body: JSON.stringify({ message: `token ${TOKEN} may not list tags` }),
		});
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			`The service answered GET /tags with 403: token [redacted] may not list tags. ${hintForStatus(403)}`,
		);
		expectNoSecret(result.message, TOKEN);
	});
});

describe('answers that are not the API', () => {
	it('a redirect to another origin is not followed: the token goes nowhere else, and the message says where it pointed', async () => {
		sandbox.fault({
			kind: 'redirect',
			status: 302,
			location: `${other.origin}/script/include/api/tags`,
		});
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toContain(`redirect (302) to ${other.origin}`);
		expect(result.message).toContain('the API token would go with it');
		expect(other.requests).toEqual([]);
		expect(calls(sandbox)).toEqual(['GET /tags']);
	});

	it('a redirect on the service itself is followed, as the nodes follow it', async () => {
		sandbox.fault({ kind: 'redirect', status: 301, location: '/script/include/api/tags/' });
		expect(await test()).toEqual({ status: 'OK', message: 'Connection successful' });
		expect(other.requests).toEqual([]);
	});

	it('an HTML page answered with 200 (a proxy’s login) is a failure, named by its title', async () => {
		sandbox.fault({
			kind: 'raw',
			contentType: 'text/html',
			body: '<!doctype html><html><head><title>Sign in</title></head><body><form></form></body></html>',
		});
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toContain(
			'The service answered GET /tags with an HTML page instead of JSON ("Sign in")',
		);
		expect(result.message).toContain('Check that the Base URL points at the API');
	});

	it("a huge answer (a gzip bomb) is cut at the nodes' Max Response Size, and not asked again", async () => {
		sandbox.fault({ kind: 'gzip-bomb' });
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toContain('larger than Max Response Size (32 MB); stopped reading it');
		expect(calls(sandbox)).toEqual(['GET /tags']);
	});

	it('a large list of tags (more than a megabyte) is still a success', async () => {
		const tags = Array.from({ length: 40_000 }, (_, i) => ({
			id: `t${i}`,
			name: `tag-number-${i}-of-a-large-service`,
		}));
		expect(JSON.stringify(tags).length).toBeGreaterThan(1024 * 1024 * 2);
		sandbox.fault({ kind: 'raw', contentType: 'application/json', body: JSON.stringify(tags) });
		expect(await test()).toEqual({ status: 'OK', message: 'Connection successful' });
	});

	it('a 404 says the Base URL is not the API', async () => {
		const result = await test({ baseUrl: `${sandbox.origin}/wrong` });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The service answered GET \/tags with 404: No such path: \/wrong\/script\/include\/api\/tags\. There is no Support Chat API at this Base URL\./,
		);
	});
});

describe('before or without an answer', () => {
	it.each([
		['empty', '', 'The Base URL in the Support Chat API credentials is empty'],
		['not a URL', 'chat example com', 'is not a valid URL; it should look like https://'],
		['plain HTTP to another host', 'http://chat.example.com', 'turn on "Allow Plain HTTP"'],
	])(
		'a Base URL that is %s: says what to change, sends nothing',
		async (_label, baseUrl, expected) => {
			const result = await test({ baseUrl });
			expect(result.status).toBe('Error');
			expect(result.message).toContain(expected);
			expect(sandbox.requests).toEqual([]);
		},
	);

	// n8n's NodeApiError words a refused connection itself, as it does in a workflow run.
	it('nothing listening: the connection was refused, with what to check', async () => {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		await new Promise<void>((resolve) => server.close(() => resolve()));
		const result = await test({ baseUrl: `http://127.0.0.1:${port}` });
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			`The service refused the connection - perhaps it is offline. ${hintForStatus(undefined)}`,
		);
	});
});
