/**
 * Every channel Message → Send promises, as a Support Board team meets it: a customer writes in through
 * the channel's app, the Support Chat Trigger (Support Board mode) runs once for that message, Message →
 * Send replies with Deliver to Channel on, and the channel receives exactly one message for that
 * customer; a refusal fails the item, naming the stored message; files the customer sent arrive through
 * Download Attachments byte for byte.
 *
 * On the sandbox (its lever imitating each app), or with SUPPORT_CHAT_TESTBED=/tmp/sb/run/env.json on the
 * real Support Board 3.8.7 with its own WhatsApp, Telegram and Messenger apps (Instagram through
 * Messenger's), the customer writing through the test bed's inbound scripts and the channel's stand-in's
 * log as the judge (test/helpers/board.ts). The trigger is given the deliveries the product sent for it:
 * the test bed's capture server logs them, the sandbox its own; they run through n8n-core's real webhook
 * context one after the other, as n8n would receive them.
 */
import { createHash, randomBytes } from 'node:crypto';

import type { IDataObject, INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import { SupportChatTrigger } from '../../nodes/SupportChat/SupportChatTrigger.node';
import { EVENT_CLAIMS } from '../../nodes/SupportChat/shared/claims';
import { DELIVERY_REGISTRY } from '../../nodes/SupportChat/trigger/dedupe';
import type { Board, ChannelApp, InboundFile } from '../helpers/board';
import { onTestbed, openBoard } from '../helpers/board';
import { START_NODE_TYPE, callWebhook, runWorkflow } from '../helpers/engine';
import { ACTION_TYPE, TRIGGER_TYPE, byId } from '../helpers/supportChat';

jest.setTimeout(60_000);

/** Letters and digits only: Telegram's app escapes MarkdownV2's signs, and the stand-in logs what it got. */
const stamp = () => randomBytes(5).toString('hex');

let board: Board;
beforeAll(async () => {
	board = await openBoard();
});
afterAll(async () => await board.close());
beforeEach(() => {
	EVENT_CLAIMS.clear();
	DELIVERY_REGISTRY.clear();
});

const credentials = () => ({
	types: [new SupportChatApi()],
	data: { supportChatApi: { ...board.credentials, webhookSecret: board.webhooks.key } },
});

/** The deliveries since `mark` through the Support Chat Trigger, one after the other: the runs it started. */
async function triggerRuns(
	mark: number,
	options: INodeParameters = {},
): Promise<INodeExecutionData[][]> {
	await board.settled();
	const node: INode = {
		id: 'c4a1e000-0000-4000-8000-000000000001',
		name: 'Support Chat Trigger',
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: 'c4a1e000-0000-4000-8000-0000000000aa',
		parameters: { events: ['*'], verification: 'bodyField', keyField: 'key', options },
		credentials: { supportChatApi: { id: 'sb', name: 'Support Board' } },
	};
	const runs: INodeExecutionData[][] = [];
	let staticData: IDataObject | undefined;
	for (const request of board.webhooks.since(mark)) {
		const result = await callWebhook({
			node,
			nodeType: new SupportChatTrigger(),
			credentials: credentials(),
			request,
			staticData,
			workflowId: 'wf-channels',
		});
		staticData = result.staticData;
		const items = result.response.workflowData?.[0];
		if (items) runs.push(items);
	}
	return runs;
}

/** The runs that carry the message, and its item in each. */
function runsFor(runs: INodeExecutionData[][], messageId: string) {
	return runs
		.map((items) => items.find((item) => String(item.json.messageId) === messageId))
		.filter((item): item is INodeExecutionData => item !== undefined);
}

/** Message → Send as an agent, the workflow's reply (Deliver to Channel on, its default). */
async function reply(conversationId: string, message: string, more: INodeParameters = {}) {
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
					name: 'Support Chat',
					type: ACTION_TYPE,
					typeVersion: 1,
					position: [200, 0],
					parameters: {
						resource: 'message',
						operation: 'send',
						messageType: 'agent',
						conversationId: byId(conversationId),
						message,
						...more,
					},
					onError: 'continueRegularOutput',
				},
			],
			connections: {
				Start: { main: [[{ node: 'Support Chat', type: NodeConnectionTypes.Main, index: 0 }]] },
			},
		},
		nodeTypes: { [ACTION_TYPE]: new SupportChat() },
		credentials: credentials(),
	});
	return run.output('Support Chat')[0].json;
}

