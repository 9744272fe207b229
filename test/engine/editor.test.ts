/**
 * What a person meets in the editor: "From list" pickers paging through the service, the tag
 * dropdown, Simplify (and its default when an AI Agent uses the node as a tool), list filters.
 */
import type { ILoadOptionsFunctions, INodeListSearchResult, INodeType } from 'n8n-workflow';

import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { callMethod, runNode } from '../helpers/engine';
import {
	ACTION_TYPE,
	byId,
	credentialsFor,
	jsonOf,
	runAction,
	TOKEN,
} from '../helpers/supportChat';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		token: TOKEN,
		pagination: 'cursor',
		pageSize: 10,
		seed: { users: 25, conversations: 12, tags: ['vip', 'lead', 'newsletter'] },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

const node = new SupportChat();
type Search = (
	this: ILoadOptionsFunctions,
	filter?: string,
	token?: string,
) => Promise<INodeListSearchResult>;

function search(method: 'searchUsers' | 'searchConversations', filter?: string, token?: string) {
	const fn = node.methods.listSearch[method] as Search;
	return callMethod({
		node: { type: ACTION_TYPE, parameters: { resource: 'user', operation: 'get' } },
		nodeType: node,
		credentials: credentialsFor(sandbox),
		path: 'parameters.userId',
		call: (context) => fn.call(context, filter, token),
	});
}

describe('From list', () => {
	it('pages through all users with the pagination token, labelled by name and email', async () => {
		const seen: string[] = [];
		let token: string | undefined;
		let calls = 0;
		do {
			const page = await search('searchUsers', undefined, token);
			seen.push(...page.results.map((r) => String(r.value)));
			if (calls === 0) {
				const first = sandbox.state.users[0];
				expect(page.results[0]).toEqual({
					name: `${first.name} <${first.email}>`,
					value: first.id,
				});
			}
			token = page.paginationToken;
			calls++;
		} while (token && calls < 10);
		expect(seen).toEqual(sandbox.state.users.map((u) => u.id));
		expect(sandbox.requests).toHaveLength(3);
		expect(sandbox.requests.map((r) => r.query.cursor)).toEqual([
			undefined,
			expect.any(String),
			expect.any(String),
		]);
	});

	it('filters what it lists', async () => {
		const target = sandbox.state.users[4];
		const page = await search('searchUsers', String(target.email).toUpperCase());
		expect(page.results).toEqual([
			{ name: expect.stringContaining(String(target.name)), value: target.id },
		]);
	});

	it('with a filter, reads on through the pages in one call: matches on later pages show without scrolling', async () => {
		const target = sandbox.state.users[23];
		const page = await search('searchUsers', String(target.email));
		expect(page.results).toEqual([
			{ name: expect.stringContaining(String(target.name)), value: target.id },
		]);
		expect(page.paginationToken).toBeUndefined();
		expect(sandbox.requests).toHaveLength(3);
	});

	it('with a filter, stops reading once a page of matches is found, and hands on the rest', async () => {
		const page = await search('searchUsers', '@');
		expect(page.results).toHaveLength(20);
		expect(page.results.map((r) => r.value)).toEqual(
			sandbox.state.users.slice(0, 20).map((u) => u.id),
		);
		expect(page.paginationToken).toEqual(expect.any(String));
		expect(sandbox.requests).toHaveLength(2);
		const rest = await search('searchUsers', '@', page.paginationToken);
		expect(rest.results.map((r) => r.value)).toEqual(
			sandbox.state.users.slice(20).map((u) => u.id),
		);
		expect(rest.paginationToken).toBeUndefined();
	});

	it('with a filter, a service whose next page is one already read gets a clear error, not copies', async () => {
		sandbox.fault({ path: '/users', kind: 'repeat-cursor' });
		await expect(search('searchUsers', 'nobody-matches-this')).rejects.toThrow(
			'The service named a page already read as the next one; the list ends here',
		);
		// The first page, then its next page once; the repeat is recognised before it is asked again.
		expect(sandbox.requests).toHaveLength(2);
	});

	it('labels conversations by id, user and status', async () => {
		const page = await search('searchConversations');
		const first = sandbox.state.conversations[0];
		expect(page.results[0]).toEqual({
			name: expect.stringMatching(
				new RegExp(`^#${first.id} · .*user ${first.user_id} · ${first.status}$`),
			),
			value: first.id,
		});
	});

	it('a value picked from the list is used like an id', async () => {
		const target = sandbox.state.users[2];
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'get',
			userId: { __rl: true, mode: 'list', value: target.id, cachedResultName: target.name },
		});
		expect(jsonOf(run)[0].id).toBe(target.id);
	});
});

