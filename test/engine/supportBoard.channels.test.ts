/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Message → Send on Support Board with attachments and messaging channels, run by the real n8n engine
 * against the sandbox's Support Board mode or, with SUPPORT_CHAT_TESTBED=/tmp/sb/run/env.json, against
 * the real product (test/helpers/board.ts) with its WhatsApp app and the test bed's stand-in for Graph
 * (its requests read back from env.json's vendorLog). Files come from an item's binary data, made by a
 * node before Support Chat, and go through the product's upload.php.
 *
 * WhatsApp runs on both here; the other channels' cases below (Messenger, Instagram, Telegram, Viber,
 * Zalo, LINE: a missing app, answers that tell nothing) are the product's source as the sandbox models it;
 * WeChat is refused before any store. Telegram, Messenger and Instagram against the product's own apps,
 * from the customer's message to the reply: channels.board.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Board } from '../helpers/board';
import { TESTBED_ENV, onTestbed, openBoard } from '../helpers/board';
import { START_NODE_TYPE, runWorkflow } from '../helpers/engine';
import { ACTION_TYPE } from '../helpers/supportChat';

const FILE_TEXT = `Invoice for the channels test ${randomUUID()}\n`;

/** Emits one item with a text file in its binary property `invoice`. */
class MakeFile implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Make File',
		name: 'test.makeFile',
		group: ['input'],
		version: 1,
		description: 'Emits an item with a binary file',
		defaults: { name: 'Make File' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const data = await this.helpers.prepareBinaryData(
			Buffer.from(FILE_TEXT),
			'invoice.txt',
			'text/plain',
		);
		return [[{ json: {}, binary: { invoice: data } }]];
	}
}

let board: Board;
beforeAll(async () => {
	board = await openBoard();
});
afterAll(async () => await board.close());

async function send(parameters: INodeParameters): Promise<IDataObject> {
	const run = await runWorkflow({
		workflow: {
			nodes: [
				{
					id: '1',
					name: 'Start',
					type: START_NODE_TYPE,
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: '2',
					name: 'Make File',
					type: 'test.makeFile',
					typeVersion: 1,
					position: [200, 0],
					parameters: {},
				},
				{
					id: '3',
					name: 'Support Chat',
					type: ACTION_TYPE,
					typeVersion: 1,
					position: [400, 0],
					parameters: {
						resource: 'message',
						operation: 'send',
						messageType: 'agent',
						...parameters,
					},
					onError: 'continueRegularOutput',
				},
			],
			connections: {
				Start: { main: [[{ node: 'Make File', type: NodeConnectionTypes.Main, index: 0 }]] },
				'Make File': {
					main: [[{ node: 'Support Chat', type: NodeConnectionTypes.Main, index: 0 }]],
				},
			},
		},
		nodeTypes: { [ACTION_TYPE]: new SupportChat(), 'test.makeFile': new MakeFile() },
		credentials: {
			types: [new SupportChatApi()],
			data: { supportChatApi: { ...board.credentials } },
		},
	});
	return run.output('Support Chat')[0].json;
}

const conversationId = (id: string) => ({ __rl: true, mode: 'id', value: id });

/**
 * The messages stored in a conversation besides its customer's own (a channel's conversation opens
 * with the customer's message), as get-conversation reads them back.
 */
async function storedMessages(id: string): Promise<IDataObject[]> {
	const conversation = (await board.call('get-conversation', {
		conversation_id: id,
	})) as IDataObject;
	const customer = String((conversation.details as IDataObject).user_id);
	return (conversation.messages as IDataObject[]).filter((m) => String(m.user_id) !== customer);
}

interface Vendor {
	path: string;
	fields?: Record<string, string>;
	host?: string;
	time?: string;
}

/** What the test bed's stand-in for Graph received for this phone (its log lines; the phone is the test's own). */
function graphTo(phone: string): Vendor[] {
	if (!onTestbed) return [];
	const env = JSON.parse(readFileSync(TESTBED_ENV, 'utf8')) as { vendorLog: string };
	return readFileSync(env.vendorLog, 'utf8')
		.split('\n')
		.filter((line) => line.includes('"graph.facebook.com"') && line.includes(phone))
		.map((line) => JSON.parse(line) as Vendor)
		.filter((entry) => entry.fields?.to === phone);
}

