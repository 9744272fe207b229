/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Message → Send Template (issue 29, item 2): an approved WhatsApp template through Support Board's
 * whatsapp-send-template, run by the real n8n engine against the sandbox's Support Board mode or, with
 * SUPPORT_CHAT_TESTBED=/tmp/sb/run/env.json, against the real product (test/helpers/board.ts) with its
 * WhatsApp app, whose Graph requests the test bed's stand-in logs (env.json's vendorLog). The template
 * picker: 3.8.7 (sandbox and test bed) has no whatsapp-get-templates in its Web API; the sandbox as 3.8.9
 * lists the app's templates. The REST API refuses before any request; as an AI tool, a refusal is the
 * model's answer.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import type { IDataObject, INode, INodeParameters, INodeType } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { Board } from '../helpers/board';
import { TESTBED_ENV, onTestbed, openBoard } from '../helpers/board';
import { callMethod, runNode } from '../helpers/engine';
import { ACTION_TYPE, TOKEN, byId, credentialsFor, jsonOf } from '../helpers/supportChat';

const TOOL_TYPE = `${ACTION_TYPE}Tool`;
const node = new SupportChat();
/** The tool type as n8n derives it from a usableAsTool node. */
const tool = Object.create(node) as INodeType;
tool.description = { ...node.description, name: 'supportChatTool' };

let board: Board;
beforeAll(async () => {
	board = await openBoard();
	board.sandbox?.supportBoard?.channels.installed.add('whatsapp');
});
afterAll(async () => await board.close());

const credentials = (data: IDataObject = board.credentials as unknown as IDataObject) => ({
	types: [new SupportChatApi()],
	data: { supportChatApi: data },
});

const byName = (value: string) => ({ __rl: true, mode: 'name', value });

async function run(parameters: INodeParameters, extra: Partial<INode> = {}) {
	return await runNode({
		node: {
			name: 'Support Chat',
			type: ACTION_TYPE,
			parameters: { resource: 'message', operation: 'sendTemplate', ...parameters },
			onError: 'continueRegularOutput',
			...extra,
		},
		nodeTypes: { [ACTION_TYPE]: node, [TOOL_TYPE]: tool },
		credentials: credentials(),
	});
}

const env = (): {
	vendorLog: string;
	adminToken: string;
	whatsapp: { phoneId: string; token: string };
} => JSON.parse(readFileSync(TESTBED_ENV, 'utf8'));

interface Vendor {
	path: string;
	auth?: string;
	body?: string;
	fields?: Record<string, string>;
}

/** What the test bed's stand-in for Graph received for this phone (the phone is the test's own). */
function graphTo(phone: string): Vendor[] {
	return readFileSync(env().vendorLog, 'utf8')
		.split('\n')
		.filter((line) => line.includes('"graph.facebook.com"') && line.includes(phone))
		.map((line) => JSON.parse(line) as Vendor)
		.filter((entry) => entry.fields?.to === phone);
}

/** The sandbox's whatsapp-send-template requests, as it logged their bodies. */
const templateCalls = (): IDataObject[] =>
	(board.sandbox?.requests ?? [])
		.map((r) => r.body as IDataObject)
		.filter((body) => body?.function === 'whatsapp-send-template');

/** The number the test bed's WhatsApp app is set up with; the sandbox's conversations name the same. */
const phoneId = () => (onTestbed ? env().whatsapp.phoneId : '109000000000001');

