/**
 * Web API → Call a Function: any function of Support Board's Web API by name, run by the real n8n
 * engine against the sandbox's Support Board mode or, with SUPPORT_CHAT_TESTBED=/tmp/sb/run/env.json,
 * against the real product (test/helpers/board.ts). The data it reads is made through the Board under
 * a fresh stamp: the test bed is shared and never emptied. The retry rule needs the sandbox's faults,
 * and "no request was sent" its request log: those checks run on the sandbox only.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject, INode, INodeParameters, INodeType } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Board } from '../helpers/board';
import { onTestbed, openBoard } from '../helpers/board';
import { runNode } from '../helpers/engine';
import { ACTION_TYPE, jsonOf } from '../helpers/supportChat';

const TOOL_TYPE = `${ACTION_TYPE}Tool`;
const node = new SupportChat();
/** The tool type as n8n derives it from a usableAsTool node (as test/engine/tool.test.ts makes it). */
const tool = Object.create(node) as INodeType;
tool.description = { ...node.description, name: 'supportChatTool' };

let board: Board;
beforeAll(async () => {
	board = await openBoard({ seed: { users: 2, conversations: 1 } });
});
afterAll(async () => await board.close());

const call = (
	functionName: string,
	functionArguments: unknown = '{}',
	more: INodeParameters = {},
): INodeParameters => ({
	resource: 'webApi',
	operation: 'call',
	functionName,
	functionArguments:
		typeof functionArguments === 'string' ? functionArguments : JSON.stringify(functionArguments),
	...more,
});

async function run(
	parameters: INodeParameters,
	credentials: IDataObject = {},
	extra: Partial<INode> = {},
) {
	board.sandbox?.clearLog();
	const type = extra.type ?? ACTION_TYPE;
	return await runNode({
		node: { name: 'Support Chat', type, parameters, onError: 'continueRegularOutput', ...extra },
		nodeTypes: { [type]: type === TOOL_TYPE ? tool : node },
		credentials: {
			types: [new SupportChatApi()],
			data: { supportChatApi: { ...board.credentials, ...credentials } },
		},
	});
}

const runTool = (parameters: INodeParameters) => run(parameters, {}, { type: TOOL_TYPE });

/** The functions the sandbox received; undefined on the test bed, which keeps no log we read. */
const functions = () => board.sandbox?.requests.map((r) => r.function);
const sandboxIt = onTestbed ? it.skip : it;

let stamp: string;
let userId: string;
beforeAll(async () => {
	stamp = randomUUID().slice(0, 8);
	userId = await board.addUser('Webapi', `W${stamp}`, `webapi.${stamp}@example.com`);
});

