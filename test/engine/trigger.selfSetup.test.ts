/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Set Up Webhook in Support Board, through the trigger's `webhookMethods` as n8n 2.41 calls them (real
 * HookContext, test/helpers/hooks.ts), against the sandbox's Support Board mode or the real product's
 * test bed (SUPPORT_CHAT_TESTBED): publishing writes the Production URL, the Secret key and the events
 * into the product's settings; the product's own webhooks then reach the trigger; unpublishing puts the
 * whole settings row back byte for byte; another URL is never replaced unless the user said so.
 *
 * The test bed is shared: its webhook settings point at a capture server other people rely on. The
 * whole get-settings answer is saved to a file before the first write and put back after every test,
 * failed or not.
 */
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { IDataObject, INode } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChatTrigger } from '../../nodes/SupportChat/SupportChatTrigger.node';
import { webhookFields } from '../../nodes/SupportChat/trigger/productWebhook';
import type { Board } from '../helpers/board';
import { onTestbed, openBoard } from '../helpers/board';
import type { HookHost } from '../helpers/hooks';
import { hookHost } from '../helpers/hooks';
import type { Receiver } from '../helpers/receiver';
import { startReceiver } from '../helpers/receiver';
import { TRIGGER_TYPE } from '../helpers/supportChat';

const KEY = 'self-setup-secret-key-7Hq2';
/** The Webhook Secret after a rotation. */
const KEY_2 = 'self-setup-rotated-key-Vb81';
/** On the sandbox, a capture URL like the test bed's, with a token in its query, set before the tests. */
const OTHER_KEY = 'sandbox-other-secret-key-41';
const OTHER_URL = 'http://127.0.0.1:9/capture/support-board?token=capture-token-0042';

let board: Board;
let receiver: Receiver;
/** The whole get-settings answer before the first write, as the product sent it. */
let before: string;
let backupFile: string;

const trigger = new SupportChatTrigger();
const triggerNode: INode = {
	id: '5e1f5e70-0000-4000-8000-000000000001',
	name: 'Support Chat Trigger',
	type: TRIGGER_TYPE,
	typeVersion: 1,
	position: [0, 0],
	webhookId: '5e1f5e70-0000-4000-8000-0000000000ab',
	parameters: {},
	credentials: { supportChatApi: { id: 'sb1', name: 'Support Board' } },
};

function credentials(extra: IDataObject = {}) {
	return {
		types: [new SupportChatApi()],
		data: { supportChatApi: { ...board.credentials, webhookSecret: KEY, ...extra } },
	};
}

/**
 * A workflow with the trigger, as published, and n8n's calls of its webhookMethods; `staticData`: as
 * n8n saved it before (a restart, or credentials changed while it was published).
 */
function host(
	parameters: IDataObject,
	extra: IDataObject = {},
	staticData?: IDataObject,
): HookHost {
	const node = {
		...triggerNode,
		parameters: { events: ['*'], verification: 'bodyField', ...parameters },
	} as INode;
	receiver.endpoint('webhook', {
		workflow: { nodes: [node], connections: {} },
		credentials: credentials(extra),
	});
	return hookHost({
		node,
		nodeType: trigger,
		credentials: credentials(extra),
		webhookBaseUrl: `${receiver.origin}/webhook`,
		staticData,
	});
}

/** What the node keeps in its static data while it is published. */
const recordOf = (hooks: HookHost) =>
	(hooks.staticData['node:Support Chat Trigger'] as IDataObject | undefined)?.supportBoardWebhook;

async function rawSettings(): Promise<string> {
	const response = await fetch(board.apiUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ function: 'get-settings', token: board.credentials.apiToken }),
	});
	return await response.text();
}

async function settings(): Promise<IDataObject> {
	return (JSON.parse(await rawSettings()) as IDataObject).response as IDataObject;
}

/** Back to the settings saved before the first write, whatever a test left. */
async function restore(): Promise<void> {
	if ((await rawSettings()) === before) return;
	const saved = (JSON.parse(before) as IDataObject).response;
	await board.call('save-settings', { setting: 'webhooks', settings: saved });
	if ((await rawSettings()) !== before)
		throw new Error(`The settings could not be put back: the answer saved is in ${backupFile}`);
}