const randomPhone = () => `1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

/** A customer writes on WhatsApp: their phone (digits), user and conversation. */
async function whatsappCustomer(): Promise<{ phone: string; conversation: string; user: string }> {
	const phone = randomPhone();
	if (onTestbed) {
		const out = execFileSync(
			'node',
			[
				'/work/shared/supportboard/whatsapp-inbound.mjs',
				'--from',
				phone,
				'--name',
				'Tess Template',
				'--text',
				'Hello',
			],
			{ encoding: 'utf8', env: { ...process.env, SB_ENV: TESTBED_ENV } },
		);
		const made = JSON.parse(out) as { user: { id: string }; conversation: { id: string } };
		return { phone, conversation: made.conversation.id, user: made.user.id };
	}
	const user = String(
		await board.call('add-user', {
			first_name: 'Tess',
			last_name: 'Template',
			extra: { phone: [`+${phone}`, 'Phone'] },
		}),
	);
	const made = (await board.call('new-conversation', {
		user_id: user,
		source: 'wa',
		extra: '109000000000001',
	})) as { details: { id: string } };
	return { phone, user, conversation: String(made.details.id) };
}

/** The product's record of sent templates in a conversation: its messages that name one. */
async function recorded(conversation: string): Promise<IDataObject[]> {
	const answer = (await board.call('get-conversation', { conversation_id: conversation })) as {
		messages: IDataObject[];
	};
	return answer.messages.filter((m) => String(m.message).startsWith('WhatsApp Template *'));
}

const ORDER_UPDATE = {
	template: byName('order_update'),
	language: 'en_US',
	templateParameters: {
		parameter: [
			{ part: 'body', value: 'Tess' },
			{ part: 'body', value: 'A-1001' },
		],
	},
};

describe(`Send Template by name (${onTestbed ? 'test bed' : 'sandbox'})`, () => {
	it('to a WhatsApp conversation: one template message to its customer, recorded as the admin area records it', async () => {
		const customer = await whatsappCustomer();
		const [item] = jsonOf(
			await run({
				sendTo: 'conversation',
				conversationId: byId(customer.conversation),
				...ORDER_UPDATE,
			}),
		);
		expect(item).toMatchObject({
			channel: 'WhatsApp',
			status: 'sent',
			whatsappMessageId: expect.stringMatching(/^wamid\./),
			recordedInSupportBoard: true,
			sent: {
				to: customer.phone,
				template_name: 'order_update',
				template_languages: 'en_US',
				parameters: ['', 'Tess,A-1001', ''],
				phone_id: '109000000000001',
				recipient_id: customer.user,
			},
		});
		expect(item.response).toMatchObject({ messages: [{ id: item.whatsappMessageId }] });
		const records = await recorded(customer.conversation);
		expect(records.map((m) => [m.message, String(m.user_id)])).toEqual([
			['WhatsApp Template *order_update*', board.staff.adminId],
		]);
		if (onTestbed) {
			const graph = graphTo(customer.phone);
			expect(graph).toHaveLength(1);
			expect(graph[0].path).toBe(`/v18.0/${env().whatsapp.phoneId}/messages`);
			expect(graph[0].fields).toMatchObject({
				type: 'template',
				'template[name]': 'order_update',
				'template[language][code]': 'en_US',
				'template[components][0][type]': 'body',
				'template[components][0][parameters][0][text]': 'Tess',
				'template[components][0][parameters][1][text]': 'A-1001',
			});
			// The app sends with its own token for that number: the admin token stays in Support Board.
			expect(graph[0].auth).toBe(`Bearer ${env().whatsapp.token}`);
			expect(JSON.stringify(graph[0])).not.toContain(env().adminToken);
		} else {
			const calls = templateCalls();
			expect(calls).toHaveLength(1);
			expect(calls[0]).toMatchObject({
				to: customer.phone,
				template_name: 'order_update',
				template_languages: 'en_US',
				parameters: JSON.stringify(['', 'Tess,A-1001', '']),
				phone_id: '109000000000001',
				recipient_id: customer.user,
			});
		}
	});

	it('to a phone number: its user is found, so the product records the template in their conversation', async () => {
		const customer = await whatsappCustomer();
		const before = templateCalls().length;
		const [item] = jsonOf(
			await run({
				sendTo: 'phone',
				phone: `+${customer.phone.slice(0, 4)} ${customer.phone.slice(4)}`,
				phoneId: phoneId(),
				template: byName('order_update'),
				language: 'de',
			}),
		);
		expect(item).toMatchObject({
			status: 'sent',
			recordedInSupportBoard: true,
			sent: {
				to: customer.phone,
				template_name: 'order_update',
				template_languages: 'de',
				parameters: ['', '', ''],
				phone_id: phoneId(),
				recipient_id: customer.user,
			},
		});
		expect((await recorded(customer.conversation)).map((m) => m.message)).toEqual([
			'WhatsApp Template *order_update*',
		]);
		if (onTestbed) {
			const graph = graphTo(customer.phone);
			expect(graph).toHaveLength(1);
			expect(graph[0].fields).toMatchObject({
				type: 'template',
				'template[name]': 'order_update',
				'template[language][code]': 'de',
			});
			expect(Object.keys(graph[0].fields ?? {}).some((k) => k.includes('components'))).toBe(false);
		} else {
			expect(templateCalls().slice(before)).toEqual([
				expect.objectContaining({ to: customer.phone, template_languages: 'de' }),
			]);
		}
	});

	it('to a number no user has: sent, and the product records nothing', async () => {
		const phone = randomPhone();
		const [item] = jsonOf(
			await run({
				sendTo: 'phone',
				phone: `+${phone}`,
				phoneId: phoneId(),
				template: byName('order_update'),
				language: 'en_US',
			}),
		);
		expect(item).toMatchObject({
			status: 'sent',
			recordedInSupportBoard: false,
			sent: { to: phone, phone_id: phoneId() },
		});
		expect((item.sent as IDataObject).recipient_id).toBeUndefined();
		if (onTestbed) {
			const graph = graphTo(phone);
			expect(graph).toHaveLength(1);
			expect(graph[0].path).toBe(`/v18.0/${phoneId()}/messages`);
		} else expect(templateCalls().filter((c) => c.to === phone)).toHaveLength(1);
	});

	it('checks the phone number before sending, as User → Create does', async () => {
		const before = templateCalls().length;
		const [item] = jsonOf(
			await run({
				sendTo: 'phone',
				phone: '0151 1234567',
				phoneId: phoneId(),
				template: byName('order_update'),
				language: 'en_US',
			}),
		);
		expect(item.error).toBe('Phone "0151 1234567" is not in international format');
		expect(templateCalls()).toHaveLength(before);
	});

	it('asks for the number to send from with Phone Number, before sending', async () => {
		const before = templateCalls().length;
		const phone = randomPhone();
		// n8n refuses a workflow that leaves it out; an expression may still give nothing.
		const [item] = jsonOf(
			await run({
				sendTo: 'phone',
				phone: `+${phone}`,
				phoneId: '={{ "" }}',
				template: byName('order_update'),
				language: 'en_US',
			}),
		);
		expect(item.error).toBe('Sender Phone Number ID is empty');
		expect(templateCalls()).toHaveLength(before);
		if (onTestbed) expect(graphTo(phone)).toHaveLength(0);
	});

	it('refuses a parameter with a comma before sending: the product would cut it in two', async () => {
		const customer = await whatsappCustomer();
		const [item] = jsonOf(
			await run({
				conversationId: byId(customer.conversation),
				template: byName('order_update'),
				language: 'en_US',
				templateParameters: { parameter: [{ part: 'body', value: 'Smith, Tess' }] },
			}),
		);
		expect(item.error).toBe(
			'Parameter 1 (body) holds a comma ("Smith, Tess"): Support Board cuts a template\'s values at commas, so it would arrive as two values',
		);
		const [empty] = jsonOf(
			await run({
				conversationId: byId(customer.conversation),
				template: byName('order_update'),
				language: 'en_US',
				templateParameters: {
					parameter: [
						{ part: 'header', value: 'https://example.com/box.jpg' },
						{ part: 'body', value: '={{ "" }}' },
					],
				},
			}),
		);
		expect(empty.error).toBe('Parameter 2 (body) is empty: WhatsApp refuses an empty placeholder');
		if (onTestbed) expect(graphTo(customer.phone)).toHaveLength(0);
		else expect(templateCalls().filter((c) => c.to === customer.phone)).toHaveLength(0);
	});

	it("fails the item with Meta's words when WhatsApp refuses inside HTTP 200; continue-on-fail pairs it", async () => {
		const customer = await whatsappCustomer();
		const result = await run({
			conversationId: byId(customer.conversation),
			template: byName('order_update'),
			language: 'en_US',
			templateParameters: { parameter: [{ part: 'body', value: 'bounce #graph-error' }] },
		});
		const [out] = result.output('Support Chat');
		expect(out.pairedItem).toEqual({ item: 0 });
		expect(out.json).toMatchObject({
			error:
				'WhatsApp refused template order_update: (#131030) Recipient phone number not in allowed list',
			httpCode: '200',
			description: expect.stringMatching(/^Nothing was sent, and Support Board recorded nothing/),
		});
		expect(await recorded(customer.conversation)).toEqual([]);
		if (onTestbed) expect(graphTo(customer.phone)).toHaveLength(1);
	});

	it('refuses a conversation that did not come from WhatsApp before sending anything', async () => {
		const user = await board.addUser('Web', 'Visitor', `web.${Date.now()}@example.com`);
		const made = (await board.call('new-conversation', { user_id: user })) as {
			details: { id: string };
		};
		const before = templateCalls().length;
		const [item] = jsonOf(
			await run({ conversationId: byId(String(made.details.id)), ...ORDER_UPDATE }),
		);
		expect(item.error).toBe(
			`Conversation ${made.details.id} did not come from WhatsApp (its source is none: the chat widget), and a template goes to WhatsApp only: nothing was sent`,
		);
		expect(templateCalls()).toHaveLength(before);
	});
});

describe(`the template picker on 3.8.7 (${onTestbed ? 'test bed' : 'sandbox'})`, () => {
	it('says that this Web API has no whatsapp-get-templates, which came in 3.8.9, and to use By Name', async () => {
		const pick = callMethod({
			node: { type: ACTION_TYPE, parameters: { resource: 'message', operation: 'sendTemplate' } },
			nodeType: node,
			credentials: credentials(),
			call: async (ctx) => await node.methods.listSearch.searchWhatsAppTemplates.call(ctx),
		});
		await expect(pick).rejects.toThrow(
			"This Support Board's Web API has no whatsapp-get-templates: it came in Support Board 3.8.9. Choose By Name and type the template's name",
		);
	});
});

describe('the sandbox as 3.8.9: the picker lists the approved templates', () => {
	let sandbox: Sandbox;
	const TOKEN_389 = 'sb-templates-token-389';
	beforeAll(async () => {
		sandbox = await startSandbox({
			api: 'support-board',
			token: TOKEN_389,
			seed: { users: 0, conversations: 0 },
			supportBoard: { version: '3.8.9' },
		});
	});
	afterAll(async () => await sandbox.close());

	const pick = (filter?: string) =>
		callMethod({
			node: { type: ACTION_TYPE, parameters: { resource: 'message', operation: 'sendTemplate' } },
			nodeType: node,
			credentials: credentials({
				api: 'supportBoard',
				baseUrl: sandbox.supportBoard!.installUrl,
				apiToken: TOKEN_389,
			}),
			call: async (ctx) => await node.methods.listSearch.searchWhatsAppTemplates.call(ctx, filter),
		});

	it('by name, with their languages and number; a pending one is left out', async () => {
		sandbox.supportBoard!.channels.installed.add('whatsapp');
		expect((await pick()).results).toEqual([
			{ name: 'order_update (en_US, de) · Sandbox number', value: 'order_update' },
		]);
		expect((await pick('sale')).results).toEqual([]);
		expect(sandbox.requests.at(-1)?.body).toMatchObject({ function: 'whatsapp-get-templates' });
	});

	it('says what Graph answered when the app could not read the templates', async () => {
		const refusal = sandbox.supportBoard!.channels.templatesRefusal;
		refusal.value = {
			error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 },
		};
		try {
			await expect(pick()).rejects.toThrow(
				'Support Board could not list the WhatsApp templates: Invalid OAuth access token.',
			);
		} finally {
			refusal.value = null;
		}
	});
});

describe('the REST API', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ token: TOKEN, seed: { users: 1 } });
	});
	afterAll(async () => await sandbox.close());

	it('refuses Send Template before any request: it is Support Board only', async () => {
		const result = await runNode({
			node: {
				name: 'Support Chat',
				type: ACTION_TYPE,
				parameters: {
					resource: 'message',
					operation: 'sendTemplate',
					sendTo: 'phone',
					phone: '+4915112345678',
					phoneId: '109000000000001',
					...ORDER_UPDATE,
				},
				onError: 'continueRegularOutput',
			},
			nodeTypes: { [ACTION_TYPE]: node },
			credentials: credentialsFor(sandbox),
		});
		const [item] = jsonOf(result);
		expect(item.error).toMatch(
			/^The service description has no REST path to send a WhatsApp template: it exists only in Support Board's Web API \(whatsapp-send-template/,
		);
		expect(sandbox.requests).toEqual([]);
	});
});

describe(`as an AI tool (${onTestbed ? 'test bed' : 'sandbox'})`, () => {
	it('sends the template the model names to the conversation it names', async () => {
		const customer = await whatsappCustomer();
		const result = await run(
			{ conversationId: byId(customer.conversation), ...ORDER_UPDATE },
			{ type: TOOL_TYPE, onError: undefined },
		);
		expect(result.status).toBe('success');
		expect(jsonOf(result)[0]).toMatchObject({ status: 'sent', recordedInSupportBoard: true });
		if (onTestbed) expect(graphTo(customer.phone)).toHaveLength(1);
	});

	it("answers the model with WhatsApp's refusal and what to check", async () => {
		const customer = await whatsappCustomer();
		const result = await run(
			{
				conversationId: byId(customer.conversation),
				template: byName('order_update'),
				language: 'en_US',
				templateParameters: { parameter: [{ part: 'body', value: '#graph-error' }] },
			},
			{ type: TOOL_TYPE, onError: undefined },
		);
		expect(result.status).toBe('success');
		expect(jsonOf(result)).toEqual([
			{
				error: expect.stringMatching(
					/^WhatsApp refused template order_update: \(#131030\) Recipient phone number not in allowed list\. Nothing was sent, and Support Board recorded nothing\./,
				),
			},
		]);
	});
});