/** A customer writes on WhatsApp: their user and conversation. */
async function whatsappCustomer(): Promise<{ phone: string; conversation: string; user: string }> {
	const phone = `1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
	if (onTestbed) {
		const out = execFileSync(
			'node',
			[
				'/work/shared/supportboard/whatsapp-inbound.mjs',
				'--from',
				phone,
				'--name',
				'Wanda Channel',
				'--text',
				'Hello',
			],
			{ encoding: 'utf8', env: { ...process.env, SB_ENV: TESTBED_ENV } },
		);
		const made = JSON.parse(out) as { user: { id: string }; conversation: { id: string } };
		return { phone, conversation: made.conversation.id, user: made.user.id };
	}
	return { phone, ...(await channelConversation('wa', 'phone', `+${phone}`, '109000000000001')) };
}

/**
 * Sandbox: a user with the channel's extra field and a conversation from that channel, which the
 * customer opens by writing (WhatsApp, Messenger and Instagram take a reply only within 24 hours of it).
 */
async function channelConversation(source: string, slug: string, value: string, extra: string) {
	const user = String(
		await board.call('add-user', {
			first_name: 'Chan',
			last_name: source,
			extra: { [slug]: [value, slug] },
		}),
	);
	const made = (await board.call('new-conversation', {
		user_id: user,
		source,
		extra,
	})) as IDataObject;
	const conversation = String((made.details as IDataObject).id);
	await board.call('send-message', { user_id: user, conversation_id: conversation, message: 'Hi' });
	return { user, conversation };
}

describe(`Message → Send to a WhatsApp conversation (${onTestbed ? 'test bed' : 'sandbox'})`, () => {
	beforeAll(() => board.sandbox?.supportBoard?.channels.installed.add('whatsapp'));

	it('stores the reply with a file from binary data and a URL, and delivers both to WhatsApp', async () => {
		const customer = await whatsappCustomer();
		const fileUrl = 'https://files.example.com/terms.pdf';
		const item = await send({
			conversationId: conversationId(customer.conversation),
			message: 'Here is your invoice',
			additionalFields: {
				binaryAttachments: 'invoice',
				attachmentUrls: { attachment: [{ name: 'terms.pdf', url: fileUrl }] },
			},
		});
		expect(item.error).toBeUndefined();
		expect(item.delivery).toEqual({
			channel: 'WhatsApp',
			status: 'delivered',
			channelMessageId: expect.stringMatching(/^wamid\./),
		});
		const stored = (await storedMessages(customer.conversation)).find(
			(m) => String(m.id) === String(item.id),
		);
		const attachments = JSON.parse(String(stored?.attachments)) as string[][];
		expect(attachments.map((a) => a[0])).toEqual(['invoice.txt', 'terms.pdf']);
		expect(attachments[1][1]).toBe(fileUrl);
		const uploaded = await fetch(attachments[0][1]);
		expect(await uploaded.text()).toBe(FILE_TEXT);

		if (onTestbed) {
			const graph = graphTo(customer.phone);
			expect(graph.map((g) => g.fields?.to)).toEqual([
				customer.phone,
				customer.phone,
				customer.phone,
			]);
			expect(graph[0].fields?.['text[body]']).toBe('Here is your invoice');
			expect(
				graph.slice(1).map((g) => g.fields?.['document[link]'] ?? g.fields?.['image[link]']),
			).toEqual([attachments[0][1], fileUrl]);
		} else {
			const sent = board.sandbox!.supportBoard!.channels.sent.at(-1)!;
			expect(sent).toMatchObject({
				fn: 'whatsapp-send-message',
				recipient: customer.phone,
				message: 'Here is your invoice',
			});
			expect(sent.args).toMatchObject({ phone_id: '109000000000001', message_id: String(item.id) });
			expect(sent.attachments).toEqual(attachments);
		}
	});

	it('fails when WhatsApp refuses, saying the message is stored (its ID) and was not delivered', async () => {
		const customer = await whatsappCustomer();
		const item = await send({
			conversationId: conversationId(customer.conversation),
			message: 'This one bounces #graph-error',
		});
		const stored = (await storedMessages(customer.conversation)).filter((m) =>
			String(m.message).includes('#graph-error'),
		);
		expect(stored).toHaveLength(1);
		expect(item.error).toBe(
			`The message is stored in Support Board (message ID ${String(stored[0].id)}) but was NOT delivered to WhatsApp: WhatsApp refused it: (#131030) Recipient phone number not in allowed list`,
		);
		if (onTestbed) expect(graphTo(customer.phone)).toHaveLength(1);
	});

	it('Send As User: written as the customer, so not sent back to them', async () => {
		const customer = await whatsappCustomer();
		const sentBefore = board.sandbox?.supportBoard?.channels.sent.length;
		const item = await send({
			conversationId: conversationId(customer.conversation),
			message: "In the customer's words",
			messageType: 'user',
		});
		expect(item.error).toBeUndefined();
		expect(item.delivery).toBeUndefined();
		expect(graphTo(customer.phone)).toEqual([]);
		expect(board.sandbox?.supportBoard?.channels.sent.length).toBe(sentBefore);
	});

	it('Deliver to Channel off: stored only, nothing sent to WhatsApp', async () => {
		const customer = await whatsappCustomer();
		const sentBefore = board.sandbox?.supportBoard?.channels.sent.length;
		const item = await send({
			conversationId: conversationId(customer.conversation),
			message: 'Stored only',
			additionalFields: { deliverToChannel: false },
		});
		expect(item.error).toBeUndefined();
		expect(item.delivery).toBeUndefined();
		expect(graphTo(customer.phone)).toEqual([]);
		expect(board.sandbox?.supportBoard?.channels.sent.length).toBe(sentBefore);
	});
});