beforeAll(async () => {
	board = await openBoard();
	receiver = await startReceiver(board.sandbox === null ? {} : { sandbox: board.sandbox });
	if (!onTestbed) {
		board.sandbox!.supportBoard!.configureWebhooks({
			url: OTHER_URL,
			key: OTHER_KEY,
			active: true,
			allowed: 'message-sent,registration',
		});
	}
	before = await rawSettings();
	expect(JSON.parse(before)).toMatchObject({ success: true });
	backupFile = path.join(os.tmpdir(), `support-chat-self-setup-settings-${process.pid}.json`);
	writeFileSync(backupFile, before);
});
afterEach(async () => {
	await restore();
	receiver.reset();
});
afterAll(async () => {
	try {
		await restore();
	} finally {
		await receiver.close();
		await board.close();
	}
});

it('another URL is there: publishing is refused naming it, its token masked, and nothing is written', async () => {
	const held = webhookFields(await settings());
	expect(held.url).not.toBe('');
	const hooks = host({ setUpWebhook: true });
	const refused = hooks.publish();
	await expect(refused).rejects.toThrow(/already sends its webhooks to another URL/);
	const message = String(((await refused.catch((error: Error) => error)) as Error).message);
	const origin = new URL(held.url).origin;
	expect(message).toContain(origin);
	expect(message).not.toContain(held.key);
	if (new URL(held.url).search !== '') expect(message).not.toContain(new URL(held.url).search);
	expect(await rawSettings()).toBe(before);
	expect(recordOf(hooks)).toBeUndefined();
});

it('publish, a visitor writes, unpublish: our URL, key and events, a run, then the whole settings back byte for byte', async () => {
	const earlier = webhookFields(await settings());
	const hooks = host({ setUpWebhook: true, replaceOtherUrl: true });
	expect(await hooks.publish()).toEqual({ created: true });

	const held = webhookFields(await settings());
	expect(held).toEqual({
		active: true,
		url: hooks.url(),
		key: KEY,
		allowed: expect.any(String),
	});
	expect(held.allowed.split(',').sort()).toEqual(
		[
			'conversation-status-updated',
			'message-sent',
			'new-conversation-created',
			'new-email-address',
			'registration',
		].sort(),
	);
	// Neither the earlier key, nor the earlier URL past its host, nor ours is kept in the clear where
	// n8n stores static data (issue 27: the earlier URL used to be kept in the clear).
	const kept = JSON.stringify(hooks.staticData);
	if (earlier.url !== '') expect(kept).not.toContain(earlier.url);
	expect(kept).not.toContain(KEY);
	if (earlier.key !== '') expect(kept).not.toContain(earlier.key);
	expect(await hooks.checkExists()).toBe(true);

	const started = await board.visitorStarts({ message: 'Self set up: hello' });
	await board.settled();
	await receiver.settled();
	const items = receiver.deliveries('webhook').flatMap((d) => d.items);
	expect(items).toEqual(
		expect.arrayContaining([
			expect.objectContaining({
				event: 'conversationCreated',
				conversationId: started.conversationId,
			}),
			expect.objectContaining({ event: 'messageCreated', conversationId: started.conversationId }),
		]),
	);
	expect(receiver.deliveries('webhook').every((d) => d.status === 200)).toBe(true);

	// Listening for a test event writes nothing, and its end undoes nothing.
	const published = await rawSettings();
	expect(await hooks.listen()).toEqual({ created: false });
	await hooks.unpublish({ test: true });
	expect(await rawSettings()).toBe(published);

	await hooks.unpublish();
	expect(await rawSettings()).toBe(before);
	expect(recordOf(hooks)).toBeUndefined();
});

it('the URL was changed in Support Board while published: unpublishing leaves it as it is', async () => {
	const hooks = host({
		setUpWebhook: true,
		replaceOtherUrl: true,
		events: ['messageCreated', 'login'],
	});
	await hooks.publish();
	const row = await settings();
	expect(webhookFields(row).allowed.split(',').sort()).toEqual(['login', 'message-sent']);
	const changed = structuredClone(row);
	const entry = changed.webhooks as [IDataObject, string];
	entry[0]['webhooks-url'] = ['http://127.0.0.1:9/someone-else', 'text'];
	await board.call('save-settings', { setting: 'webhooks', settings: changed });
	const theirs = await rawSettings();
	expect(await hooks.checkExists()).toBe(false);

	await hooks.unpublish();
	expect(await rawSettings()).toBe(theirs);
	expect(recordOf(hooks)).toBeUndefined();
});

