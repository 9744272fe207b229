/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import fs from 'node:fs';

import { PACKAGE_NAME, request, startN8n, type N8nInstance } from '../harness';
import { SANDBOX_TOKEN } from '../support';
import { startSandbox, type Sandbox } from '../../sandbox';
import { hintForStatus } from '../../nodes/SupportChat/transport/errors';

/*
 * The package as a user gets it: packed with `npm pack`, installed into a real n8n's
 * ~/.n8n/nodes/node_modules, loaded at start as a community package. What the editor is told about it
 * is read back through the same endpoints the editor uses, and the credential test is run the way the
 * editor's "Test" / "Retry" button runs it, against the sandbox.
 */

const ACTION = `${PACKAGE_NAME}.supportChat`;
const TRIGGER = `${PACKAGE_NAME}.supportChatTrigger`;
const POLL = `${PACKAGE_NAME}.supportChatPollTrigger`;
const CREDENTIAL = 'supportChatApi';

interface NodeTypeDescription {
	name: string;
	displayName: string;
	version: number | number[];
	group: string[];
	iconUrl?: string | { light: string; dark: string };
	credentials?: Array<{ name: string; required?: boolean }>;
	webhooks?: unknown[];
	properties: Array<{ name: string }>;
	codex?: {
		categories?: string[];
		subcategories?: Record<string, string[]>;
		alias?: string[];
		resources?: Record<string, Array<{ url: string }>>;
	};
	[key: string]: unknown;
}

interface CredentialTypeDescription {
	name: string;
	displayName: string;
	iconUrl?: string | { light: string; dark: string };
	properties: Array<{ name: string; typeOptions?: { password?: boolean } }>;
	authenticate?: unknown;
	test?: unknown;
	supportedNodes?: string[];
}

let n8n: N8nInstance;
let sandbox: Sandbox;
let nodeTypes: NodeTypeDescription[];
let credentialTypes: CredentialTypeDescription[];

beforeAll(async () => {
	sandbox = await startSandbox({
		token: SANDBOX_TOKEN,
		seed: { users: 3, conversations: 1, tags: ['vip'] },
	});
	n8n = await startN8n({ mode: 'regular', packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR });
	nodeTypes = await n8n.nodeTypes();
	credentialTypes = await n8n.credentialTypes();
});

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

const nodeType = (name: string) => {
	const found = nodeTypes.filter((type) => type.name === name);
	expect(found.map((type) => type.name)).toEqual([name]);
	return found[0];
};

/** Both variants of an icon are served by n8n as SVG. */
async function expectServedIcons(iconUrl: NodeTypeDescription['iconUrl']) {
	expect(iconUrl).toEqual({ light: expect.any(String), dark: expect.any(String) });
	const urls = iconUrl as { light: string; dark: string };
	expect(urls.light).not.toEqual(urls.dark);
	for (const url of [urls.light, urls.dark]) {
		expect(url).toMatch(new RegExp(`^icons/${PACKAGE_NAME}/dist/.+\\.svg$`));
		const response = await request('GET', `${n8n.baseUrl}/${url}`);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
		expect(String(response.body)).toMatch(/<svg[\s>]/);
	}
}

test('the installed package holds what npm pack ships: dist, package.json, README, LICENSE', () => {
	const unexpected = n8n.package.files.filter(
		(file) => !/^(dist\/|package\.json$|README(\.md)?$|LICENSE(\.md)?$|index\.js$)/i.test(file),
	);
	expect(unexpected).toEqual([]);
	expect(n8n.package.files.filter((file) => /\.ts$/.test(file) && !/\.d\.ts$/.test(file))).toEqual(
		[],
	);
});

test('the action node is loaded as a community node, with its credential and icons', async () => {
	const action = nodeType(ACTION);
	expect(action.group).not.toContain('trigger');
	expect(action.credentials).toEqual(
		expect.arrayContaining([expect.objectContaining({ name: CREDENTIAL })]),
	);
	expect(action.properties.map((property) => property.name)).toContain('resource');
	await expectServedIcons(action.iconUrl);
});

test('the trigger node is loaded as a webhook trigger, with its credential and icons', async () => {
	const trigger = nodeType(TRIGGER);
	expect(trigger.group).toContain('trigger');
	expect(Array.isArray(trigger.webhooks) && trigger.webhooks.length).toBeGreaterThan(0);
	expect(trigger.credentials).toEqual(
		expect.arrayContaining([expect.objectContaining({ name: CREDENTIAL })]),
	);
	await expectServedIcons(trigger.iconUrl);
});

test('the credential type supportChatApi exists, with a secret token and an auth rule, tested by both nodes', async () => {
	const found = credentialTypes.filter((type) => type.name === CREDENTIAL);
	expect(found).toHaveLength(1);
	const [credential] = found;
	const token = credential.properties.find((property) => property.name === 'apiToken');
	expect(token?.typeOptions?.password).toBe(true);
	expect(credential.properties.map((property) => property.name)).toContain('baseUrl');
	expect(credential.authenticate).toBeDefined();
	// A declarative test would run instead of the nodes' function, which shows the service's own message.
	expect(credential.test).toBeUndefined();
	expect(credential.supportedNodes).toEqual(expect.arrayContaining([ACTION, TRIGGER, POLL]));
	for (const name of [ACTION, TRIGGER, POLL]) {
		expect(nodeType(name).credentials).toContainEqual(
			expect.objectContaining({ name: CREDENTIAL, testedBy: 'supportChatApiTest' }),
		);
	}
	await expectServedIcons(credential.iconUrl);
});

