/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The 24-hour reply windows of WhatsApp (Meta's customer service window) and of Messenger and Instagram
 * (the standard messaging window), run by the real n8n engine against the sandbox's Support Board mode
 * or, with SUPPORT_CHAT_TESTBED=/tmp/sb/run/env.json, against the real product (test/helpers/board.ts)
 * with its WhatsApp and Messenger apps and the test bed's stand-in for Graph (its requests read back from
 * env.json's vendorLog). A customer writes in (the test bed: through the app's webhook, with
 * whatsapp-inbound.mjs and messenger-inbound.mjs); a test ages their message as it may: in the
 * product's database (`sb_messages.creation_time`, UTC), or with the sandbox's `ageMessage`.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Board } from '../helpers/board';
import { TESTBED_ENV, onTestbed, openBoard } from '../helpers/board';
import { runNode } from '../helpers/engine';
import { ACTION_TYPE } from '../helpers/supportChat';

const INBOUND = '/work/shared/supportboard';
const TEMPLATE = 'send a WhatsApp template (Message → Send Template) instead';
const NO_TAGS =
	"Support Board's Messenger app sends every reply as a response (messaging_type RESPONSE), with none of the message tags Meta allows past the window, so wait for the customer to write again";

let board: Board;
beforeAll(async () => {
	board = await openBoard();
	board.sandbox?.supportBoard?.channels.installed.add('whatsapp');
	board.sandbox?.supportBoard?.channels.installed.add('messenger');
});
afterAll(async () => await board.close());

const testbedEnv = (): IDataObject => JSON.parse(readFileSync(TESTBED_ENV, 'utf8')) as IDataObject;

/** Support Chat on each item, continuing on fail: one output item per input item. */
async function run(parameters: INodeParameters, items: IDataObject[]) {
	const result = await runNode({
		node: {
			name: 'Support Chat',
			type: ACTION_TYPE,
			parameters,
			onError: 'continueRegularOutput',
		},
		items,
		nodeTypes: { [ACTION_TYPE]: new SupportChat() },
		credentials: {
			types: [new SupportChatApi()],
			data: { supportChatApi: { ...board.credentials } },
		},
	});
	return result.output('Support Chat');
}

const conversation = { __rl: true, mode: 'id', value: '={{ $json.conversation }}' };

/** Message → Send to each item's conversation. */
async function send(
	conversations: string[],
	message: string,
	more: INodeParameters = {},
): Promise<INodeExecutionData[]> {
	return await run(
		{
			resource: 'message',
			operation: 'send',
			messageType: 'agent',
			conversationId: conversation,
			message,
			...more,
		},
		conversations.map((id) => ({ conversation: id })),
	);
}

async function getConversation(id: string, simplify = false): Promise<IDataObject> {
	const [item] = await run(
		{ resource: 'conversation', operation: 'get', conversationId: conversation, simplify },
		[{ conversation: id }],
	);
	return item.json;
}

async function messagesOf(id: string): Promise<IDataObject[]> {
	const read = (await board.call('get-conversation', { conversation_id: id })) as IDataObject;
	return read.messages as IDataObject[];
}

type Source = 'wa' | 'fb' | 'ig';
const NAMES: Record<Source, string> = { wa: 'WhatsApp', fb: 'Messenger', ig: 'Instagram' };

interface Customer {
	source: Source;
	conversation: string;
	user: string;
	/** Their WhatsApp number (digits) or their page-scoped ID. */
	address: string;
	/** Their message's ID. */
	message: string;
}