describe(`Web API → Call a Function (${onTestbed ? 'test bed' : 'sandbox'})`, () => {
	it('a read: get-user answers the user as one item, its token masked by name', async () => {
		const result = await run(call('get-user', { user_id: userId }));
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({
				id: userId,
				first_name: 'Webapi',
				last_name: `W${stamp}`,
				email: `webapi.${stamp}@example.com`,
				token: '[redacted]',
			}),
		]);
		if (board.sandbox)
			expect(board.sandbox.requests.map((r) => r.body)).toEqual([
				{ function: 'get-user', token: '***', user_id: userId },
			]);
	});

	it('a list answer is one item per record; a bare answer is one item { response }', async () => {
		const found = await run(call('search-users', { search: `W${stamp}` }));
		expect(jsonOf(found)).toEqual([expect.objectContaining({ id: userId, token: '[redacted]' })]);
		const missing = await run(call('get-user', { user_id: 987654321 }));
		expect(jsonOf(missing)).toEqual([{ response: false }]);
	});

	it('a write: update-user on the user the test made, read back', async () => {
		const updated = await run(
			call('update-user', { user_id: userId, first_name: 'Renamed', last_name: `W${stamp}` }),
		);
		expect(jsonOf(updated)).toEqual([{ response: true }]);
		expect(functions() ?? ['update-user']).toEqual(['update-user']);
		expect(await board.call('get-user', { user_id: userId })).toMatchObject({
			first_name: 'Renamed',
			last_name: `W${stamp}`,
		});
	});

	it("the product's refusals are errors with what to do, the token masked", async () => {
		const token = board.credentials.apiToken;
		// The product repeats an unknown function's name in its message: named like the token, it carries it.
		const unknown = await run(call(token));
		const [item] = jsonOf(unknown);
		expect(item).toMatchObject({
			httpCode: '404',
			error:
				'The service answered [redacted] with 404: Function [redacted] not found. Check the function name.',
		});
		expect(item.description).toContain(
			'This Support Board has no Web API function named [redacted]',
		);
		expect(JSON.stringify(item)).not.toContain(token);
		const missing = await run(call('get-user'));
		expect(jsonOf(missing)).toEqual([
			expect.objectContaining({
				httpCode: '400',
				error: expect.stringContaining('Missing argument: user_id'),
				description: expect.stringContaining('Add the argument the message names to Arguments'),
			}),
		]);
	});

	it.each([
		// n8n checks a required value the editor holds; not one an expression (or a model) gives.
		['an empty name', call('={{ "" }}'), 'Function Name is empty'],
		['capitals', call('Get-User'), '"Get-User" is not a Support Board function name'],
		['an underscore', call('get_user'), '"get_user" is not a Support Board function name'],
		['a space', call('get user'), 'is not a Support Board function name'],
		['a name too long', call('a'.repeat(65)), 'longer than 64 characters'],
		['arguments that are no JSON', call('get-user', '{user_id: 1}'), 'Arguments is not valid JSON'],
		[
			'arguments that are a list',
			call('get-user', '[1]'),
			'Arguments must be a JSON object of argument names and values, not a list',
		],
		[
			'a token in the arguments',
			call('get-user', { user_id: 1, token: 'other' }),
			'Arguments may not hold token',
		],
		[
			'a function in the arguments',
			call('get-user', { function: 'delete-users' }),
			'Arguments may not hold function',
		],
		[
			'a bad entry in Allowed Functions',
			call('get-user', '{}', { allowedFunctions: 'get-user, Delete Users' }),
			'Allowed Functions: "Delete Users" is not',
		],
		[
			'a function outside Allowed Functions',
			call('delete-user', { user_id: 1 }, { allowedFunctions: 'get-user, search-users' }),
			'delete-user is not among the Allowed Functions (get-user, search-users)',
		],
	])('refuses %s before any request', async (_name, parameters, message) => {
		const result = await run(parameters);
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ error: expect.stringContaining(message) }),
		]);
		if (board.sandbox) expect(board.sandbox.requests).toEqual([]);
	});

	it('in a workflow, an empty Allowed Functions allows any function; a set one lets its functions through', async () => {
		const result = await run(
			call('get-user', { user_id: userId }, { allowedFunctions: ' get-user ,search-users' }),
		);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: userId })]);
	});

	it('REST: refused before any request, naming Support Board and what to use instead', async () => {
		// A closed port: a request sent would fail with a connection error, not with the refusal.
		const baseUrl = board.sandbox ? board.sandbox.origin : 'http://127.0.0.1:9';
		const [item] = jsonOf(await run(call('get-user', { user_id: 1 }), { api: 'rest', baseUrl }));
		expect(item.error).toBe(
			"The service description has no REST path to call a function by name: it exists only in Support Board's Web API (any function you name). For Support Board, choose Support Board Web API in the Support Chat API credentials; with the REST API, send the request your service documents with n8n's HTTP Request node, using these credentials.",
		);
		if (board.sandbox) expect(board.sandbox.requests).toEqual([]);
	});
});

describe('the retry rule: only what the user marks Safe to Repeat is repeated', () => {
	sandboxIt('a 500 is not retried by default, not even for a read', async () => {
		board.sandbox!.fault({ path: 'get-user', kind: '500' });
		const result = await run(call('get-user', { user_id: userId }));
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({
				httpCode: '500',
				error: expect.stringContaining('get-user not retried'),
			}),
		]);
		expect(functions()).toEqual(['get-user']);
	});

	sandboxIt(
		'with Safe to Repeat, a 500 is retried and the second answer is the result',
		async () => {
			board.sandbox!.fault({ path: 'update-user', kind: '500' });
			const result = await run(
				call(
					'update-user',
					{ user_id: userId, last_name: `Again${stamp}` },
					{ options: { safeToRepeat: true, maxAttempts: 2 } },
				),
			);
			expect(jsonOf(result)).toEqual([{ response: true }]);
			expect(functions()).toEqual(['update-user', 'update-user']);
		},
	);

	sandboxIt(
		'the Timeout option bounds the call, and a timeout is not repeated without Safe to Repeat',
		async () => {
			board.sandbox!.fault({ path: 'get-user', kind: 'slow', delayMs: 2500 });
			const started = Date.now();
			const result = await run(call('get-user', { user_id: userId }, { options: { timeout: 1 } }));
			expect(Date.now() - started).toBeLessThan(2400);
			expect(jsonOf(result)).toEqual([
				expect.objectContaining({
					error: expect.stringContaining('Could not reach the service for get-user'),
				}),
			]);
			expect(jsonOf(result)[0].error).toContain('get-user not retried');
			expect(functions()).toEqual(['get-user']);
		},
	);

	sandboxIt('a 429 is retried either way: the product refused before doing anything', async () => {
		board.sandbox!.fault({ path: 'get-user', kind: '429', retryAfter: 0 });
		const result = await run(
			call('get-user', { user_id: userId }, { options: { maxAttempts: 2 } }),
		);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: userId })]);
		expect(functions()).toEqual(['get-user', 'get-user']);
	});
});

