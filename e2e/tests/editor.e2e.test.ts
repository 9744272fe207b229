/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import fs from 'node:fs';
import path from 'node:path';

import type { Browser, Locator, Page } from 'playwright-core';

import { startN8n, type N8nInstance } from '../harness';
import { REPO_ROOT, SANDBOX_TOKEN } from '../support';
import { launchBrowser, newEditorPage, screenshot, signIn } from '../browser';
import {
	addNode,
	chooseOption,
	closeNdv,
	executeStep,
	settle,
	loadedIcons,
	newWorkflow,
	nodePanelEntries,
	waitForPanelEntries,
	outputItemCount,
	outputTable,
	parameterLabels,
	resourceLocator,
	searchNodePanel,
} from '../browser/editor';
import { startSandbox, type Sandbox } from '../../sandbox';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import { KIND_ROWS as EVENTS } from '../../nodes/SupportChat/shared/events';
import { SUPPORT_BOARD_ROWS as SUPPORT_BOARD_EVENTS } from '../../nodes/SupportChat/shared/supportBoardEvents';
import { hintForStatus } from '../../nodes/SupportChat/transport/errors';

/*
 * The editor as a user meets it, in a real browser (Debian's chromium through playwright-core): sign in,
 * credentials with the credential test, the node panel, parameters, pickers, a step run, the trigger's
 * test URL with a real delivery from the sandbox, and an error. Every check reads what the page shows.
 * Under `npm run docs:screenshots` it also writes the screenshots of the README and docs/ (docs/images/); otherwise it
 * writes nothing.
 */

const README = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const TRIGGER_DOC = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'webhook-trigger.md'), 'utf8');
const USERS = 45;
const PAGE_SIZE = 20;

let sandbox: Sandbox;
let n8n: N8nInstance;
let browser: Browser;
let page: Page;
/** The node view of the Support Chat node the scenarios share, once added. */
let ndv: Locator;

const users = () => sandbox.state.users;
const userLabel = (user: { name: string | null; email: string | null }) =>
	`${user.name} <${user.email}>`;
const userRequests = () =>
	sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/users');

/** The operations' action texts, as the node panel lists them ("Get many users"). */
function actionTexts(): string[] {
	const texts: string[] = [];
	for (const property of new SupportChat().description.properties) {
		if (property.name !== 'operation') continue;
		for (const option of property.options ?? [])
			if ('action' in option && option.action) texts.push(option.action);
	}
	return texts.sort();
}

/**
 * The fields of a trigger item as docs/webhook-trigger.md's table under "Each event becomes one item" names them,
 * in order (`headers` comes only with Include Headers, `attachmentError` only when a download failed).
 */
function documentedItemFields(): string[] {
	const table = TRIGGER_DOC.split('Each event becomes one item:')[1].trim().split('\n\n')[0];
	return table
		.split('\n')
		.slice(2)
		.flatMap((row) => [...row.split('|')[1].matchAll(/`(\w+)`/g)].map((match) => match[1]));
}

/**
 * Runs the open node with the editor's button, waits until n8n has finished the run, then until the
 * output panel shows what the run gave: `expected` ("1 item", "45 items", or a text of the error).
 */
async function runStep(expected: string | RegExp): Promise<Locator> {
	const { executionId, output } = await executeStep(ndv);
	const [run] = await n8n.waitForExecutions(String((await n8n.execution(executionId)).workflowId), {
		afterId: Number(executionId) - 1,
	});
	try {
		await output.getByText(expected, { exact: true }).first().waitFor();
	} catch (error) {
		const shown = await ndv.innerText().catch(() => '(no node view)');
		await page
			.screenshot({
				path: path.join(require('node:os').tmpdir(), 'support-chat-editor-failure.png'),
			})
			.catch(() => {});
		const ran = `execution ${run.id} ${run.status}, nodes run: ${Object.keys(run.data?.resultData?.runData ?? {}).join(', ')}`;
		throw new Error(
			`the node view does not show ${expected} after the run (${ran}):\n${shown.slice(0, 3000)}`,
			{ cause: error },
		);
	}
	return output;
}