const sandboxDescribe = onTestbed ? describe.skip : describe;

/** Each channel as the product's source has it: its source, where the recipient is, and what refuses. */
const CHANNELS = [
	{
		source: 'fb',
		name: 'Messenger',
		fn: 'messenger-send-message',
		app: 'messenger',
		slug: 'facebook-id',
		arg: 'psid',
		refusal: "(#551) This person isn't available right now.",
	},
	{
		source: 'ig',
		name: 'Instagram',
		fn: 'messenger-send-message',
		app: 'messenger',
		slug: 'facebook-id',
		arg: 'psid',
		refusal: "(#551) This person isn't available right now.",
	},
	{
		source: 'tg',
		name: 'Telegram',
		fn: 'telegram-send-message',
		app: 'telegram',
		slug: '',
		arg: 'chat_id',
		refusal: 'Forbidden: bot was blocked by the user',
	},
	{
		source: 'vb',
		name: 'Viber',
		fn: 'viber-send-message',
		app: 'viber',
		slug: 'viber-id',
		arg: 'viber_id',
		refusal: 'notSubscribed',
	},
	{
		source: 'za',
		name: 'Zalo',
		fn: 'zalo-send-message',
		app: 'zalo',
		slug: 'zalo-id',
		arg: 'zalo_id',
		refusal: 'User has not interacted with the OA in 7 days',
	},
	{
		source: 'ln',
		name: 'LINE',
		fn: 'line-send-message',
		app: 'line',
		slug: 'line-id',
		arg: 'line_id',
		refusal: "The property, 'to', in the request body is invalid",
	},
];

