/**
 * Support Chat as an AI Agent's tool, as far as the node decides it: what n8n 2.41 makes of the tool
 * type's description and parameters for the model (the tool's description, the `$fromAI` arguments
 * with their types and descriptions, computed with n8n's own helpers), and the answer the model gets
 * when a call fails. The whole path through a real agent: e2e/tests/agent.e2e.test.ts.
 */
import {
	FROM_AI_AUTO_GENERATED_MARKER,
	NodeHelpers,
	traverseNodeParameters,
	type FromAIArgument,
	type INode,
	type INodeParameters,
	type INodeType,
} from 'n8n-workflow';

import { toolErrorItem } from '../../nodes/SupportChat/actions/toolMode';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { runNode } from '../helpers/engine';
import {
	ACTION_TYPE,
	byId,
	credentialsFor,
	jsonOf,
	runAction,
	TOKEN,
} from '../helpers/supportChat';

const TOOL_TYPE = `${ACTION_TYPE}Tool`;
const node = new SupportChat();
/** The tool type as n8n derives it from a usableAsTool node: the same node under the name `supportChatTool`. */
const tool = Object.create(node) as INodeType;
tool.description = { ...node.description, name: 'supportChatTool' };

/** The parameters n8n resolves for a tool node saved with only these (defaults filled in, as at run time). */
function toolParameters(saved: INodeParameters, type: INodeType = tool): INodeParameters {
	const toolNode = {
		name: 'Tool',
		type: TOOL_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: saved,
	} as INode;
	return (
		NodeHelpers.getNodeParameters(
			type.description.properties,
			saved,
			true,
			false,
			toolNode,
			type.description,
		) ?? {}
	);
}

/** The arguments the model is offered: n8n's create-node-as-tool collects the `$fromAI` calls so. */
function modelArguments(saved: INodeParameters): Record<string, Omit<FromAIArgument, 'key'>> {
	const collected: FromAIArgument[] = [];
	traverseNodeParameters(toolParameters(saved), collected);
	return Object.fromEntries(collected.map(({ key, ...rest }) => [key, rest]));
}

/** What the model is told about each input it fills: the text n8n hands it with each `$fromAI` argument. */
const TOLD = {
	userId: 'ID of the user, as in the id field of a Support Chat user record',
	conversationId:
		'ID of the conversation, as in the id field of a Support Chat conversation record',
	assignee: 'ID of the support agent (or team) to assign the conversation to',
	message: 'Text of the message to send into the conversation, as the support agent',
	tag: 'Name of the tag to add to the user, e.g. vip. A tag the service does not have yet is created.',
	findValue:
		'Email address or phone number of the user to find, as the user gave it (a phone with its leading + and country code)',
	userSearch: 'Text to look for in the users: part of a name, an email address or a phone number',
	conversationSearch:
		'Text to look for in the conversations: words of a message or subject, a name, an email address, or a conversation ID',
	whatsappPhone:
		"Phone number of the customer's WhatsApp, in international format with its leading + and country code, e.g. +4915112345678",
	templateName: 'Name of the approved WhatsApp template to send, e.g. order_update',
	functionName:
		'Name of the Support Board Web API function to call, e.g. get-user: one of the functions this tool allows',
	functionArguments:
		'Arguments of the function as a JSON object of argument names and values, e.g. {"user_id": "12"}; {} for none',
} as const;

/** The defaults by which the model fills an input, in the node's description (a resource locator's value included). */
function fromAiDefaults(): string[] {
	return node.description.properties
		.map(({ default: value }) =>
			typeof value === 'object' && value !== null && 'value' in value ? value.value : value,
		)
		.filter((value): value is string => typeof value === 'string' && value.includes('$fromAI('));
}

function toolDescription(saved: INodeParameters): string {
	const toolNode = {
		name: 'Tool',
		type: TOOL_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: toolParameters(saved),
	} as INode;
	return NodeHelpers.getToolDescriptionForNode(toolNode, tool);
}

