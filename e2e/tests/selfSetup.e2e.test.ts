/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { randomUUID } from 'node:crypto';

import { startN8n, type N8nInstance } from '../harness';
import { deployWorkflow, TRIGGER_TYPE } from '../support';
import { startSandbox, type Sandbox } from '../../sandbox';

/*
 * Set Up Webhook in Support Board in a real n8n 2.41: the sandbox's Support Board mode starts with its
 * webhook settings pointing at another URL (a capture server's, a token in its query). Publishing a
 * workflow whose trigger sets itself up is refused, naming that URL with its token masked, and writes
 * nothing; with Replace Another URL, publishing writes the Production URL, the Secret key and the
 * events, a visitor's chat then runs the workflow through the product's own webhooks, and unpublishing
 * puts the whole get-settings answer back byte for byte.
 */

const TOKEN = 'sb-e2e-self-setup-token-3c4d';
const KEY = 'sb-e2e-self-setup-key-8e9f';
const OTHER_URL = 'http://127.0.0.1:9/capture/support-board?token=capture-token-7788';
const OTHER_KEY = 'sb-e2e-other-key-0011';
const CREDENTIALS = 'Support Board Self Setup';

let n8n: N8nInstance;
let sandbox: Sandbox;
const known = new Set<string>();

async function rawSettings(): Promise<string> {
	const response = await fetch(sandbox.supportBoard!.apiUrl, {
		method: 'POST',
		body: JSON.stringify({ function: 'get-settings', token: TOKEN }),
	});
	return await response.text();
}

/**
 * The settings once they are `expected`: n8n 2.41 unpublishes through its outbox, so the API answers
 * before the trigger's webhooks are removed. What they were when the wait ended, if never.
 */
async function settingsBecome(expected: string, timeoutMs = 30_000): Promise<string> {
	const start = Date.now();
	for (;;) {
		const now = await rawSettings();
		if (now === expected || Date.now() - start > timeoutMs) return now;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** A workflow of one trigger that sets itself up, imported and (unless told not to) published. */
async function deploy(replaceOtherUrl: boolean, publish: boolean) {
	const workflow = {
		name: `self setup ${replaceOtherUrl ? 'replacing' : 'polite'}`,
		nodes: [
			{
				id: randomUUID(),
				name: 'Support Board events',
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0] as [number, number],
				webhookId: randomUUID(),
				parameters: {
					events: ['*'],
					verification: 'bodyField',
					setUpWebhook: true,
					replaceOtherUrl,
					options: {},
				},
				credentials: { supportChatApi: { name: CREDENTIALS } },
			},
		],
		connections: {},
	};
	return await deployWorkflow(n8n, sandbox, workflow, {
		known,
		publish,
		credentials: {
			api: 'supportBoard',
			baseUrl: sandbox.supportBoard!.installUrl,
			apiToken: TOKEN,
			allowHttp: false,
			webhookSecret: KEY,
		},
	});
}

beforeAll(async () => {
	sandbox = await startSandbox({ api: 'support-board', token: TOKEN, seed: { users: 3 } });
	sandbox.supportBoard!.configureWebhooks({
		url: OTHER_URL,
		key: OTHER_KEY,
		active: true,
		allowed: 'message-sent',
	});
	n8n = await startN8n({ mode: 'regular', packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR });
});

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

test('another URL is there: publishing is refused naming its host and Replace Another URL, and nothing is written', async () => {
	const before = await rawSettings();
	const polite = await deploy(false, false);
	const refused = await n8n.publishWorkflow(polite.id).then(
		() => undefined,
		(error: Error) => error,
	);
	expect(refused?.message).toMatch(/already sends its webhooks to another URL/);
	// n8n's publication status shows the message alone: the option that overrides the refusal is in it.
	expect(refused?.message).toContain('turn on Replace Another URL');
	expect(refused?.message).toContain('http://127.0.0.1:9/…');
	expect(refused?.message).not.toContain('/capture/');
	expect(refused?.message).not.toContain('capture-token-7788');
	expect(refused?.message).not.toContain(OTHER_KEY);
	expect(await rawSettings()).toBe(before);
});

test('Replace Another URL: published, set up, a visitor runs it, unpublished, the settings back byte for byte', async () => {
	const before = await rawSettings();
	const replacing = await deploy(true, true);
	const held = JSON.parse(await rawSettings()).response.webhooks[0];
	expect(held['webhooks-url'][0]).toBe(replacing.triggerUrl);
	expect(held['webhooks-key'][0]).toBe(KEY);
	expect(held['webhooks-active'][0]).toBe(true);
	expect(String(held['webhooks-allowed'][0]).split(',').sort()).toEqual(
		[
			'conversation-status-updated',
			'message-sent',
			'new-conversation-created',
			'new-email-address',
			'registration',
		].sort(),
	);

	const { conversation } = await sandbox.supportBoard!.visitor.start({
		message: 'Set up by itself?',
		email: 'grace@example.com',
		first_name: 'Grace',
	});
	await sandbox.supportBoard!.settled();
	const runs = await n8n.waitForExecutions(replacing.id, { count: 2, timeoutMs: 60_000 });
	const items = runs.map(
		(run) => run.data.resultData.runData['Support Board events'][0].data.main[0][0].json,
	);
	expect(items).toEqual(
		expect.arrayContaining([
			expect.objectContaining({
				event: 'conversationCreated',
				conversationId: String(conversation.id),
			}),
			expect.objectContaining({ event: 'messageCreated', conversationId: String(conversation.id) }),
		]),
	);
	expect(JSON.stringify(items)).not.toContain(KEY);
	const statuses = sandbox.supportBoard!.deliveries.map((d) => `${d.url} ${d.status}`);
	expect(statuses.every((line) => line === `${replacing.triggerUrl} 200`)).toBe(true);

	await n8n.unpublishWorkflow(replacing.id);
	expect(await settingsBecome(before)).toBe(before);
});