sandboxDescribe('Message → Send to every channel the product has (sandbox)', () => {
	const channels = () => board.sandbox!.supportBoard!.channels;

	async function conversationOn(c: (typeof CHANNELS)[number]) {
		// Telegram's recipient is the conversation's chat ID; the others' an extra field of the user.
		const recipient = `${c.source}-recipient-${randomUUID().slice(0, 6)}`;
		const made = await channelConversation(
			c.source,
			c.slug || 'note',
			recipient,
			c.slug ? 'page-or-phone-id' : recipient,
		);
		return { ...made, recipient };
	}

	it.each(CHANNELS)('$name: the reply goes to $fn with $arg', async (c) => {
		channels().installed.add(c.app);
		const { conversation, recipient } = await conversationOn(c);
		const item = await send({
			conversationId: conversationId(conversation),
			message: `Hello on ${c.name}`,
		});
		expect(item.error).toBeUndefined();
		expect(item.delivery).toMatchObject({ channel: c.name, status: 'delivered' });
		const sent = channels().sent.at(-1)!;
		expect(sent).toMatchObject({ fn: c.fn, recipient, message: `Hello on ${c.name}` });
	});

	it.each(CHANNELS)('$name: a refusal fails the item, the message stored', async (c) => {
		channels().installed.add(c.app);
		const { conversation } = await conversationOn(c);
		const item = await send({
			conversationId: conversationId(conversation),
			message: 'No #channel-error',
		});
		const [stored] = await storedMessages(conversation);
		expect(item.error).toBe(
			`The message is stored in Support Board (message ID ${String(stored.id)}) but was NOT delivered to ${c.name}: ${c.name} refused it: ${c.refusal}`,
		);
	});

	it.each(CHANNELS)(
		'$name: without its app (HTTP 500, empty body) the reply is refused before it is stored',
		async (c) => {
			// Asked first with nothing to send, the function answers only when its app is there; a 500
			// then can only be a missing app, and nothing is stored: after the store, a 500 is not known.
			channels().installed.delete(c.app);
			const { conversation } = await conversationOn(c);
			board.sandbox!.clearLog();
			const item = await send({
				conversationId: conversationId(conversation),
				message: 'Nobody listens',
			});
			expect(item.error).toBe(
				`Conversation ${conversation} is on ${c.name}, and Support Board answered ${c.fn} with HTTP 500 when asked to send nothing, as it does when its ${c.name} app is not installed or not enabled: nothing was stored`,
			);
			expect(await storedMessages(conversation)).toEqual([]);
			const called = board.sandbox!.requests.map((r) => r.function);
			expect(called).toContain(c.fn);
			expect(called).not.toContain('send-message');
		},
	);

	it('a check of the app that fails on the way (502) stores nothing and sends nothing', async () => {
		const telegram = CHANNELS.find((c) => c.source === 'tg')!;
		channels().installed.add('telegram');
		const { conversation } = await conversationOn(telegram);
		const sentBefore = channels().sent.length;
		board.sandbox!.fault({ path: 'telegram-send-message', kind: 'status', status: 502 });
		const item = await send({ conversationId: conversationId(conversation), message: 'Hi' });
		expect(item.error).toMatch(
			new RegExp(
				`^Conversation ${conversation} is on Telegram, and Support Board did not answer telegram-send-message when asked to send nothing: .*: nothing was stored$`,
			),
		);
		expect(await storedMessages(conversation)).toEqual([]);
		expect(channels().sent.length).toBe(sentBefore);
	});

	it.each(CHANNELS)(
		'$name: an empty 500 after the channel was called is not known, never NOT delivered',
		async (c) => {
			// In production a PHP timeout after the send, or Telegram's app dying after the first of two
			// attachments, is an empty 500: the customer may have the reply, and a resend would repeat it.
			channels().installed.add(c.app);
			const { conversation } = await conversationOn(c);
			const sentBefore = channels().sent.length;
			const item = await send({
				conversationId: conversationId(conversation),
				message: 'Sent, then PHP died #channel-dies',
			});
			const [stored] = await storedMessages(conversation);
			expect(channels().sent.length).toBe(sentBefore + 1);
			expect(item.error).toBe(
				`The message is stored in Support Board (message ID ${String(stored.id)}), but whether ${c.name} received it is not known: Support Board answered ${c.fn} with HTTP 500, as it does when PHP stops inside the function, which may have sent it first`,
			);
			expect(item.error).not.toMatch(/NOT delivered/);
			expect(item.description).toContain('Look at the conversation before sending it again');
		},
	);

	it.each(CHANNELS.filter((c) => c.source === 'fb' || c.source === 'tg'))(
		"$name: the product's own refusal (HTTP 200, status error) is said, not taken for a missing app",
		async (c) => {
			channels().installed.add(c.app);
			const { conversation } = await conversationOn(c);
			const item = await send({
				conversationId: conversationId(conversation),
				message: 'Who? #channel-unknown',
			});
			const [stored] = await storedMessages(conversation);
			expect(item.error).toMatch(
				new RegExp(
					`^The message is stored in Support Board \\(message ID ${String(stored.id)}\\) but was NOT delivered to ${c.name}: .*User with (PSID|chat ID) +\\S+ not found\\.`,
				),
			);
			expect(item.error).not.toMatch(/app is not installed/);
		},
	);

	it('an answer lost after the channel function ran (502) is not said to be a delivery that did not happen', async () => {
		const telegram = CHANNELS.find((c) => c.source === 'tg')!;
		channels().installed.add('telegram');
		const { conversation } = await conversationOn(telegram);
		const sentBefore = channels().sent.length;
		// The first call asks whether the app answers (nothing to send): it goes through; the send's answer is lost.
		board.sandbox!.fault({ path: 'telegram-send-message', kind: 'slow', delayMs: 0 });
		board.sandbox!.fault({ path: 'telegram-send-message', kind: 'drop-after-write', status: 502 });
		const item = await send({
			conversationId: conversationId(conversation),
			message: 'Sent, then lost',
		});
		const [stored] = await storedMessages(conversation);
		// The product did send it: the item must not say it was not delivered (a resend reaches the customer twice).
		expect(channels().sent.length).toBe(sentBefore + 1);
		expect(item.error).toMatch(
			new RegExp(
				`^The message is stored in Support Board \\(message ID ${String(stored.id)}\\), but whether Telegram received it is not known: `,
			),
		);
		expect(
			board.sandbox!.requests.filter((r) => r.function === 'telegram-send-message').length,
		).toBeGreaterThan(0);
	});

	it('X (Twitter): refused before anything is stored, the Web API having no function for it', async () => {
		const { conversation } = await channelConversation('tw', 'twitter-id', '12345', '');
		const item = await send({ conversationId: conversationId(conversation), message: 'Hello X' });
		expect(item.error).toBe(
			`Conversation ${conversation} is on X (Twitter), and Support Board's Web API has no function that sends to it (only its admin area does): nothing was stored`,
		);
		expect(await storedMessages(conversation)).toEqual([]);
	});

	it("WeChat: refused before anything is stored, its function taking the admin token for WeChat's", async () => {
		channels().installed.add('wechat');
		const { conversation } = await channelConversation('wc', 'wechat-id', 'oWeChat1', '');
		board.sandbox!.clearLog();
		const item = await send({
			conversationId: conversationId(conversation),
			message: 'Hello WeChat',
		});
		expect(item.error).toBe(
			`Conversation ${conversation} is on WeChat, and Support Board's wechat-send-message would take the admin token the Web API is called with for WeChat's access token and send it to WeChat (api.weixin.qq.com): nothing was stored`,
		);
		const called = board.sandbox!.requests.map((r) => r.function);
		expect(called).not.toContain('wechat-send-message');
		expect(called).not.toContain('send-message');
		expect(await storedMessages(conversation)).toEqual([]);
	});

	it.each(CHANNELS)(
		'$name: an answer that shows no sent message (null) is not a delivery, and not said to be a refusal',
		async (c) => {
			channels().installed.add(c.app);
			const { conversation } = await conversationOn(c);
			const item = await send({
				conversationId: conversationId(conversation),
				message: 'Lost on the way #channel-lost',
			});
			const [stored] = await storedMessages(conversation);
			expect(item.delivery).toBeUndefined();
			expect(item.error).toBe(
				`The message is stored in Support Board (message ID ${String(stored.id)}), but whether ${c.name} received it is not known: Support Board answered ${c.fn} with null`,
			);
		},
	);

	it.each([
		{
			source: 'wa',
			name: 'WhatsApp',
			fn: 'whatsapp-send-message',
			app: 'whatsapp',
			slug: 'phone',
			arg: 'to',
			refusal: '',
		},
		...CHANNELS.filter((c) => c.source !== 'ln'),
	])(
		'$name: an answer whose ID of the sent message is empty is not a delivery, but not known',
		async (c) => {
			// LINE's push answers no ID: the product's own {error: false} is all there is.
			channels().installed.add(c.app);
			const { conversation } = await conversationOn(c);
			const item = await send({
				conversationId: conversationId(conversation),
				message: 'An empty ID #channel-empty-id',
			});
			const [stored] = await storedMessages(conversation);
			expect(item.delivery).toBeUndefined();
			expect(item.error).toMatch(
				new RegExp(
					`^The message is stored in Support Board \\(message ID ${String(stored.id)}\\), but whether ${c.name} received it is not known: Support Board answered ${c.fn} with `,
				),
			);
			expect(item.error).not.toMatch(/NOT delivered/);
		},
	);

	it('a web chat conversation: stored as before, no channel call, no delivery field', async () => {
		const { conversation } = await channelConversation('', 'note', 'x', '');
		const before = channels().sent.length;
		const item = await send({ conversationId: conversationId(conversation), message: 'Hello web' });
		expect(item.error).toBeUndefined();
		expect(item.delivery).toBeUndefined();
		expect(channels().sent.length).toBe(before);
	});

	it('a file type upload.php does not take fails before the message is stored, naming attachment URLs', async () => {
		const { conversation } = await channelConversation('', 'note', 'x', '');
		board.sandbox!.clearLog();
		const item = await sendFileNamed(conversation, 'tool.exe');
		expect(item.error).toBe('Support Board does not take files like "tool.exe" (its type)');
		expect(board.sandbox!.requests.map((r) => r.function ?? r.path)).not.toContain('send-message');
		expect(await storedMessages(conversation)).toEqual([]);
	});
});