/** The stored message of the conversation whose text is `text`: its ID. */
async function storedId(conversationId: string, text: string): Promise<string> {
	const conversation = (await board.call('get-conversation', {
		conversation_id: conversationId,
	})) as { messages: IDataObject[] };
	const found = conversation.messages.filter((m) => m.message === text);
	expect(found).toHaveLength(1);
	return String(found[0].id);
}

const CHANNELS: Array<{ channel: ChannelApp; name: string; marker: string }> = [
	{ channel: 'whatsapp', name: 'WhatsApp', marker: '#graph-error' },
	{ channel: 'telegram', name: 'Telegram', marker: '#tg-error:403' },
	{ channel: 'messenger', name: 'Messenger', marker: '#fb-error:551' },
	{ channel: 'instagram', name: 'Instagram', marker: '#fb-error:551' },
];

describe(`Every channel, from the customer's message to the reply (${onTestbed ? 'test bed' : 'sandbox'})`, () => {
	it.each(CHANNELS)(
		'$name: the customer writes, the trigger runs once, the reply reaches the customer once',
		async ({ channel, name }) => {
			const tag = stamp();
			const mark = board.webhooks.mark();
			const customer = await board.customerWrites(channel, {
				name: 'Cara Channel',
				text: `Hello from ${name} ${tag}`,
			});
			const runs = runsFor(await triggerRuns(mark), customer.messageId);
			expect(runs).toHaveLength(1);
			expect(runs[0].json).toMatchObject({
				event: 'messageCreated',
				conversationId: customer.conversationId,
			});

			const text = `Thanks ${tag}`;
			const item = await reply(String(runs[0].json.conversationId), text);
			expect(item.error).toBeUndefined();
			expect(item.delivery).toMatchObject({ channel: name, status: 'delivered' });
			expect(board.sentTo(channel, customer.recipient)).toEqual([
				expect.objectContaining({ text, refused: false }),
			]);
		},
	);

	it.each(CHANNELS)(
		'$name: a refusal fails the item, naming the stored message',
		async ({ channel, name, marker }) => {
			const tag = stamp();
			const customer = await board.customerWrites(channel, { text: `Hi ${tag}` });
			const text = `Refused ${tag} ${marker}`;
			const item = await reply(customer.conversationId, text);
			const id = await storedId(customer.conversationId, text);
			expect(item.delivery).toBeUndefined();
			expect(String(item.error)).toMatch(
				new RegExp(
					`^The message is stored in Support Board \\(message ID ${id}\\) but was NOT delivered to ${name}: ${name} refused it: .+`,
				),
			);
			expect(board.sentTo(channel, customer.recipient)).toEqual([
				expect.objectContaining({ refused: true }),
			]);
		},
	);
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A small file whose bytes are the test's own. */
function fileOf(kind: InboundFile['kind'], name: string, mime: string): InboundFile {
	return { kind, name, mime, bytes: Buffer.concat([Buffer.from(`${kind} `), randomBytes(600)]) };
}

describe(`Files a customer sends arrive through Download Attachments (${onTestbed ? 'test bed' : 'sandbox'})`, () => {
	it.each([
		{
			channel: 'telegram' as const,
			files: [
				fileOf('photo', 'photo.png', 'image/png'),
				fileOf('document', 'order.pdf', 'application/pdf'),
			],
		},
		{
			channel: 'messenger' as const,
			files: [
				fileOf('image', 'image.png', 'image/png'),
				fileOf('file', 'invoice.pdf', 'application/pdf'),
			],
		},
	])('$channel: both files, byte for byte', async ({ channel, files }) => {
		const mark = board.webhooks.mark();
		const customer = await board.customerWrites(channel, { text: `Files ${stamp()}`, files });
		expect(customer.attachments).toHaveLength(2);
		const runs = runsFor(
			await triggerRuns(mark, { downloadAttachments: true }),
			customer.messageId,
		);
		expect(runs).toHaveLength(1);
		const [item] = runs;
		expect(item.json.attachmentError).toBeUndefined();
		const received = Object.values(item.binary ?? {}).map((b) =>
			sha256(Buffer.from(b.data, 'base64')),
		);
		expect(received.sort()).toEqual(files.map((f) => sha256(f.bytes)).sort());
	});
});

describe(`Telegram: a reply with two files (${onTestbed ? 'test bed' : 'sandbox'})`, () => {
	// The product's Telegram app sends the first file of a call and dies on the second (an empty 500):
	// the node sends one file per call, the text with the first.
	const files = (second: string) => ({
		additionalFields: {
			attachmentUrls: {
				attachment: [
					{ name: 'receipt.png', url: 'https://files.example.com/receipt.png' },
					{ name: 'terms.pdf', url: second },
				],
			},
		},
	});

	it('both reach the customer, each exactly once, the text with the first', async () => {
		const tag = stamp();
		const customer = await board.customerWrites('telegram', { text: `Hi ${tag}` });
		const text = `Two files ${tag}`;
		const item = await reply(
			customer.conversationId,
			text,
			files('https://files.example.com/terms.pdf'),
		);
		expect(item.error).toBeUndefined();
		expect(item.delivery).toMatchObject({ channel: 'Telegram', status: 'delivered' });
		expect(board.sentTo('telegram', customer.recipient)).toEqual([
			expect.objectContaining({
				text,
				file: 'https://files.example.com/receipt.png',
				refused: false,
			}),
			expect.objectContaining({
				text: '',
				file: 'https://files.example.com/terms.pdf',
				refused: false,
			}),
		]);
	});

	it('the second refused: the item names what reached the customer and what did not', async () => {
		const tag = stamp();
		const customer = await board.customerWrites('telegram', { text: `Hi ${tag}` });
		const text = `Two files ${tag}`;
		const second = 'https://files.example.com/terms.pdf#tg-error:403';
		const item = await reply(customer.conversationId, text, files(second));
		const id = await storedId(customer.conversationId, text);
		expect(item.error).toMatch(
			new RegExp(
				`^The message is stored in Support Board \\(message ID ${id}\\); Telegram received the text with "receipt\\.png", but NOT "terms\\.pdf": Telegram refused it: .+`,
			),
		);
		expect(board.sentTo('telegram', customer.recipient)).toEqual([
			expect.objectContaining({ text, refused: false }),
			expect.objectContaining({ file: second, refused: true }),
		]);
	});
});

(onTestbed ? describe.skip : describe)(
	'Telegram: a reply with three files, stopped at the second (sandbox)',
	() => {
		it('an empty 500 at the second: the first reached the customer, the second is not known, the third was never sent', async () => {
			const tag = stamp();
			const customer = await board.customerWrites('telegram', { text: `Hi ${tag}` });
			const text = `Three files ${tag}`;
			const item = await reply(customer.conversationId, text, {
				additionalFields: {
					attachmentUrls: {
						attachment: [
							{ name: 'a.png', url: 'https://files.example.com/a.png' },
							{ name: 'b.pdf', url: 'https://files.example.com/b.pdf#channel-dies' },
							{ name: 'c.pdf', url: 'https://files.example.com/c.pdf' },
						],
					},
				},
			});
			const id = await storedId(customer.conversationId, text);
			expect(item.error).toBe(
				`The message is stored in Support Board (message ID ${id}); Telegram received the text with "a.png"; whether it received "b.pdf" is not known: Support Board answered telegram-send-message with HTTP 500, as it does when PHP stops inside the function, which may have sent it first; "c.pdf" NOT sent`,
			);
			expect(item.description).toContain(
				'Running this item again stores the message a second time',
			);
			expect(board.sentTo('telegram', customer.recipient).map((r) => r.file)).toEqual([
				'https://files.example.com/a.png',
				'https://files.example.com/b.pdf#channel-dies',
			]);
		});
	},
);