it('refused at publishing, before any write: REST credentials, no Verification, an event Support Board never sends', async () => {
	await expect(host({ setUpWebhook: true }, { api: 'rest' }).publish()).rejects.toThrow(
		/no REST path to read the service's settings/,
	);
	await expect(host({ setUpWebhook: true, verification: 'none' }).publish()).rejects.toThrow(
		/needs Verification Secret Field in Body/,
	);
	await expect(
		host({ setUpWebhook: true, replaceOtherUrl: true, events: ['tagApplied'] }).publish(),
	).rejects.toThrow(/Support Board sends no webhook for tagApplied/);
	await expect(
		host({ setUpWebhook: true, replaceOtherUrl: true }, { webhookSecret: '' }).publish(),
	).rejects.toThrow(/set one in the credentials/);
	expect(await rawSettings()).toBe(before);
});

it('off (the default): publishing and unpublishing touch nothing', async () => {
	const hooks = host({});
	expect(await hooks.publish()).toEqual({ created: false });
	await hooks.unpublish();
	expect(await rawSettings()).toBe(before);
});

it('published again with other Events (or n8n restarted): the URL stays ours, and unpublishing still puts back the first settings', async () => {
	const first = host({ setUpWebhook: true, replaceOtherUrl: true, events: ['messageCreated'] });
	await first.publish();
	const record = recordOf(first) as IDataObject;
	// The same node, its Events changed, as n8n publishes it again with the static data it saved.
	const again = hookHost({
		node: {
			...triggerNode,
			parameters: {
				events: ['messageCreated', 'userCreated'],
				verification: 'bodyField',
				setUpWebhook: true,
				replaceOtherUrl: true,
			},
		},
		nodeType: trigger,
		credentials: credentials(),
		webhookBaseUrl: `${receiver.origin}/webhook`,
		staticData: first.staticData,
	});
	expect(await again.publish()).toEqual({ created: true });
	expect(
		webhookFields(await settings())
			.allowed.split(',')
			.sort(),
	).toEqual(['message-sent', 'registration']);
	// Sealed again (fresh salts) under the secrets of now; what it holds is still the first entry.
	expect(recordOf(again)).toMatchObject({ url: record.url, shown: record.shown });
	await again.unpublish();
	expect(await rawSettings()).toBe(before);
});

const sandboxIt = onTestbed ? it.skip : it;

sandboxIt(
	'Support Board failing to save: publishing fails with a readable error holding no key, nothing changed',
	async () => {
		const hooks = host({ setUpWebhook: true, replaceOtherUrl: true });
		board.sandbox!.fault({ path: 'save-settings', kind: '500' });
		board.sandbox!.fault({ path: 'save-settings', kind: '500' });
		board.sandbox!.fault({ path: 'save-settings', kind: '500' });
		board.sandbox!.fault({ path: 'save-settings', kind: '500' });
		const failed = (await hooks.publish().catch((error: Error) => error)) as Error;
		expect(failed.message).toMatch(/save-settings/);
		expect(JSON.stringify(failed)).not.toContain(KEY);
		expect(JSON.stringify(failed)).not.toContain(OTHER_KEY);
		expect(await rawSettings()).toBe(before);
	},
);

sandboxIt(
	'Support Board answering a save without keeping it: publishing fails saying so',
	async () => {
		const hooks = host({ setUpWebhook: true, replaceOtherUrl: true });
		const answered = '{"success":true,"response":true}';
		board.sandbox!.fault({
			path: 'save-settings',
			kind: 'raw',
			body: answered,
			contentType: 'text/html',
		});
		await expect(hooks.publish()).rejects.toThrow(
			/Support Board did not keep the webhook settings the node saved/,
		);
		expect(await rawSettings()).toBe(before);
	},
);