sandboxDescribe('Message → Send: attachments refused before any request (sandbox)', () => {
	it('a file over 20 MB', async () => {
		const { conversation } = await channelConversation('', 'note', 'x', '');
		board.sandbox!.clearLog();
		const item = await sendFileNamed(conversation, 'big.pdf', Buffer.alloc(20 * 1024 * 1024 + 1));
		expect(item.error).toBe(
			'The file in binary property "invoice" is 20971521 bytes; the node sends files of at most 20971520 bytes (20 MB). Give a larger file\'s address under Attachment URLs instead.',
		);
		expect(board.sandbox!.requests).toEqual([]);
	});

	it('an attachment URL that is no http(s) address', async () => {
		board.sandbox!.clearLog();
		const item = await send({
			conversationId: conversationId('1'),
			message: 'With a link',
			additionalFields: {
				attachmentUrls: { attachment: [{ name: 'x', url: 'file:///etc/passwd' }] },
			},
		});
		// Quoted by the rule for URLs in messages: a file address has no host, so its scheme alone.
		expect(item.error).toBe('Attachment URLs, row 1: "file:…" is no http or https address');
		expect(board.sandbox!.requests).toEqual([]);
	});

	it('an attachment URL of another scheme carrying a password: the refusal shows its scheme and host only', async () => {
		board.sandbox!.clearLog();
		const item = await send({
			conversationId: conversationId('1'),
			message: 'With a link',
			additionalFields: {
				attachmentUrls: {
					attachment: [{ name: 'x', url: 'ftp://alice:Ftp-Pass-77@files.example.test/in/x.pdf' }],
				},
			},
		});
		expect(item.error).toBe(
			'Attachment URLs, row 1: "ftp://files.example.test/…" is no http or https address',
		);
		expect(JSON.stringify(item)).not.toContain('Ftp-Pass-77');
		expect(board.sandbox!.requests).toEqual([]);
	});
});

/** Message → Send with the binary file renamed, through a Set-like rename in the Make File output. */
async function sendFileNamed(
	conversation: string,
	name: string,
	bytes = Buffer.from('MZ'),
): Promise<IDataObject> {
	const original = MakeFile.prototype.execute;
	MakeFile.prototype.execute = async function (this: IExecuteFunctions) {
		const data = await this.helpers.prepareBinaryData(bytes, name, 'application/octet-stream');
		return [[{ json: {}, binary: { invoice: data } }]];
	};
	try {
		return await send({
			conversationId: conversationId(conversation),
			message: 'With a file',
			additionalFields: { binaryAttachments: 'invoice' },
		});
	} finally {
		MakeFile.prototype.execute = original;
	}
}