describe('what the model is offered', () => {
	it('uses n8n’s own marker, so the editor shows the inputs as defined by the model', () => {
		const defaults = fromAiDefaults();
		expect(defaults.length).toBeGreaterThan(0);
		for (const value of defaults) expect(value).toContain(FROM_AI_AUTO_GENERATED_MARKER);
	});

	it.each([
		[{ resource: 'user', operation: 'get' }, 'Get a user by ID in Support Chat', ['userId']],
		[{ resource: 'user', operation: 'update' }, 'Update a user by ID in Support Chat', ['userId']],
		[{ resource: 'user', operation: 'delete' }, 'Delete a user by ID in Support Chat', ['userId']],
		[
			{ resource: 'conversation', operation: 'get' },
			'Get a conversation by ID in Support Chat',
			['conversationId'],
		],
		[
			{ resource: 'conversation', operation: 'assign' },
			'Assign a conversation to an agent in Support Chat',
			['conversationId', 'assignee'],
		],
		[
			{ resource: 'conversation', operation: 'close' },
			'Close a conversation in Support Chat',
			['conversationId'],
		],
		[
			{ resource: 'message', operation: 'send' },
			'Send a message to a conversation in Support Chat',
			['conversationId', 'message'],
		],
		[
			{ resource: 'tag', operation: 'add' },
			'Add a tag to a user in Support Chat',
			['userId', 'tag'],
		],
		[
			{ resource: 'conversation', operation: 'getAll' },
			'Get many conversations in Support Chat',
			[],
		],
		[{ resource: 'user', operation: 'create' }, 'Create a user in Support Chat', []],
		[
			{ resource: 'message', operation: 'getAll' },
			'Get many messages of a conversation to read its history in Support Chat',
			['conversationId'],
		],
		[
			{ resource: 'user', operation: 'find' },
			'Find a user by email or phone in Support Chat',
			['findValue'],
		],
		[{ resource: 'user', operation: 'search' }, 'Search users in Support Chat', ['userSearch']],
		[
			{ resource: 'user', operation: 'getConversations' },
			'Get conversations of a user in Support Chat',
			['userId'],
		],
		[
			{ resource: 'conversation', operation: 'search' },
			'Search conversations in Support Chat',
			['conversationSearch'],
		],
		[
			{ resource: 'message', operation: 'sendTemplate' },
			'Send a template message in Support Chat',
			['conversationId', 'templateName'],
		],
		[
			{ resource: 'message', operation: 'sendTemplate', sendTo: 'phone' },
			'Send a template message in Support Chat',
			['whatsappPhone', 'templateName'],
		],
		// Allowed Functions is the workflow author's, never the model's: see test/engine/supportBoard.webApi.test.ts.
		[
			{ resource: 'webApi', operation: 'call' },
			'Call a function by name in Support Chat',
			['functionName', 'functionArguments'],
		],
	])('%o: described as “%s”, the model fills %o', (saved, description, keys) => {
		expect(toolDescription(saved)).toBe(description);
		const offered = modelArguments(saved);
		expect(Object.keys(offered).sort()).toEqual([...keys].sort());
		for (const key of keys as Array<keyof typeof TOLD>) {
			expect(offered[key]).toEqual({
				type: 'string',
				description: TOLD[key],
				defaultValue: undefined,
			});
		}
	});

	it('tells the model what each input is', () => {
		const told = {
			...modelArguments({ resource: 'conversation', operation: 'assign' }),
			...modelArguments({ resource: 'tag', operation: 'add' }),
			...modelArguments({ resource: 'message', operation: 'send' }),
		};
		expect(told.userId.description).toMatch(/^ID of the user/);
		expect(told.conversationId.description).toMatch(/^ID of the conversation/);
		expect(told.assignee.description).toMatch(/^ID of the support agent/);
		expect(told.message.description).toMatch(/^Text of the message/);
		expect(told.tag.description).toMatch(/^Name of the tag/);
	});

	it('keeps a value the user set in the editor', () => {
		expect(modelArguments({ resource: 'user', operation: 'get', userId: byId('u_1') })).toEqual({});
	});

	it('leaves the workflow node as it was: From List, no $fromAI', () => {
		const parameters = NodeHelpers.getNodeParameters(
			node.description.properties,
			{ resource: 'tag', operation: 'add' },
			true,
			false,
			{
				name: 'Node',
				type: ACTION_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			} as INode,
			node.description,
		);
		expect(parameters).toMatchObject({
			userId: { mode: 'list', value: '' },
			tag: { mode: 'list', value: '' },
		});
		const collected: FromAIArgument[] = [];
		traverseNodeParameters(parameters ?? {}, collected);
		expect(collected).toEqual([]);
	});
});

