/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * With n8n's SSRF protection on, a service on a private or loopback address is refused by n8n itself:
 * the node says so, names the setting that allows it, and does not retry.
 */
import { SsrfProtectionConfig } from '@n8n/config';
import { Container } from '@n8n/di';

import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { byId, runAction, TOKEN } from '../helpers/supportChat';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ token: TOKEN, seed: { users: 2 } });
	// The engine helpers allow loopback for every other test; this file, in its own module registry, takes it back.
	const ssrf = Container.get(SsrfProtectionConfig);
	ssrf.enabled = true;
	ssrf.allowedIpRanges = [];
});
afterAll(async () => await sandbox.close());

it('names N8N_SSRF_ALLOWED_HOSTNAMES and N8N_SSRF_ALLOWED_IP_RANGES, and sends nothing', async () => {
	const run = await runAction(sandbox, { resource: 'user', operation: 'get', userId: byId('u_1') });
	expect(run.status).toBe('error');
	const error = run.error('Support Chat');
	expect(error?.message).toMatch(/^n8n's SSRF protection refused GET \/users\/u_1: /);
	expect(error?.description).toMatch(/N8N_SSRF_ALLOWED_HOSTNAMES=127\.0\.0\.1/);
	expect(error?.description).toMatch(/N8N_SSRF_ALLOWED_IP_RANGES/);
	expect(sandbox.requests).toHaveLength(0);
});