describe("as an AI Agent's tool, only the Allowed Functions", () => {
	it('an empty list calls nothing, and says so in words the model reads', async () => {
		const result = await runTool(call('get-user', { user_id: userId }));
		expect(result.status).toBe('success');
		expect(jsonOf(result)).toEqual([
			{
				error:
					"This tool may call no Support Board function: its Allowed Functions list is empty, so get-user was not called. The workflow's author lists the functions the tool may call under Allowed Functions",
			},
		]);
		if (board.sandbox) expect(board.sandbox.requests).toEqual([]);
	});

	it('a function outside the list is refused before any request; one inside is called', async () => {
		const refused = await runTool(
			call('delete-user', { user_id: userId }, { allowedFunctions: 'get-user' }),
		);
		expect(jsonOf(refused)).toEqual([
			{
				error:
					'delete-user is not among the Allowed Functions (get-user), so it was not called: call one of these',
			},
		]);
		if (board.sandbox) expect(board.sandbox.requests).toEqual([]);
		expect(await board.call('get-user', { user_id: userId })).toMatchObject({ id: userId });
		const called = await runTool(
			call('get-user', { user_id: userId }, { allowedFunctions: 'get-user' }),
		);
		expect(jsonOf(called)).toEqual([expect.objectContaining({ id: userId, token: '[redacted]' })]);
		expect(functions() ?? ['get-user']).toEqual(['get-user']);
	});
});

/**
 * The functions whose product code hands the request's `token` argument to another service: the Web
 * API reads the admin token from that same argument, so the node calls none of them, in a workflow or
 * as a tool, even when Allowed Functions lists them. Read in include/ajax.php and the product's apps.
 */
const TOKEN_FORWARDS = [
	[
		'wechat-send-message',
		{ open_id: 'oWeChat1', message: 'Hello' },
		"WeChat's access token",
		'WeChat (api.weixin.qq.com)',
	],
	['telegram-synchronization', {}, "a Telegram bot's token", 'Telegram (api.telegram.org)'],
	['viber-synchronization', {}, "a Viber bot's token", 'Viber (chatapi.viber.com)'],
	['tickets-recaptcha', {}, 'a reCAPTCHA response', 'Google reCAPTCHA (www.google.com)'],
] as const;

describe("a function that would publish the product's secrets is never called", () => {
	it('export-settings (every setting, passwords and keys included, in a public file): refused before any request, even when allowed', async () => {
		for (const allowedFunctions of ['', 'export-settings']) {
			if (board.sandbox) board.sandbox.clearLog();
			const result = await run(call('export-settings', {}, { allowedFunctions }));
			expect(jsonOf(result)).toEqual([
				expect.objectContaining({
					error:
						"export-settings was not called: Support Board's export-settings would write every setting, its passwords and keys included, to a file in its uploads folder that anyone with the address can read, and answer that address",
				}),
			]);
			if (board.sandbox) expect(board.sandbox.requests).toEqual([]);
		}
	});
});

describe('functions that would hand the admin token to another service are never called', () => {
	const refusal = (name: string, as: string, service: string) =>
		`${name} was not called: Support Board's ${name} would take the admin token the Web API is called with for ${as} and send it to ${service}`;

	it.each(TOKEN_FORWARDS)(
		'%s: refused in a workflow before any request, even when allowed',
		async (name, args, as, service) => {
			board.sandbox?.supportBoard?.channels.installed.add('wechat');
			for (const allowedFunctions of ['', name]) {
				const result = await run(call(name, args, { allowedFunctions }));
				expect(jsonOf(result)).toEqual([
					expect.objectContaining({ error: refusal(name, as, service) }),
				]);
				if (board.sandbox) expect(board.sandbox.requests).toEqual([]);
			}
		},
	);

	it.each(TOKEN_FORWARDS)(
		'%s: refused as a tool before any request, the model told why',
		async (name, args, as, service) => {
			const result = await runTool(call(name, args, { allowedFunctions: `get-user, ${name}` }));
			expect(result.status).toBe('success');
			expect(jsonOf(result)).toEqual([{ error: refusal(name, as, service) }]);
			if (board.sandbox) expect(board.sandbox.requests).toEqual([]);
		},
	);

	it('a function that keeps the token in the product is called as before, in a workflow and as a tool', async () => {
		const inWorkflow = await run(call('get-user', { user_id: userId }));
		expect(jsonOf(inWorkflow)).toEqual([expect.objectContaining({ id: userId })]);
		const asTool = await runTool(
			call('get-user', { user_id: userId }, { allowedFunctions: 'get-user, wechat-send-message' }),
		);
		expect(jsonOf(asTool)).toEqual([expect.objectContaining({ id: userId })]);
		expect(functions() ?? ['get-user']).toEqual(['get-user']);
	});
});