/**
 * n8n renames a node that still has its default name when its operation changes ("Get many users"
 * becomes "Get a user by ID"), a moment after the change: a run started before that is shown under the old
 * name. Waits for the node view's title.
 */
async function titled(name: string) {
	await ndv
		.getByTestId('node-title-container')
		.getByTestId('inline-edit-preview')
		.getByText(name, { exact: true })
		.waitFor();
}

/** Every image of the entry is the package's icon (the variant for the theme), loaded and drawn. */
function expectDrawnIcons(icons: Array<{ src: string; width: number }>, src: RegExp) {
	expect(icons.length).toBeGreaterThan(0);
	for (const icon of icons) {
		expect(icon.src).toMatch(src);
		expect(icon.width).toBeGreaterThan(0);
	}
}

beforeAll(async () => {
	sandbox = await startSandbox({
		token: SANDBOX_TOKEN,
		pagination: 'link',
		pageSize: PAGE_SIZE,
		seed: { users: USERS, conversations: 2, tags: ['vip', 'lead'] },
	});
	[n8n, browser] = await Promise.all([startN8n({ mode: 'regular' }), launchBrowser()]);
	page = await newEditorPage(browser);
	await signIn(page, n8n.baseUrl, n8n.owner);
});

afterAll(async () => {
	await browser?.close();
	await n8n?.stop();
	await sandbox?.close();
});

