/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * A conversation's life with the Support Board Web API (issue 22, items 5 and 6): notes, department,
 * status, tags and the assignee picker, run in n8n's engine against the sandbox's Support Board mode, or
 * the real test bed when SUPPORT_CHAT_TESTBED names its env.json. Each test makes its own user and
 * conversation and reads the effect back in the product. The REST refusals send no request.
 */
import type { IDataObject, INodeParameters, INodePropertyOptions } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import { STATUS_CODES } from '../../nodes/SupportChat/apis/supportBoard/conversationLife';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { Board } from '../helpers/board';
import { onTestbed, openBoard } from '../helpers/board';
import { callMethod, runNode } from '../helpers/engine';
import { ACTION_TYPE, byId, credentialsFor, jsonOf, runAction } from '../helpers/supportChat';

let board: Board;
beforeAll(async () => {
	board = await openBoard();
});
afterAll(async () => await board.close());

const credentials = (data: IDataObject = board.credentials as unknown as IDataObject) => ({
	types: [new SupportChatApi()],
	data: { supportChatApi: data },
});

async function run(parameters: INodeParameters, data?: IDataObject) {
	const result = await runNode({
		node: {
			name: 'Support Chat',
			type: ACTION_TYPE,
			parameters: { resource: 'conversation', ...parameters },
			onError: 'continueRegularOutput',
		},
		nodeTypes: { [ACTION_TYPE]: new SupportChat() },
		credentials: credentials(data),
	});
	return jsonOf(result);
}

let serial = 0;
/** A new user's new conversation, made through the Web API. */
async function conversation(): Promise<string> {
	const userId = await board.addUser(
		'Life',
		`Test${++serial}`,
		`life.${Date.now()}.${serial}@example.com`,
	);
	const made = (await board.call('new-conversation', { user_id: userId, title: 'life' })) as {
		details: { id: string };
	};
	return String(made.details.id);
}
const details = async (id: string) =>
	((await board.call('get-conversation', { conversation_id: id })) as { details: IDataObject })
		.details;
const notes = async (id: string) =>
	(await board.call('get-notes', { conversation_id: id })) as IDataObject[];

describe(`notes (${onTestbed ? 'test bed' : 'sandbox'})`, () => {
	it('Add Note writes as the admin by default, Get Notes lists it, Delete Note removes it', async () => {
		const id = await conversation();
		const [added] = await run({
			operation: 'addNote',
			conversationId: byId(id),
			note: 'Called the customer back',
		});
		expect(added).toMatchObject({
			conversation_id: id,
			user_id: board.staff.adminId,
			message: 'Called the customer back',
		});
		expect(typeof added.id).toBe('number');
		expect(added.name).toMatch(/\S/);
		expect(await notes(id)).toEqual([
			expect.objectContaining({
				id: added.id,
				user_id: board.staff.adminId,
				message: 'Called the customer back',
			}),
		]);

		const listed = await run({ operation: 'getNotes', conversationId: byId(id) });
		expect(listed).toEqual([
			expect.objectContaining({ id: added.id, conversation_id: id, name: added.name }),
		]);

		const [deleted] = await run({
			operation: 'deleteNote',
			conversationId: byId(id),
			noteId: String(added.id),
		});
		expect(deleted).toEqual({ conversation_id: id, note_id: String(added.id), deleted: true });
		expect(await notes(id)).toEqual([]);
		expect(await run({ operation: 'getNotes', conversationId: byId(id) })).toEqual([]);
	});

	it('Add Note takes another author and name', async () => {
		const id = await conversation();
		const [added] = await run({
			operation: 'addNote',
			conversationId: byId(id),
			note: 'n',
			additionalFields: { authorId: board.staff.adminId, authorName: 'Night shift' },
		});
		expect(added).toMatchObject({ user_id: board.staff.adminId, name: 'Night shift' });
	});

	it("Add Note with an Author ID alone writes under that user's own name", async () => {
		const id = await conversation();
		const authorId = await board.addUser('Nadia', 'Notes', `nadia.${Date.now()}@example.com`);
		const [added] = await run({
			operation: 'addNote',
			conversationId: byId(id),
			note: 'n',
			additionalFields: { authorId },
		});
		expect(added).toMatchObject({ user_id: authorId, name: 'Nadia Notes' });
		expect(await notes(id)).toEqual([expect.objectContaining({ name: 'Nadia Notes' })]);
	});

	// Adding an admin to the shared test bed would change every test's author: the sandbox only.
	(onTestbed ? it.skip : it)(
		'Add Note without an Author ID on an install with two admins asks for one, and writes nothing',
		async () => {
			const id = await conversation();
			await board.call('add-user', {
				first_name: 'Second',
				last_name: 'Admin',
				email: `admin2.${Date.now()}@example.com`,
				user_type: 'admin',
			});
			const [refused] = await run({ operation: 'addNote', conversationId: byId(id), note: 'n' });
			expect(refused.error).toBe(
				"Support Board has 2 admins, so the note's author is not known: set Author ID under Additional Fields",
			);
			expect(await notes(id)).toEqual([]);
		},
	);

	it('Add Note to a conversation the product does not have fails before writing; Delete Note of a missing note says so', async () => {
		const [missing] = await run({
			operation: 'addNote',
			conversationId: byId('987654321'),
			note: 'orphan',
		});
		expect(missing.error).toBe('Support Board has no conversation with ID 987654321');
		expect(await notes('987654321')).toEqual([]);
		const id = await conversation();
		const [gone] = await run({
			operation: 'deleteNote',
			conversationId: byId(id),
			noteId: '424242',
		});
		expect(gone.error).toBe(`Support Board has no note 424242 in conversation ${id}`);
	});
});

