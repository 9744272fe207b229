/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Refusals that happen before any request leaves: a next-page link to another origin (the token would
 * go with it), an update with nothing to change, and an extra field or query parameter without a name.
 * Each ends the run with a sentence that says what is wrong, and neither the service nor the other host
 * sees a request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { byId, runAction, TOKEN } from '../helpers/supportChat';

let sandbox: Sandbox;
let elsewhere: http.Server;
let elsewhereOrigin: string;
const reachedElsewhere: string[] = [];

beforeAll(async () => {
	sandbox = await startSandbox({
		token: TOKEN,
		pagination: 'next-url',
		pageSize: 2,
		seed: { users: 5, conversations: 1 },
	});
	elsewhere = http.createServer((req, res) => {
		reachedElsewhere.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"data":[],"next":null}');
	});
	await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
	elsewhereOrigin = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await sandbox.close();
	elsewhere.closeAllConnections();
	await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
});
beforeEach(() => {
	sandbox.reset();
	reachedElsewhere.length = 0;
});

describe('a next-page link to another origin', () => {
	it.each(['next-url', 'link', 'links-next', 'hal'] as const)(
		'"%s" style: refused, the token stays home',
		async (style) => {
			sandbox.configure({ pagination: style, publicOrigin: elsewhereOrigin });
			const run = await runAction(sandbox, {
				resource: 'user',
				operation: 'getAll',
				returnAll: true,
			} as never);
			expect(run.status).toBe('error');
			expect(run.error('Support Chat')).toMatchObject({
				name: 'NodeApiError',
				message: expect.stringContaining('next-page link points to another host (127.0.0.1:'),
				description: expect.stringContaining('parameter-based style'),
			});
			expect(sandbox.requests).toHaveLength(1);
			expect(reachedElsewhere).toEqual([]);
		},
	);

	it('on the service’s own origin: followed as before', async () => {
		sandbox.configure({ pagination: 'next-url', publicOrigin: null });
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'getAll',
			returnAll: true,
		} as never);
		expect(run.status).toBe('success');
		expect(sandbox.requests).toHaveLength(3);
	});
});

describe('an update with no fields', () => {
	it('fails with "No fields to update" before sending anything', async () => {
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'update',
			userId: byId(sandbox.state.users[0].id),
			updateFields: {},
		} as never);
		expect(run.status).toBe('error');
		expect(run.error('Support Chat')).toMatchObject({
			name: 'NodeOperationError',
			message: 'No fields to update',
			description: 'Add at least one field under Update Fields.',
		});
		expect(sandbox.requests).toEqual([]);
	});
});

describe('a name/value row left without a name', () => {
	it.each([
		[
			'an Extra Body Field',
			{
				resource: 'user',
				operation: 'create',
				name: 'Ada',
				email: 'ada@example.com',
				additionalFields: { extraFields: { field: [{ name: '  ', value: 'x' }] } },
			},
			'An extra body field has no name',
		],
		[
			'an Extra Query Parameter',
			{
				resource: 'user',
				operation: 'getAll',
				returnAll: true,
				filters: {
					queryParameters: {
						parameter: [
							{ name: 'plan', value: 'pro' },
							{ name: '', value: 'x' },
						],
					},
				},
			},
			'An extra query parameter has no name',
		],
	])('%s fails the item before sending anything', async (_label, parameters, message) => {
		const run = await runAction(sandbox, parameters as never);
		expect(run.status).toBe('error');
		expect(run.error('Support Chat')).toMatchObject({ name: 'NodeOperationError', message });
		expect(sandbox.requests).toEqual([]);
	});
});