test('signing in through the sign-in page lands on the overview', async () => {
	expect(new URL(page.url()).pathname).toMatch(/^\/home\//);
	await expect(page.getByTestId('node-creator-plus-button').count()).resolves.toBe(0);
});

describe('the node panel: typing "support chat"', () => {
	test('offers Support Chat with its icon, holding the webhook trigger (a trigger per event) and every action, and Support Chat Poll', async () => {
		await newWorkflow(page, n8n.baseUrl);
		const panel = await searchNodePanel(page, 'support chat');
		const entries = panel.getByTestId('item-iterator-item').filter({ hasText: 'Support Chat' });
		await entries.first().waitFor();
		// n8n lists a node by its name without "Trigger": the poll trigger is an entry of its own.
		expect((await nodePanelEntries(panel)).map((e) => e.name)).toEqual([
			'Support Chat',
			'Support Chat Poll',
		]);
		expectDrawnIcons(
			await loadedIcons(entries),
			/\/icons\/n8n-nodes-support-chat\/dist\/nodes\/SupportChat\/supportChat\.svg$/,
		);
		const entry = entries.first();

		await entry.click();
		await panel.getByText(/^Actions \(\d+\)$/).click();
		// A trigger per event the Events list offers: the service's six kinds, then Support Board's own.
		const triggers = [...EVENTS, ...SUPPORT_BOARD_EVENTS]
			.map((event) => `On ${event.name.toLowerCase()}`)
			.sort();
		await expect(panel.getByText(`Triggers (${triggers.length})`).isVisible()).resolves.toBe(true);
		await expect(panel.getByText(`Actions (${actionTexts().length})`).isVisible()).resolves.toBe(
			true,
		);
		await waitForPanelEntries(panel, triggers.length + actionTexts().length);
		const names = (await nodePanelEntries(panel)).map((e) => e.name).filter(Boolean);
		expect(names.filter((name) => name.startsWith('On ')).sort()).toEqual(triggers);
		expect(names.filter((name) => !name.startsWith('On ')).sort()).toEqual(actionTexts());
		expectDrawnIcons(
			await loadedIcons(panel.getByTestId('item-iterator-item').first()),
			/\/supportChat\.svg$/,
		);
		await screenshot(panel, 'node-panel');
	});

	test('in the dark theme the entry shows the dark icon, loaded', async () => {
		const dark = await newEditorPage(browser, { theme: 'dark' });
		try {
			await signIn(dark, n8n.baseUrl, n8n.owner);
			await newWorkflow(dark, n8n.baseUrl);
			await expect(dark.locator('body').getAttribute('data-theme')).resolves.toBe('dark');
			const panel = await searchNodePanel(dark, 'support chat');
			const entry = panel.getByTestId('item-iterator-item').filter({ hasText: 'Support Chat' });
			await entry.first().waitFor();
			expectDrawnIcons(
				await loadedIcons(entry),
				/\/icons\/n8n-nodes-support-chat\/dist\/nodes\/SupportChat\/supportChat\.dark\.svg$/,
			);
		} finally {
			await dark.context().close();
		}
	});
});

describe('the node panel: found by the names Support Board users know', () => {
	// Neither term is in the nodes' names: n8n's node search matches the display name and the codex's
	// `alias`, so without the aliases the panel says "No results".
	test.each(['Support Board', 'live chat'])(
		'typing "%s" lists Support Chat and Support Chat Poll',
		async (term) => {
			await newWorkflow(page, n8n.baseUrl);
			const panel = await searchNodePanel(page, term);
			const entries = panel.getByTestId('item-iterator-item').filter({ hasText: 'Support Chat' });
			try {
				await entries.first().waitFor({ timeout: 15_000 });
			} catch (error) {
				const shown = await panel.innerText().catch(() => '(no panel)');
				throw new Error(`typing "${term}", the node panel lists no Support Chat entry:\n${shown}`, {
					cause: error,
				});
			}
			await waitForPanelEntries(panel, 2);
			expect((await nodePanelEntries(panel)).map((e) => e.name)).toEqual([
				'Support Chat',
				'Support Chat Poll',
			]);
		},
	);
});

describe('credentials, from the node: "Connect to Support Chat"', () => {
	let modal: Locator;

	beforeAll(async () => {
		await newWorkflow(page, n8n.baseUrl);
		ndv = await addNode(page, {
			search: 'support chat',
			app: 'Support Chat',
			item: 'Get many users',
		});
		await ndv.getByText('Connect to Support Chat').click();
		modal = page.getByTestId('editCredential-modal');
		await modal.waitFor();
	});

	test('a wrong token: the dialog says it could not connect, with the service’s own message and what to check', async () => {
		sandbox.clearLog();
		await modal.getByTestId('parameter-input-baseUrl').locator('input').fill(sandbox.origin);
		await modal.getByTestId('parameter-input-apiToken').locator('input').fill('wrong-token');
		await modal.getByTestId('credential-save-button').click();
		await modal.getByText('Couldn’t connect with these settings').waitFor();
		await modal.getByText('More details').click();
		// "Invalid bearer token" is the sandbox's own words (sandbox/sandbox.js), as a real service would say them.
		await modal
			.getByText(
				`The service answered GET /tags with 401: Invalid bearer token. ${hintForStatus(401)}`,
			)
			.waitFor();
		// n8n tests on save and again as the dialog settles: every test was one refused GET /tags.
		expect(new Set(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`))).toEqual(
			new Set(['GET /tags 401']),
		);
		await expect(modal.innerText()).resolves.not.toContain('wrong-token');
		await screenshot(modal, 'credentials');
	});

	test('the right token: "Connection tested successfully", and the node uses the saved credentials', async () => {
		sandbox.clearLog();
		await modal.getByTestId('parameter-input-apiToken').locator('input').fill(SANDBOX_TOKEN);
		await modal.getByRole('button', { name: 'Retry' }).click();
		await modal.getByText('Connection tested successfully').waitFor();
		expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'GET /tags 200',
		]);
		await modal.getByTestId('credential-save-button').click();
		await modal.waitFor({ state: 'hidden' });
		await expect(
			ndv.getByTestId('node-credentials-select').locator('input').inputValue(),
		).resolves.toBe('Support Chat account');
	});
});

describe('User → Get Many', () => {
	test('shows the parameters the README lists', async () => {
		const listed = /\*\*User → Get Many\*\* shows these parameters: ([^.]+)\./.exec(README);
		expect(listed).not.toBeNull();
		const expected = listed![1].split(',').map((name) => name.trim());
		expect(await parameterLabels(ndv)).toEqual(expected);
	});

	test("Execute step: the output shows the sandbox's users", async () => {
		const output = await runStep(`${USERS} items`);
		expect(await outputItemCount(output)).toBe(USERS);
		const { headers, rows } = await outputTable(output);
		expect(headers.slice(0, 3)).toEqual(['id', 'name', 'email']);
		expect(rows.length).toBeGreaterThan(0);
		expect(rows.map((row) => row.slice(0, 3))).toEqual(
			users()
				.slice(0, rows.length)
				.map((u) => [u.id, u.name, u.email]),
		);
		await screenshot(ndv, 'get-many-users');
	});
});

describe('User → Get, the user picked From List', () => {
	let picker: ReturnType<typeof resourceLocator>;

	beforeAll(async () => {
		await chooseOption(ndv, 'operation', 'Get');
		await titled('Get a user by ID');
		picker = resourceLocator(ndv, 'userId');
	});

	test('the list shows the first page of users as "name <email>"', async () => {
		sandbox.clearLog();
		await picker.open();
		const first = users().slice(0, PAGE_SIZE).map(userLabel);
		expect(await settle(async () => await picker.items.allInnerTexts(), first)).toEqual(first);
		expect(userRequests()).toHaveLength(1);
		await screenshot(ndv, 'user-picker');
	});

	test('scrolling to the end loads the next page', async () => {
		await picker.items.last().scrollIntoViewIfNeeded();
		await picker.items.last().hover();
		await page.mouse.wheel(0, 2000);
		const two = users()
			.slice(0, 2 * PAGE_SIZE)
			.map(userLabel);
		expect(await settle(async () => await picker.items.allInnerTexts(), two)).toEqual(two);
		expect(userRequests()).toHaveLength(2);
	});

	test('typing filters the list, matches on later pages included', async () => {
		const wanted = users()[12];
		const needle = String(wanted.name).split(' ')[0].toLowerCase();
		await picker.search.fill(needle);
		const matching = users()
			.filter((u) => userLabel(u).toLowerCase().includes(needle))
			.map(userLabel);
		expect(matching.length).toBeGreaterThan(1);
		expect(await settle(async () => await picker.items.allInnerTexts(), matching)).toEqual(
			matching,
		);
	});

	test('picking one and running the step outputs that user', async () => {
		const wanted = users()[12];
		await picker.items.filter({ hasText: String(wanted.email) }).click();
		expect(await settle(picker.value, userLabel(wanted))).toBe(userLabel(wanted));
		sandbox.clearLog();
		const output = await runStep('1 item');
		const { headers, rows } = await outputTable(output);
		expect(rows).toHaveLength(1);
		const cell = (name: string) => rows[0][headers.indexOf(name)];
		expect([cell('id'), cell('name'), cell('email')]).toEqual([
			wanted.id,
			wanted.name,
			wanted.email,
		]);
		expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`GET /users/${wanted.id} 200`,
		]);
	});
});

describe('Tag → Add to User', () => {
	beforeAll(async () => {
		await chooseOption(ndv, 'resource', 'Tag');
		await chooseOption(ndv, 'operation', 'Add to User');
		await titled('Add a tag to a user');
	});

	test("the tag picker lists the service's tags", async () => {
		const tags = resourceLocator(ndv, 'tag');
		await tags.open();
		const names = sandbox.state.tags.map((t) => t.name).sort();
		expect(await settle(async () => (await tags.items.allInnerTexts()).sort(), names)).toEqual(
			names,
		);
		await page.keyboard.press('Escape');
	});

	test('a new tag typed By Name is added to the user picked from the list', async () => {
		const user = users()[3];
		const userPicker = resourceLocator(ndv, 'userId');
		await userPicker.open();
		await userPicker.items.filter({ hasText: String(user.email) }).click();
		const tag = resourceLocator(ndv, 'tag');
		await tag.mode('By Name');
		await tag.type('newsletter');
		sandbox.clearLog();
		const output = await runStep('1 item');
		const { headers, rows } = await outputTable(output);
		expect(rows[0][headers.indexOf('tags')]).toContain('newsletter');
		const writes = sandbox.requests.filter((r) => r.method !== 'GET');
		expect(
			writes.map((r) => `${r.method} ${r.path} ${r.status} ${JSON.stringify(r.body)}`),
		).toEqual([`POST /tags 201 ${JSON.stringify({ user_id: user.id, tag: 'newsletter' })}`]);
		expect(users()[3].tags).toContain('newsletter');
	});
});

describe('an error as a user meets it', () => {
	test('Get of a user id that does not exist: the error panel shows the message and the hint', async () => {
		await chooseOption(ndv, 'resource', 'User');
		await chooseOption(ndv, 'operation', 'Get');
		await titled('Get a user by ID');
		const picker = resourceLocator(ndv, 'userId');
		await picker.mode('By ID');
		await picker.type('u_9999');
		const error = await runStep(/The user was not found\./);
		const text = await error.innerText();
		expect(text).toMatch(/not found/i);
		expect(text).toContain(
			'The user was not found. Check the ID, and that the Base URL in the credentials points at your service.',
		);
		expect(text).not.toContain(SANDBOX_TOKEN);
		await screenshot(ndv, 'error');
	});

	test("on the canvas the node's subtitle names resource and operation, not their values", async () => {
		await closeNdv(page);
		const node = page.getByTestId('canvas-node').filter({ hasText: 'Get a user by ID' });
		await expect(node.innerText()).resolves.toContain('User: Get');
		await expect(node.innerText()).resolves.not.toContain('get: user');
	});
});

describe('a workflow saved before 0.5.0, when Assignee was a text field', () => {
	test('opens with the saved ID in Assignee, and its step assigns to that ID', async () => {
		const conversation = sandbox.state.conversations[0];
		await n8n.importCredentials({
			name: 'Support Chat saved earlier',
			type: 'supportChatApi',
			data: { baseUrl: sandbox.origin, apiToken: SANDBOX_TOKEN, allowHttp: false },
		});
		const saved = await n8n.importWorkflow({
			name: 'Assign, saved by 0.4',
			nodes: [
				{
					id: 'b8a0c7de-5d3c-4d0e-9c39-4e2f3b1f7a01',
					name: 'Assign to agent 7',
					type: 'n8n-nodes-support-chat.supportChat',
					typeVersion: 1,
					position: [0, 0],
					// As 0.4 saved it: the conversation in a resource locator, the assignee plain text.
					parameters: {
						resource: 'conversation',
						operation: 'assign',
						conversationId: { __rl: true, mode: 'id', value: conversation.id },
						assignee: '7',
					},
					credentials: { supportChatApi: { name: 'Support Chat saved earlier' } },
				},
			],
			connections: {},
		});
		await page.goto(`${n8n.baseUrl}/workflow/${saved.id}`);
		await page.getByTestId('canvas-node').filter({ hasText: 'Assign to agent 7' }).dblclick();
		ndv = page.getByTestId('ndv');
		await ndv.waitFor();
		const assignee = resourceLocator(ndv, 'assignee');
		// n8n shows a plain value with no mode chosen ("Mode..."), the ID in its box.
		await expect(assignee.value()).resolves.toBe('7');
		sandbox.clearLog();
		await runStep('1 item');
		expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`POST /conversations/${conversation.id}/assign 200`,
		]);
		expect(sandbox.requests[0].body).toEqual({ agent_id: '7' });
		await closeNdv(page);
	});
});

describe('Support Chat Trigger', () => {
	let trigger: Locator;

	beforeAll(async () => {
		await newWorkflow(page, n8n.baseUrl);
		trigger = await addNode(page, {
			search: 'support chat',
			app: 'Support Chat',
			item: 'On lead captured',
		});
	});

	test("the set-up notice is shown as numbered steps naming the editor's own button", async () => {
		const notice = trigger
			.getByRole('region')
			.filter({ hasText: "Paste this node's URL into the service's dashboard yourself" });
		await notice.waitFor();
		const steps = await notice.locator('ul > li').allInnerTexts();
		expect(steps.map((step) => step.split(' ')[0])).toEqual(['1.', '2.', '3.', '4.']);
		// Each step on a line of its own, below the one before.
		const tops = await notice
			.locator('ul > li')
			.evaluateAll((items) => items.map((item) => item.getBoundingClientRect().top));
		expect(tops).toEqual([...tops].sort((a, b) => a - b));
		expect(new Set(tops).size).toBe(4);
		// The button the notice names is the one the editor shows.
		const button = /click "([^"]+)"/.exec(steps[0])?.[1];
		expect(button).toBe('Execute step');
		await expect(trigger.getByTestId('node-execute-button').innerText()).resolves.toBe(button);
	});

	test('Webhook URLs shows the test URL and the production URL', async () => {
		await trigger.getByTitle('Click to display webhook URLs').click();
		const urls = trigger.getByText(
			/^http:\/\/127\.0\.0\.1:\d+\/webhook(-test)?\/[0-9a-f-]+\/webhook$/,
		);
		const shown = async () => (await urls.first().innerText()).trim();
		await expect(shown()).resolves.toMatch(
			new RegExp(`^${n8n.baseUrl}/webhook-test/[0-9a-f-]+/webhook$`),
		);
		await trigger.getByTestId('radio-button-production').click();
		await expect(shown()).resolves.toMatch(
			new RegExp(`^${n8n.baseUrl}/webhook/[0-9a-f-]+/webhook$`),
		);
		await trigger.getByTestId('radio-button-test').click();
	});

	test("listening with the editor's button, a lead from the sandbox appears in the output as the documented item table says", async () => {
		const testUrl = (
			await trigger
				.getByText(/\/webhook-test\//)
				.first()
				.innerText()
		).trim();
		// The editor saves the new workflow and registers the test webhook: the delivery waits for both.
		const registered = page.waitForResponse(
			(r) => r.request().method() === 'POST' && /\/rest\/workflows\/[^/]+\/run/.test(r.url()),
		);
		await trigger.getByTestId('node-execute-button').click();
		await trigger.getByText('Listening for test event').first().waitFor();
		expect((await registered).ok()).toBe(true);
		sandbox.configureWebhooks({ urls: testUrl, style: 'dotted', kinds: ['leadCaptured'] });
		const { user } = sandbox.visitor.captureLead({
			email: 'zoe.visitor@example.com',
			name: 'Zoe Visitor',
		});
		await sandbox.settled();
		const [delivery] = sandbox.deliveries;
		expect(delivery).toMatchObject({ url: testUrl, status: 200, kind: 'leadCaptured' });

		const output = trigger.getByTestId('output-panel');
		await output.getByText(/^1 item$/).waitFor({ timeout: 30_000 });
		const { headers, rows } = await outputTable(output);
		// `headers` comes only with Include Headers, `attachmentError` only when a download failed.
		const optional = ['headers', 'attachmentError'];
		expect(headers).toEqual(documentedItemFields().filter((name) => !optional.includes(name)));
		const cell = (name: string) => rows[0][headers.indexOf(name)];
		expect(cell('event')).toBe('leadCaptured');
		expect(cell('eventName')).toBe(delivery.event);
		expect(cell('deliveryId')).toBe(delivery.id);
		expect(cell('userId')).toBe(user.id);
		expect(cell('data')).toContain('zoe.visitor@example.com');
		await screenshot(trigger, 'trigger');
	});

	test("on the canvas the trigger's subtitle names the event, not its internal value", async () => {
		await closeNdv(page);
		const node = page.getByTestId('canvas-node').filter({ hasText: 'Support Chat Trigger' });
		await expect(node.innerText()).resolves.toContain('Lead Captured');
		await expect(node.innerText()).resolves.not.toContain('leadCaptured');
	});
});