describe('department, status, assignee', () => {
	it('Update Department moves the conversation, and -1 takes it out', async () => {
		const id = await conversation();
		const [moved] = await run({
			operation: 'updateDepartment',
			conversationId: byId(id),
			department: byId('3'),
		});
		expect(moved).toEqual({ id, department: '3' });
		expect((await details(id)).department).toBe('3');
		await run({ operation: 'updateDepartment', conversationId: byId(id), department: byId('-1') });
		expect((await details(id)).department).toBeNull();
	});

	it.each([
		['waitingForUser', '1'],
		['active', '0'],
		['pending', '2'],
	])('Update Status %s sets code %s', async (status, code) => {
		const id = await conversation();
		const [done] = await run({ operation: 'updateStatus', conversationId: byId(id), status });
		expect(done).toMatchObject({ id, status, status_code: Number(code) });
		expect((await details(id)).status_code).toBe(code);
	});

	it('Update Status reopens an archived conversation; a missing one is an error, not a silent true', async () => {
		const id = await conversation();
		await board.archive(id);
		await run({ operation: 'updateStatus', conversationId: byId(id), status: 'active' });
		expect((await details(id)).status_code).toBe('0');
		const [missing] = await run({
			operation: 'updateStatus',
			conversationId: byId('987654321'),
			status: 'pending',
		});
		expect(missing.error).toBe('Support Board has no conversation with ID 987654321');
	});

	it('every Status option has a product code', () => {
		const status = new SupportChat().description.properties.find(
			(p) => p.name === 'status' && p.displayOptions?.show?.operation?.includes('updateStatus'),
		);
		const offered = (status?.options ?? []) as INodePropertyOptions[];
		expect(offered.map((o) => o.value).sort()).toEqual(Object.keys(STATUS_CODES).sort());
	});

	it("Assign's From List offers the product's agents and admins; the chosen one is assigned", async () => {
		const found = await callMethod({
			node: { type: ACTION_TYPE, parameters: { resource: 'conversation', operation: 'assign' } },
			nodeType: new SupportChat(),
			credentials: credentials(),
			call: async (ctx) => await new SupportChat().methods.listSearch.searchAgents.call(ctx),
		});
		const admin = found.results.find((r) => r.value === board.staff.adminId);
		expect(admin?.name).toMatch(/\(admin\)$/);
		const id = await conversation();
		await run({
			operation: 'assign',
			conversationId: byId(id),
			assignee: { __rl: true, mode: 'list', value: board.staff.adminId },
		});
		expect((await details(id)).agent_id).toBe(board.staff.adminId);
	});

	it('Assign still runs a workflow saved with the assignee as a plain string', async () => {
		const id = await conversation();
		const [done] = await run({
			operation: 'assign',
			conversationId: byId(id),
			assignee: board.staff.adminId,
		});
		expect(done.error).toBeUndefined();
		expect((await details(id)).agent_id).toBe(board.staff.adminId);
	});

	it('Assign to a user who is no agent or admin: the cause and its remedy, not the Base URL', async () => {
		const id = await conversation();
		const visitor = await board.addUser('Not', 'Anagent', `not.agent.${Date.now()}@example.com`);
		const [failed] = await run({
			operation: 'assign',
			conversationId: byId(id),
			assignee: byId(visitor),
		});
		expect(failed.error).toBe(
			'The service reported a failure for update-conversation-agent: not-an-agent',
		);
		expect(failed.description).toMatch(
			/^Support Board assigns conversations only to agents and admins/,
		);
		expect(failed.description).toContain('choose an agent or an admin');
		expect(String(failed.description)).not.toContain('Base URL');
		expect((await details(id)).agent_id).toBeNull();
	});

	it('the Department picker says when the product has none (the test bed has none)', async () => {
		const answer = await board.call('get-departments');
		const pick = callMethod({
			node: {
				type: ACTION_TYPE,
				parameters: { resource: 'conversation', operation: 'updateDepartment' },
			},
			nodeType: new SupportChat(),
			credentials: credentials(),
			call: async (ctx) => await new SupportChat().methods.listSearch.searchDepartments.call(ctx),
		});
		if (Array.isArray(answer) && answer.length === 0)
			await expect(pick).rejects.toThrow('Support Board has no departments');
		else expect((await pick).results.length).toBeGreaterThan(0);
	});
});