test.each([
	[ACTION, '#operations'],
	[TRIGGER, '#trigger'],
	[POLL, '#poll-trigger'],
])(
	'%s comes with its codex: category, the aliases the node panel searches, documentation links, and no subcategories',
	(name, anchor) => {
		const { codex } = nodeType(name);
		const repository = 'https://github.com/n8n-nodes-support-chat/n8n-nodes-support-chat';
		// n8n's no-codex-subcategories rule (issue 10): only AI-SDK nodes may set them, so there are none.
		expect(codex).not.toHaveProperty('subcategories');
		expect(codex).toEqual({
			categories: ['Communication'],
			alias: ['Support Board', 'board.support', 'live chat', 'helpdesk', 'customer support'],
			resources: {
				primaryDocumentation: [{ url: `${repository}${anchor}` }],
				credentialDocumentation: [{ url: `${repository}#credentials` }],
			},
		});
	},
);

describe('the credential test (POST /rest/credentials/test, as the editor sends it)', () => {
	const data = (apiToken: string) => ({
		baseUrl: sandbox.origin,
		apiToken,
		allowHttp: false,
		webhookSecret: '',
	});
	const test = async (
		credential: { id: string; name: string; type: string },
		body: Record<string, unknown>,
	) =>
		(
			await n8n.rest('POST', '/rest/credentials/test', {
				credentials: { ...credential, data: body },
			})
		).data as {
			status: string;
			message: string;
		};

	beforeEach(() => sandbox.clearLog());

	it('passes with the right token, after one authorised GET /tags', async () => {
		const [credential] = await n8n.importCredentials({
			name: 'Good token',
			type: CREDENTIAL,
			data: data(SANDBOX_TOKEN),
		});
		expect(await test(credential, data(SANDBOX_TOKEN))).toEqual({
			status: 'OK',
			message: 'Connection successful',
		});
		expect(
			sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status} ${r.headers.authorization}`),
		).toEqual(['GET /tags 200 Bearer ***']);
	});

	it('passes for a saved credential whose secrets the editor sends back redacted', async () => {
		const [credential] = await n8n.importCredentials({
			name: 'Saved token',
			type: CREDENTIAL,
			data: data(SANDBOX_TOKEN),
		});
		const saved = (await n8n.rest('GET', `/rest/credentials/${credential.id}?includeData=true`))
			.data;
		expect(saved.data.apiToken).not.toBe(SANDBOX_TOKEN);
		expect(await test(credential, saved.data)).toMatchObject({ status: 'OK' });
		expect(sandbox.requests.map((r) => r.status)).toEqual([200]);
	});

	it('fails with a wrong token, with the service’s own message and what to check', async () => {
		const [credential] = await n8n.importCredentials({
			name: 'Bad token',
			type: CREDENTIAL,
			data: data('wrong-token'),
		});
		const result = await test(credential, data('wrong-token'));
		expect(result).toEqual({
			status: 'Error',
			message: `The service answered GET /tags with 401: Invalid bearer token. ${hintForStatus(401)}`,
		});
		expect(sandbox.requests.length).toBeGreaterThan(0);
		expect(sandbox.requests.every((r) => r.path === '/tags' && r.status === 401)).toBe(true);
	});
});

test("the editor gets the full descriptions of the three nodes; the poll trigger polls, with n8n's Poll Times", async () => {
	const infos = [ACTION, TRIGGER, POLL].map((name) => {
		const { version } = nodeType(name);
		return { name, version: Array.isArray(version) ? Math.max(...version) : version };
	});
	const descriptions = (await n8n.rest('POST', '/rest/node-types', { nodeInfos: infos }))
		.data as NodeTypeDescription[];
	// Full descriptions carry the bare name; the package prefix is added by the loader.
	expect(descriptions.map((description) => description.name)).toEqual([
		'supportChat',
		'supportChatTrigger',
		'supportChatPollTrigger',
	]);
	for (const description of descriptions) expect(description.properties.length).toBeGreaterThan(0);
	const poll = descriptions[2] as NodeTypeDescription & { polling?: boolean };
	expect(poll.polling).toBe(true);
	expect(poll.properties.map((property) => property.name)).toEqual(
		expect.arrayContaining(['pollTimes', 'events', 'options']),
	);
});

test('n8n logged no failure about the package', () => {
	const log = fs.readFileSync(n8n.logs.main, 'utf8');
	const complaints = log
		.split('\n')
		.filter((line) => line.includes(PACKAGE_NAME) || /supportChat/i.test(line))
		.filter((line) => /error|fail|warn|unknown|could not/i.test(line));
	expect(complaints).toEqual([]);
});
