/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Download Attachments on a Support Board: a visitor's message whose attachment is a file of the
 * install's own uploads folder, as the product stores it (`[["name","url"]]`), downloaded by Message →
 * Get Many and by the poll trigger's New Message. Against the sandbox's Support Board mode, or against
 * the real product's test bed with SUPPORT_CHAT_TESTBED=/tmp/sb/run/env.json, where the file is written
 * into its uploads folder and served by its web server.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import { SupportChatPollTrigger } from '../../nodes/SupportChat/SupportChatPollTrigger.node';
import { EVENT_CLAIMS } from '../../nodes/SupportChat/shared/claims';
import type { Board } from '../helpers/board';
import { openBoard } from '../helpers/board';
import { callPoll, runNode } from '../helpers/engine';
import { ACTION_TYPE, byId } from '../helpers/supportChat';

const POLL_TYPE = 'n8n-nodes-support-chat.supportChatPollTrigger';
/** Where the test bed's web server serves {base}/uploads/ from (its README). */
const TESTBED_UPLOADS = '/tmp/sb/app/supportboard/uploads';
const stamp = randomUUID().slice(0, 8);
const written: string[] = [];

let board: Board;
beforeAll(async () => {
	board = await openBoard({ seed: { users: 2, conversations: 1 } });
});
afterAll(async () => {
	// Only the folder this run made, named with its stamp.
	for (const folder of written) rmSync(folder, { recursive: true, force: true });
	await board.close();
});
beforeEach(() => EVENT_CLAIMS.clear());

/** A file under the install's uploads folder, as the product keeps an uploaded one: its URL. */
function upload(name: string, bytes: Buffer): string {
	const relative = `n8n-filesin-${stamp}/${name}`;
	if (board.sandbox) {
		return board.sandbox.files.put(
			`${new URL(board.credentials.baseUrl).pathname}/uploads/${relative}`,
			{ body: bytes, contentType: 'text/plain; charset=UTF-8' },
		);
	}
	const file = path.join(TESTBED_UPLOADS, relative);
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, bytes);
	written.push(path.dirname(file));
	return `${board.credentials.baseUrl}/uploads/${relative}`;
}

const credentials = () => ({
	types: [new SupportChatApi()],
	data: { supportChatApi: { ...board.credentials } },
});

async function poll(staticData?: IDataObject) {
	const result = await callPoll({
		node: {
			type: POLL_TYPE,
			parameters: { events: ['messageCreated'], options: { downloadAttachments: true } },
		},
		nodeType: new SupportChatPollTrigger(),
		credentials: credentials(),
		staticData,
	});
	if (result.error) throw result.error;
	return result;
}

const bytesOf = (item: INodeExecutionData) =>
	Buffer.from(item.binary!.attachment_0.data, 'base64').toString();

it('a visitor sends a file of the uploads folder: the poll trigger and Message → Get Many download it', async () => {
	const started = await board.visitorStarts({
		email: `files-${stamp}@example.com`,
		firstName: 'Fay',
		message: 'I will send the invoice',
	});
	const first = await poll();
	const text = `Invoice ${stamp} attached`;
	const url = upload('invoice 42.txt', Buffer.from(`invoice ${stamp}\n`));
	await board.call('send-message', {
		user_id: started.userId,
		conversation_id: started.conversationId,
		message: text,
		attachments: JSON.stringify([['invoice 42.txt', url]]),
	});
	await board.settled();

	const second = await poll(first.staticData);
	const events = (second.items ?? []).filter(
		(item) => item.json.conversationId === started.conversationId,
	);
	expect(events.map((item) => item.json.event)).toEqual(['messageCreated']);
	expect(events[0].json.attachmentError).toBeUndefined();
	expect(bytesOf(events[0])).toBe(`invoice ${stamp}\n`);
	expect(events[0].binary!.attachment_0).toMatchObject({
		fileName: 'invoice 42.txt',
		mimeType: 'text/plain',
	});

	const result = await runNode({
		node: {
			name: 'Support Chat',
			type: ACTION_TYPE,
			parameters: {
				resource: 'message',
				operation: 'getAll',
				conversationId: byId(started.conversationId),
				returnAll: true,
				options: { downloadAttachments: true },
			},
		},
		nodeTypes: { [ACTION_TYPE]: new SupportChat() },
		credentials: credentials(),
	});
	expect(result.status).toBe('success');
	const messages = result.output('Support Chat');
	expect(messages.map((item) => item.json.message)).toEqual(['I will send the invoice', text]);
	expect(messages[0].binary).toBeUndefined();
	expect(bytesOf(messages[1])).toBe(`invoice ${stamp}\n`);
	expect(messages[1].binary!.attachment_0).toMatchObject({
		fileName: 'invoice 42.txt',
		mimeType: 'text/plain',
	});
});