describe('Update Tags', () => {
	it('3.8.7 has no update-tags: the error names the version that adds it', async () => {
		const id = await conversation();
		const [failed] = await run({ operation: 'updateTags', conversationId: byId(id), tags: 'vip' });
		expect(failed).toMatchObject({ httpCode: '404' });
		expect(`${String(failed.error)} ${String(failed.description)}`).toContain(
			'Support Board 3.8.9 or later',
		);
	});
});

describe('the sandbox as 3.8.9, with departments', () => {
	let sandbox: Sandbox;
	const TOKEN = 'sb-life-token-389';
	beforeAll(async () => {
		sandbox = await startSandbox({
			api: 'support-board',
			token: TOKEN,
			seed: { users: 2, conversations: 0 },
			supportBoard: {
				version: '3.8.9',
				departments: [
					{ id: 2, name: 'Sales' },
					{ id: 5, name: 'Billing' },
				],
			},
		});
	});
	afterAll(async () => await sandbox.close());
	const data = () => ({
		api: 'supportBoard',
		baseUrl: sandbox.supportBoard!.installUrl,
		apiToken: TOKEN,
	});
	const call = async (fn: string, args: IDataObject) => {
		const res = await fetch(sandbox.supportBoard!.apiUrl, {
			method: 'POST',
			body: JSON.stringify({ function: fn, token: TOKEN, ...args }),
		});
		return ((await res.json()) as { response: unknown }).response;
	};

	it('Update Tags adds to the tags, or replaces them', async () => {
		const made = (await call('new-conversation', { user_id: 1, tags: 'old' })) as {
			details: { id: string };
		};
		const id = made.details.id;
		const [added] = await run(
			{ operation: 'updateTags', conversationId: byId(id), tags: 'vip, billing' },
			data(),
		);
		expect(added).toEqual({ id, tags: ['vip', 'billing'], mode: 'add' });
		expect(sandbox.requests.at(-1)?.body).toMatchObject({
			function: 'update-tags',
			conversation_id: id,
			tags: ['vip', 'billing'],
			add: true,
		});
		expect(
			((await call('get-conversation', { conversation_id: id })) as { details: IDataObject })
				.details.tags,
		).toEqual(['vip', 'billing', 'old']);
		await run(
			{ operation: 'updateTags', conversationId: byId(id), tags: 'solo', tagsMode: 'replace' },
			data(),
		);
		expect(
			((await call('get-conversation', { conversation_id: id })) as { details: IDataObject })
				.details.tags,
		).toEqual(['solo']);
	});

	it('the Department picker lists the departments by name', async () => {
		const found = await callMethod({
			node: {
				type: ACTION_TYPE,
				parameters: { resource: 'conversation', operation: 'updateDepartment' },
			},
			nodeType: new SupportChat(),
			credentials: credentials(data()),
			call: async (ctx) =>
				await new SupportChat().methods.listSearch.searchDepartments.call(ctx, 'bill'),
		});
		expect(found.results).toEqual([{ name: 'Billing', value: '5' }]);
	});
});

describe('REST mode refuses before any request, naming Support Board', () => {
	let rest: Sandbox;
	beforeAll(async () => {
		rest = await startSandbox();
	});
	afterAll(async () => await rest.close());

	it.each([
		[{ operation: 'addNote', note: 'n' }, 'add-note'],
		[{ operation: 'getNotes' }, 'get-notes'],
		[{ operation: 'deleteNote', noteId: '1' }, 'delete-note'],
		[{ operation: 'updateDepartment', department: byId('2') }, 'update-conversation-department'],
		[{ operation: 'updateStatus', status: 'pending' }, 'update-conversation-status'],
		[{ operation: 'updateTags', tags: 'vip' }, 'update-tags'],
	])('%o', async (parameters, fn) => {
		rest.reset();
		const result = await runAction(
			rest,
			{ resource: 'conversation', conversationId: byId('1'), ...parameters } as INodeParameters,
			{ continueOnFail: true },
		);
		const [item] = jsonOf(result);
		expect(item.error).toBe(expect.any(String) && item.error);
		expect(String(item.error)).toContain(`only in Support Board's Web API (${fn})`);
		expect(rest.requests).toHaveLength(0);
	});

	it('the agent picker refuses too', async () => {
		const pick = callMethod({
			node: { type: ACTION_TYPE, parameters: { resource: 'conversation', operation: 'assign' } },
			nodeType: new SupportChat(),
			credentials: credentialsFor(rest),
			call: async (ctx) => await new SupportChat().methods.listSearch.searchAgents.call(ctx),
		});
		await expect(pick).rejects.toThrow("only in Support Board's Web API (get-users)");
		expect(rest.requests).toHaveLength(0);
	});
});