sandboxIt(
	'an answer to get-settings that holds no settings: publishing fails before any write',
	async () => {
		const hooks = host({ setUpWebhook: true, replaceOtherUrl: true });
		const answered = '{"success":true,"response":"settings-not-found"}';
		board.sandbox!.fault({
			path: 'get-settings',
			kind: 'raw',
			body: answered,
			contentType: 'text/html',
		});
		await expect(hooks.publish()).rejects.toThrow(/The answer to get-settings holds no settings/);
		expect(await rawSettings()).toBe(before);
		expect(recordOf(hooks)).toBeUndefined();
	},
);

/** An Admin Token after a rotation: another administrator's, which the product accepts as well. */
async function rotatedToken(): Promise<{ token: string; remove: () => Promise<void> }> {
	const id = String(
		await board.call('add-user', {
			first_name: 'Rotated',
			last_name: 'Admin',
			email: `rotated-admin-${Date.now()}@example.test`,
			user_type: 'admin',
		}),
	);
	const user = (await board.call('get-user', { user_id: id })) as IDataObject;
	expect(typeof user.token === 'string' && user.token !== board.credentials.apiToken).toBe(true);
	return {
		token: String(user.token),
		remove: async () => {
			await board.call('delete-user', { user_id: id });
		},
	};
}

const SET_UP = { setUpWebhook: true, replaceOtherUrl: true };

it('the Admin Token rotated while published: unpublishing still puts the settings back byte for byte, never with our key', async () => {
	const first = host(SET_UP);
	await first.publish();
	const rotated = await rotatedToken();
	try {
		// n8n starts again with the workflow published and the credentials holding the new token.
		const later = host(SET_UP, { apiToken: rotated.token }, first.staticData);
		expect(await later.publish()).toEqual({ created: false });
		await later.unpublish();
		expect(webhookFields(await settings()).key).not.toBe(KEY);
		expect(await rawSettings()).toBe(before);
	} finally {
		await rotated.remove();
	}
});

it('the Admin Token and the Webhook Secret both rotated: the earlier URL is not put back with our key, the webhooks are off, and the error says what to do', async () => {
	const earlier = webhookFields(await settings());
	const first = host(SET_UP);
	await first.publish();
	const rotated = await rotatedToken();
	try {
		// The Secret key changed by hand in Support Board as well as in the credentials: the one sealed
		// under is nowhere now, so n8n's next start finds its settings and writes nothing.
		const row = await settings();
		const entry = row.webhooks as [IDataObject, string];
		entry[0]['webhooks-key'] = [KEY_2, 'password'];
		await board.call('save-settings', { setting: 'webhooks', settings: row });
		const later = host(SET_UP, { apiToken: rotated.token, webhookSecret: KEY_2 }, first.staticData);
		expect(await later.publish()).toEqual({ created: false });
		expect(webhookFields(await settings()).key).toBe(KEY_2);
		const failed = await later.unpublish().then(
			() => undefined,
			(error: Error) => error,
		);
		expect(webhookFields(await settings())).toEqual({
			active: false,
			url: '',
			key: '',
			allowed: expect.any(String),
		});
		expect(failed).toBeInstanceOf(Error);
		const message = String(failed?.message);
		expect(message).toMatch(/earlier webhook URL \(.+\) was not put back/);
		expect(message).toContain('Settings → Miscellaneous → Webhooks');
		expect(message).toContain(new URL(earlier.url).host);
		for (const secret of [KEY, KEY_2, earlier.key, rotated.token, new URL(earlier.url).search])
			if (secret !== '') expect(JSON.stringify(failed)).not.toContain(secret);
	} finally {
		await rotated.remove();
	}
});

it('the Webhook Secret rotated (published again), then the Admin Token months later: unpublishing still puts the settings back byte for byte', async () => {
	const first = host(SET_UP);
	await first.publish();
	// Published again with the new Webhook Secret: Support Board now holds it, not the one sealed under.
	const second = host(SET_UP, { webhookSecret: KEY_2 }, first.staticData);
	expect(await second.publish()).toEqual({ created: true });
	const rotated = await rotatedToken();
	try {
		// One change at a time, each of which the seal is said to survive.
		const later = host(
			SET_UP,
			{ apiToken: rotated.token, webhookSecret: KEY_2 },
			second.staticData,
		);
		expect(await later.publish()).toEqual({ created: false });
		await later.unpublish();
		expect(await rawSettings()).toBe(before);
	} finally {
		await rotated.remove();
	}
});