/** A customer writes in on WhatsApp, Messenger or Instagram. */
async function customerWrites(source: Source): Promise<Customer> {
	const digits = String(Math.floor(Math.random() * 1e9)).padStart(9, '0');
	const address = source === 'wa' ? `1555${digits.slice(2)}` : `2400000${digits}`;
	if (onTestbed) {
		const [script, args] =
			source === 'wa'
				? ['whatsapp-inbound.mjs', ['--from', address, '--name', 'Wendy Window']]
				: [
						'messenger-inbound.mjs',
						[
							'--psid',
							address,
							'--name',
							'Wendy Window',
							...(source === 'ig' ? ['--instagram'] : []),
						],
					];
		const out = execFileSync('node', [`${INBOUND}/${script}`, ...args, '--text', 'Hello'], {
			encoding: 'utf8',
			env: { ...process.env, SB_ENV: TESTBED_ENV },
		});
		const made = JSON.parse(out) as {
			user: { id: string };
			conversation: { id: string; source: string };
			message: { id: string };
		};
		expect(made.conversation.source).toBe(source);
		return {
			source,
			address,
			user: made.user.id,
			conversation: made.conversation.id,
			message: made.message.id,
		};
	}
	const [slug, value, extra] =
		source === 'wa'
			? ['phone', `+${address}`, '109000000000001']
			: ['facebook-id', address, '102000000000001'];
	const user = String(
		await board.call('add-user', {
			first_name: 'Wendy',
			last_name: 'Window',
			extra: { [slug]: [value, slug] },
		}),
	);
	const made = (await board.call('new-conversation', {
		user_id: user,
		source,
		extra,
	})) as IDataObject;
	const id = String((made.details as IDataObject).id);
	const sent = (await board.call('send-message', {
		user_id: user,
		conversation_id: id,
		message: 'Hello',
	})) as IDataObject;
	return { source, address, user, conversation: id, message: String(sent.id) };
}

/** Moves a stored message `hours` back, as a test may in the product's database. */
function age(messageId: string, hours: number): void {
	if (!onTestbed) return board.sandbox!.supportBoard!.ageMessage(messageId, hours);
	const database = String(testbedEnv().dbName ?? 'supportboard');
	execFileSync('mysql', [
		'-uroot',
		database,
		'-e',
		`UPDATE sb_messages SET creation_time = creation_time - INTERVAL ${Number(hours)} HOUR WHERE id = ${Number(messageId)}`,
	]);
}

/** When the product says the message was written, as the node names it (UTC, ISO 8601). */
async function writtenAt(customer: Customer): Promise<string> {
	const message = (await messagesOf(customer.conversation)).find(
		(m) => String(m.id) === customer.message,
	);
	return `${String(message?.creation_time).replace(' ', 'T')}.000Z`;
}

interface Vendor {
	host?: string;
	path: string;
	fields?: Record<string, string>;
}

/** What the test bed's stand-in for Graph received for this customer (nothing read on the sandbox). */
function graphTo(customer: Customer): Vendor[] {
	if (!onTestbed) return [];
	const key = customer.source === 'wa' ? 'to' : 'recipient[id]';
	return readFileSync(String(testbedEnv().vendorLog), 'utf8')
		.split('\n')
		.filter((line) => line.includes('"graph.facebook.com"') && line.includes(customer.address))
		.map((line) => JSON.parse(line) as Vendor)
		.filter((entry) => entry.fields?.[key] === customer.address);
}

/** What the sandbox sent to channels for this customer. */
function sandboxSent(customer: Customer) {
	const sent = board.sandbox?.supportBoard?.channels.sent ?? [];
	return sent.filter((s) => s.recipient === customer.address);
}

/** The Web API functions the node called since `clearLog` (sandbox only). */
const called = () => board.sandbox!.requests.map((r) => r.function);
const clearLog = () => board.sandbox?.clearLog();