describe('a failed call, as the model gets it', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ token: TOKEN, seed: { users: 2 } });
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => sandbox.reset());

	async function runTool(parameters: INodeParameters, extra: Partial<INode> = {}) {
		return await runNode({
			node: { name: 'Support Chat', type: TOOL_TYPE, parameters, ...extra },
			nodeTypes: { [TOOL_TYPE]: tool },
			credentials: credentialsFor(sandbox),
		});
	}

	it('is the tool’s answer: the message and the hint in one text', async () => {
		const run = await runTool({ resource: 'user', operation: 'get', userId: byId('u_missing') });
		expect(run.status).toBe('success');
		expect(jsonOf(run)).toEqual([
			{
				error:
					'The service answered GET /users/u_missing with 404: User u_missing not found. ' +
					'The user was not found. Check the ID, and that the Base URL in the credentials points at your service.',
			},
		]);
	});

	it('carries the hint of a bad input too', async () => {
		// The model may call without a value; n8n does not check a value an expression gives.
		const run = await runTool({ resource: 'user', operation: 'get', userId: byId('={{ "" }}') });
		expect(jsonOf(run)).toEqual([
			{
				error:
					'The user ID is empty. Give the user ID, or map it from an earlier node with an expression.',
			},
		]);
		expect(sandbox.requests).toEqual([]);
	});

	it('answers the model whatever On Error shows: the editor shows Stop Workflow when it was never set', async () => {
		const run = await runTool(
			{ resource: 'user', operation: 'get', userId: byId('u_missing') },
			{ onError: 'stopWorkflow' },
		);
		expect(run.status).toBe('success');
		expect(jsonOf(run)).toEqual([
			{ error: expect.stringContaining('The user was not found. Check the ID') },
		]);
	});

	it("stops the run when the tool's On Failed Call is Stop the Run", async () => {
		const run = await runTool({
			resource: 'user',
			operation: 'get',
			userId: byId('u_missing'),
			onFailedCall: 'stopRun',
		});
		expect(run.status).toBe('error');
		expect(run.error('Support Chat')).toMatchObject({
			name: 'NodeApiError',
			description: expect.stringContaining('The user was not found'),
		});
	});

	it('is unchanged in a workflow: the editor’s error with its hint apart', async () => {
		const run = await runAction(sandbox, {
			resource: 'user',
			operation: 'get',
			userId: byId('u_missing'),
		});
		expect(run.status).toBe('error');
		expect(run.error('Support Chat')).toMatchObject({
			name: 'NodeApiError',
			message: 'The service answered GET /users/u_missing with 404: User u_missing not found',
			description:
				'The user was not found. Check the ID, and that the Base URL in the credentials points at your service.',
		});
	});

	it.each([
		['Failed', 'Check it.', 'Failed. Check it.'],
		['Failed.', 'Check it.', 'Failed. Check it.'],
		['Failed: check it.', 'check it.', 'Failed: check it.'],
		['Failed', undefined, 'Failed'],
		['Failed', '  ', 'Failed'],
	])('joins “%s” and “%s” as “%s”', (message, description, expected) => {
		const error = Object.assign(new Error(message), { description });
		expect(toolErrorItem(error, 0).json.error).toBe(expected);
	});
});