/** A key sealed as the node's first version sealed it (v1: under the Admin Token, any tag length). */
function sealV1(secret: string, token: string, tagLength: number): string {
	const key = createHmac('sha256', token).update('support-chat: earlier webhook key').digest();
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: tagLength });
	const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	return ['v1', iv, cipher.getAuthTag(), sealed].map((p) => p.toString('base64')).join('.');
}

/** The static data of the node's first version, for this workflow's URL and the earlier entry. */
async function firstVersionRecord(hooks: HookHost, sealedKey: string): Promise<IDataObject> {
	const entry = structuredClone((JSON.parse(before) as IDataObject).response as IDataObject)
		.webhooks as [IDataObject, string];
	entry[0]['webhooks-key'] = ['', 'password'];
	return {
		'node:Support Chat Trigger': {
			supportBoardWebhook: { url: hooks.url(), earlier: entry, sealedKey },
		},
	};
}

it('static data written by the first version is still read: unpublishing puts the settings back byte for byte', async () => {
	const first = host(SET_UP);
	await first.publish();
	const earlierKey = webhookFields((JSON.parse(before) as IDataObject).response as IDataObject).key;
	const staticData = await firstVersionRecord(
		first,
		sealV1(earlierKey, board.credentials.apiToken, 16),
	);
	await host(SET_UP, {}, staticData).unpublish();
	expect(await rawSettings()).toBe(before);
});

it('a sealed key whose GCM tag is cut to 4 bytes is refused, not opened', async () => {
	const first = host(SET_UP);
	await first.publish();
	const forged = 'forged-key-from-a-4-byte-tag';
	const staticData = await firstVersionRecord(first, sealV1(forged, board.credentials.apiToken, 4));
	const failed = await host(SET_UP, {}, staticData)
		.unpublish()
		.then(
			() => undefined,
			(error: Error) => error,
		);
	expect(webhookFields(await settings()).key).not.toBe(forged);
	expect(failed?.message).toMatch(/was not put back/);
});

sandboxIt(
	"Replace Another URL: the earlier URL's user, password, path and query never wait in static data in the clear",
	async () => {
		const secretUrl =
			'https://alice:s3cret-pw@hooks.example.test/services/T0/B0/XYZsecret?token=q-tok';
		board.sandbox!.supportBoard!.configureWebhooks({
			url: secretUrl,
			key: OTHER_KEY,
			active: true,
			allowed: 'message-sent',
		});
		const earlierRow = await rawSettings();
		const hooks = host(SET_UP);
		await hooks.publish();
		const kept = JSON.stringify(hooks.staticData);
		for (const secret of ['alice', 's3cret-pw', 'XYZsecret', 'q-tok', '/services/', OTHER_KEY, KEY])
			expect(kept).not.toContain(secret);
		await hooks.unpublish();
		expect(await rawSettings()).toBe(earlierRow);
	},
);

sandboxIt(
	'another URL is there: the message itself names Replace Another URL, and shows the URL without its user, password, path or query',
	async () => {
		board.sandbox!.supportBoard!.configureWebhooks({
			url: 'https://alice:s3cret-pw@hooks.slack.test/services/T0/B0/XYZsecret?token=q-tok',
			key: OTHER_KEY,
			active: true,
			allowed: 'message-sent',
		});
		const earlierRow = await rawSettings();
		const refused = await host({ setUpWebhook: true })
			.publish()
			.then(
				() => undefined,
				(error: Error) => error,
			);
		const message = String(refused?.message);
		expect(message).toContain('turn on Replace Another URL');
		expect(message).toContain('https://hooks.slack.test/…');
		for (const secret of ['alice', 's3cret-pw', 'XYZsecret', 'q-tok', 'services', OTHER_KEY])
			expect(JSON.stringify(refused)).not.toContain(secret);
		expect(await rawSettings()).toBe(earlierRow);
	},
);