describe.each(['wa', 'fb', 'ig'] as const)(
	`%s: a reply after the window (${onTestbed ? 'test bed' : 'sandbox'})`,
	(source) => {
		const name = NAMES[source];
		const window =
			source === 'wa' ? '24-hour customer service window' : '24-hour standard messaging window';
		const instead = source === 'wa' ? TEMPLATE : NO_TAGS;

		it('is refused before anything is stored, naming when the customer last wrote and what to send instead', async () => {
			const customer = await customerWrites(source);
			age(customer.message, 25);
			const last = await writtenAt(customer);
			const before = await messagesOf(customer.conversation);
			clearLog();
			const [item] = await send([customer.conversation], 'Following up on your order');
			// The conversation it read already: no recipient, no channel, no store.
			if (!onTestbed) expect(called()).toEqual(['get-conversation']);
			expect(item.json.error).toBe(
				`Conversation ${customer.conversation} is on ${name}, and its customer last wrote at ${last} (UTC), more than 24 hours ago, so ${name}'s ${window} has closed: nothing was stored; ${instead}`,
			);
			expect(item.json.delivery).toBeUndefined();
			expect(await messagesOf(customer.conversation)).toEqual(before);
			expect(graphTo(customer)).toEqual([]);
			expect(sandboxSent(customer)).toEqual([]);
		});

		it('is sent as before while the window is open (23 hours after the customer wrote)', async () => {
			const customer = await customerWrites(source);
			age(customer.message, 23);
			clearLog();
			const [item] = await send([customer.conversation], 'Still within the window');
			expect(item.json.error).toBeUndefined();
			expect(item.json.delivery).toMatchObject({ channel: name, status: 'delivered' });
			if (onTestbed) expect(graphTo(customer)).toHaveLength(1);
			else {
				expect(sandboxSent(customer)).toHaveLength(1);
				expect(called().filter((f) => f === 'get-conversation')).toHaveLength(1);
			}
		});

		it('Send As User and Deliver to Channel off are not affected: stored with the same requests as before', async () => {
			const customer = await customerWrites(source);
			age(customer.message, 30);
			clearLog();
			const [asUser] = await send([customer.conversation], 'In the customer’s words', {
				messageType: 'user',
			});
			expect(asUser.json.error).toBeUndefined();
			if (!onTestbed) expect(called()).toEqual(['get-user-from-conversation', 'send-message']);
			clearLog();
			const [off] = await send([customer.conversation], 'Stored only', {
				additionalFields: { deliverToChannel: false },
			});
			expect(off.json.error).toBeUndefined();
			if (!onTestbed) expect(called()).toEqual(['send-message']);
			const texts = (await messagesOf(customer.conversation)).map((m) => m.message);
			expect(texts).toEqual(expect.arrayContaining(['In the customer’s words', 'Stored only']));
			expect(graphTo(customer)).toEqual([]);
			expect(sandboxSent(customer)).toEqual([]);
		});
	},
);