describe('Tag picker', () => {
	const searchTags = (filter?: string) =>
		callMethod({
			node: { type: ACTION_TYPE, parameters: { resource: 'tag', operation: 'add' } },
			nodeType: node,
			credentials: credentialsFor(sandbox),
			path: 'parameters.tag',
			call: (context) => (node.methods.listSearch.searchTags as Search).call(context, filter),
		});

	it('lists the existing tags, sorted', async () => {
		expect((await searchTags()).results).toEqual(
			['lead', 'newsletter', 'vip'].map((name) => ({ name, value: name })),
		);
	});

	it('filters them', async () => {
		expect((await searchTags('VI')).results).toEqual([{ name: 'vip', value: 'vip' }]);
	});

	it('adds a new tag given by name', async () => {
		const user = sandbox.state.users[0];
		const run = await runAction(sandbox, {
			resource: 'tag',
			operation: 'add',
			userId: byId(user.id),
			tag: { __rl: true, mode: 'name', value: 'brand-new' },
		});
		expect(run.status).toBe('success');
		expect(sandbox.state.users[0].tags).toContain('brand-new');
	});

	it('still takes a tag saved as a plain string', async () => {
		const user = sandbox.state.users[0];
		await runAction(sandbox, {
			resource: 'tag',
			operation: 'add',
			userId: byId(user.id),
			tag: 'plain',
		});
		expect(sandbox.requests[0].body).toEqual({ user_id: user.id, tag: 'plain' });
	});
});

describe('Simplify', () => {
	it('is off by default: the raw record comes through whole', async () => {
		const target = sandbox.state.users[1];
		const [user] = jsonOf(
			await runAction(sandbox, { resource: 'user', operation: 'get', userId: byId(target.id) }),
		);
		expect(Object.keys(user).sort()).toEqual(Object.keys(target).sort());
	});

	it('returns the fields people use of users', async () => {
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'getAll',
			returnAll: false,
			limit: 3,
			simplify: true,
		});
		const [first] = sandbox.state.users;
		expect(jsonOf(run)[0]).toEqual({
			id: first.id,
			name: first.name,
			email: first.email,
			phone: first.phone,
			tags: first.tags,
		});
	});

	it('returns the fields people use of conversations', async () => {
		const target = sandbox.state.conversations[0];
		const run = await runAction(sandbox, {
			resource: 'conversation',
			operation: 'get',
			conversationId: byId(target.id),
			simplify: true,
		});
		expect(Object.keys(jsonOf(run)[0]).sort()).toEqual(
			[
				'id',
				'status',
				'user_id',
				'created_at',
				'updated_at',
				...(target.assignee_id ? ['assignee_id'] : []),
				...(target.closed_at ? ['closed_at'] : []),
				...(target.subject ? ['subject'] : []),
			].sort(),
		);
	});

	it('is on by default when an AI Agent uses the node as a tool', async () => {
		// n8n derives the tool variant of a usableAsTool node under the name supportChatTool.
		const tool = Object.create(node) as INodeType;
		tool.description = { ...node.description, name: 'supportChatTool' };
		const target = sandbox.state.users[1];
		const run = await runNode({
			node: {
				name: 'Support Chat',
				type: `${ACTION_TYPE}Tool`,
				parameters: { resource: 'user', operation: 'get', userId: byId(target.id) },
			},
			nodeTypes: { [`${ACTION_TYPE}Tool`]: tool },
			credentials: credentialsFor(sandbox),
		});
		expect(jsonOf(run)[0]).toEqual({
			id: target.id,
			name: target.name,
			email: target.email,
			phone: target.phone,
			tags: target.tags,
		});
	});
});

describe('Filters', () => {
	it('sends extra query parameters with every page request', async () => {
		const run = await runAction(sandbox, {
			resource: 'conversation',
			operation: 'getAll',
			returnAll: true,
			filters: {
				status: 'closed',
				queryParameters: {
					parameter: [{ name: 'user_id', value: sandbox.state.conversations[0].user_id }],
				},
			},
		});
		const expected = sandbox.state.conversations.filter(
			(c) => c.status === 'closed' && c.user_id === sandbox.state.conversations[0].user_id,
		);
		expect(jsonOf(run).map((c) => c.id)).toEqual(expected.map((c) => c.id));
		for (const request of sandbox.requests)
			expect(request.query).toMatchObject({
				status: 'closed',
				user_id: sandbox.state.conversations[0].user_id,
			});
	});
});
