/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * File names carry no control or format characters, either way (issue 27, class 3), run by the real
 * n8n engine against the sandbox's Support Board mode or, with SUPPORT_CHAT_TESTBED, the real product:
 * Message → Send uploads an item's binary file whose name holds a NUL or a right-to-left override, and
 * Message → Get Many downloads an attachment a visitor named with one. THE rule is safeFileName
 * (shared/fileNames.ts); its cases are in test/unit/shared/fileNames.test.ts.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Board } from '../helpers/board';
import { onTestbed, openBoard } from '../helpers/board';
import { START_NODE_TYPE, runNode, runWorkflow } from '../helpers/engine';
import { ACTION_TYPE, byId } from '../helpers/supportChat';

/** What no name the node hands on may hold: controls, format characters, line separators. */
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

let fileName = '';

/** Emits one item whose binary property `upload` holds a small file named `fileName`. */
class MakeFile implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Make File',
		name: 'test.makeNamedFile',
		group: ['input'],
		version: 1,
		description: 'Emits an item with a named binary file',
		defaults: { name: 'Make File' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const data = await this.helpers.prepareBinaryData(
			Buffer.from('body {}\n'),
			fileName,
			'text/css',
		);
		return [[{ json: {}, binary: { upload: data } }]];
	}
}

let board: Board;
beforeAll(async () => {
	board = await openBoard({ seed: { users: 1, conversations: 1 } });
});
afterAll(async () => await board.close());

const credentials = () => ({
	types: [new SupportChatApi()],
	data: { supportChatApi: { ...board.credentials } },
});

/** A web chat conversation of a new user: no channel to deliver to. */
async function conversation(): Promise<{ user: string; id: string }> {
	const user = String(await board.call('add-user', { first_name: 'File', last_name: 'Names' }));
	const made = (await board.call('new-conversation', { user_id: user })) as IDataObject;
	return { user, id: String((made.details as IDataObject).id) };
}

/** Message → Send with the item's file `name` under Attachments (Binary Properties). */
async function sendFile(name: string, conversationId: string): Promise<IDataObject> {
	fileName = name;
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
					type: 'test.makeNamedFile',
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
						conversationId: byId(conversationId),
						message: 'A file',
						additionalFields: { binaryAttachments: 'upload' },
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
		nodeTypes: { [ACTION_TYPE]: new SupportChat(), 'test.makeNamedFile': new MakeFile() },
		credentials: credentials(),
	});
	return run.output('Support Chat')[0].json;
}

/** The names of the stored message's attachments, as get-conversation reads them back. */
async function storedNames(conversationId: string, messageId: unknown): Promise<string[]> {
	const read = (await board.call('get-conversation', {
		conversation_id: conversationId,
	})) as IDataObject;
	const stored = (read.messages as IDataObject[]).find((m) => String(m.id) === String(messageId));
	return (JSON.parse(String(stored?.attachments)) as string[][]).map((pair) => pair[0]);
}

describe('Message → Send: an uploaded file name carries no control or format character', () => {
	it.each([
		['a NUL', 'shell.css\u0000.png', 'shell.css_.png'],
		['a right-to-left override', 'report\u202Efdp.css', 'report_fdp.css'],
	])(
		'%s: the multipart header never carries it; the output names the file as stored',
		async (_, name, clean) => {
			const { id } = await conversation();
			board.sandbox?.supportBoard?.uploads.reset();
			const item = await sendFile(name, id);
			expect(item.error).toBeUndefined();
			if (board.sandbox) {
				const sent = board.sandbox.supportBoard!.uploads.filenames;
				expect(sent).toEqual([clean]);
				expect(sent.some((filename) => UNSAFE.test(filename))).toBe(false);
			}
			expect(item.attachments).toEqual([
				{ name: clean, url: expect.stringMatching(/^https?:\/\//) },
			]);
			expect(await storedNames(id, item.id)).toEqual([clean]);
		},
	);
});

describe('Download Attachments: a visitor-chosen name carries no control or format character', () => {
	// The sandbox serves the file; the test bed's uploads folder is written by attachments.board.test.ts.
	(onTestbed ? it.skip : it)(
		'an attachment named report\\u202Efdp.exe gives a fileName without U+202E',
		async () => {
			const { user, id } = await conversation();
			const path = `${new URL(board.credentials.baseUrl).pathname}/uploads/names/report.bin`;
			const url = board.sandbox!.files.put(path, {
				body: Buffer.from('MZ'),
				contentType: 'application/octet-stream',
			});
			await board.call('send-message', {
				user_id: user,
				conversation_id: id,
				message: 'my report',
				attachments: JSON.stringify([['report\u202Efdp.exe', url]]),
			});
			const result = await runNode({
				node: {
					name: 'Support Chat',
					type: ACTION_TYPE,
					parameters: {
						resource: 'message',
						operation: 'getAll',
						conversationId: byId(id),
						returnAll: true,
						options: { downloadAttachments: true },
					},
				},
				nodeTypes: { [ACTION_TYPE]: new SupportChat() },
				credentials: credentials(),
			});
			expect(result.status).toBe('success');
			const [message] = result.output('Support Chat');
			const file = message.binary?.attachment_0;
			expect(file?.fileName).toBe('report_fdp.exe');
			expect(UNSAFE.test(file?.fileName ?? '')).toBe(false);
		},
	);
});