describe(`WhatsApp: the window, one item at a time (${onTestbed ? 'test bed' : 'sandbox'})`, () => {
	it('a conversation its customer never wrote in is refused before the store', async () => {
		// The product opens a WhatsApp conversation when a customer writes; one opened by hand has no window.
		const customer = await customerWrites('wa');
		const made = (await board.call('new-conversation', {
			user_id: customer.user,
			source: 'wa',
			extra: '109000000000001',
		})) as IDataObject;
		const id = String((made.details as IDataObject).id);
		const [item] = await send([id], 'Hello first');
		expect(item.json.error).toBe(
			`Conversation ${id} is on WhatsApp, and its customer has never written in it, so WhatsApp's 24-hour customer service window is not open: nothing was stored; ${TEMPLATE}`,
		);
		expect(await messagesOf(id)).toEqual([]);
	});

	it('continue-on-fail keeps each result with its item: refused, then sent', async () => {
		const closed = await customerWrites('wa');
		age(closed.message, 48);
		const open = await customerWrites('wa');
		const items = await send([closed.conversation, open.conversation], 'Your parcel has shipped');
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toMatch(/WhatsApp's 24-hour customer service window has closed/);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json.error).toBeUndefined();
		expect(items[1].json.delivery).toMatchObject({ channel: 'WhatsApp', status: 'delivered' });
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(graphTo(closed)).toEqual([]);
		if (onTestbed) expect(graphTo(open)).toHaveLength(1);
	});

	it('131047 after the store (the window closing in between): the stored ID, the window and the template named', async () => {
		const customer = await customerWrites('wa');
		const last = await writtenAt(customer);
		const [item] = await send([customer.conversation], 'Too late #graph-error:131047');
		const stored = (await messagesOf(customer.conversation)).filter((m) =>
			String(m.message).includes('#graph-error:131047'),
		);
		expect(stored).toHaveLength(1);
		expect(item.json.error).toBe(
			`The message is stored in Support Board (message ID ${String(stored[0].id)}) but was NOT delivered to WhatsApp: WhatsApp's 24-hour customer service window has closed (the customer last wrote at ${last} (UTC)): ${TEMPLATE}. WhatsApp refused it: (#131047) Re-engagement message`,
		);
		expect(item.json.description).toMatch(/refuses it again until the customer writes/);
		if (onTestbed) expect(graphTo(customer)).toHaveLength(1);
	});

	it('another refusal (131030) is worded as before, without the window', async () => {
		const customer = await customerWrites('wa');
		const [item] = await send([customer.conversation], 'Not allowed #graph-error');
		expect(item.json.error).toMatch(
			/but was NOT delivered to WhatsApp: WhatsApp refused it: \(#131030\) Recipient phone number not in allowed list$/,
		);
	});
});

describe.each(['fb', 'ig'] as const)(
	`%s: Meta's window refusal after the store (${onTestbed ? 'test bed' : 'sandbox'})`,
	(source) => {
		it('code 10, subcode 2018278: the stored ID and the window named', async () => {
			const name = NAMES[source];
			const customer = await customerWrites(source);
			const last = await writtenAt(customer);
			const [item] = await send([customer.conversation], 'Too late #fb-error');
			const stored = (await messagesOf(customer.conversation)).filter((m) =>
				String(m.message).includes('#fb-error'),
			);
			expect(stored).toHaveLength(1);
			const error = String(item.json.error);
			const said = `The message is stored in Support Board (message ID ${String(stored[0].id)}) but was NOT delivered to ${name}: ${name}'s 24-hour standard messaging window has closed (the customer last wrote at ${last} (UTC)): ${NO_TAGS}. ${name} refused it: (#10) This message is sent outside of allowed window.`;
			expect(error.slice(0, said.length)).toBe(said);
		});
	},
);

describe(`Web chat: not affected (${onTestbed ? 'test bed' : 'sandbox'})`, () => {
	it('a reply days after the visitor wrote is stored as before, with the same requests', async () => {
		const started = await board.visitorStarts({
			email: `window-${randomUUID().slice(0, 8)}@example.com`,
			message: 'Hello from the web',
		});
		age(started.messageId, 72);
		clearLog();
		const [item] = await send([started.conversationId], 'Sorry for the wait');
		expect(item.json.error).toBeUndefined();
		expect(item.json.delivery).toBeUndefined();
		if (!onTestbed) expect(called()).toEqual(['get-conversation', 'send-message']);
		const got = await getConversation(started.conversationId);
		expect(got).not.toHaveProperty('replyWindow');
	});
});

describe(`Conversation → Get: the reply window (${onTestbed ? 'test bed' : 'sandbox'})`, () => {
	it.each(['wa', 'fb', 'ig'] as const)(
		'%s: when the window ends and whether it is open, from the one read',
		async (source) => {
			const customer = await customerWrites(source);
			const last = await writtenAt(customer);
			const ends = new Date(Date.parse(last) + 24 * 3_600_000).toISOString();
			clearLog();
			const open = await getConversation(customer.conversation);
			if (!onTestbed) expect(called()).toEqual(['get-conversation']);
			expect(open.replyWindow).toEqual({
				channel: NAMES[source],
				hours: 24,
				lastCustomerMessageAt: last,
				endsAt: ends,
				open: true,
			});
			// The product's own fields stay as they were.
			expect(open).toHaveProperty('messages');
			expect(open).toHaveProperty('details');

			age(customer.message, 25);
			const agedAt = await writtenAt(customer);
			const closed = await getConversation(customer.conversation);
			expect(closed.replyWindow).toEqual({
				channel: NAMES[source],
				hours: 24,
				lastCustomerMessageAt: agedAt,
				endsAt: new Date(Date.parse(agedAt) + 24 * 3_600_000).toISOString(),
				open: false,
			});
		},
	);

	it('an agent’s later reply does not move the window: only the customer’s message counts', async () => {
		const customer = await customerWrites('wa');
		age(customer.message, 20);
		const last = await writtenAt(customer);
		await board.agentReplies(customer.conversation, 'An agent note, stored only');
		const got = await getConversation(customer.conversation);
		expect(got.replyWindow).toMatchObject({ lastCustomerMessageAt: last, open: true });
	});

	it('with Simplify, as reply_window', async () => {
		const customer = await customerWrites('wa');
		const got = await getConversation(customer.conversation, true);
		expect(got.reply_window).toMatchObject({ channel: 'WhatsApp', open: true });
	});
});
