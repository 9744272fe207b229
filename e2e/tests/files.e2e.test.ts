/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { randomBytes, randomUUID } from 'node:crypto';

import { startN8n, type N8nInstance, type WorkflowJson, type WorkflowNodeJson } from '../harness';
import { ACTION_TYPE, deployWorkflow } from '../support';
import { startSandbox, type Sandbox } from '../../sandbox';

/*
 * Files both ways on Support Board, in a real n8n 2.41.1: a Webhook node takes an order's PDF as a
 * form upload; Message → Send puts it in the visitor's conversation (through the product's
 * upload.php, as Attachments (Binary Properties)); Message → Get Many with Download Attachments reads
 * the conversation's latest message back and its file into a binary property, which the webhook
 * answers with. The sandbox plays Support Board: its upload.php, its Web API and the files it serves.
 */

const TOKEN = 'sb-e2e-files-token-3e4f';
const PATH = 'order-file';

let n8n: N8nInstance;
let sandbox: Sandbox;

function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	x: number,
): WorkflowNodeJson {
	return { id: randomUUID(), name, type, typeVersion, position: [x, 0], parameters };
}

function filesWorkflow(): WorkflowJson {
	const credentials = { supportChatApi: { name: 'Support Board sandbox' } };
	const conversationId = {
		__rl: true,
		mode: 'id',
		value: "={{ $('Order PDF').first().json.body.conversationId }}",
	};
	return {
		name: 'Files both ways',
		nodes: [
			{
				...node(
					'Order PDF',
					'n8n-nodes-base.webhook',
					2.1,
					{
						httpMethod: 'POST',
						path: PATH,
						responseMode: 'lastNode',
						responseData: 'firstEntryBinary',
						responseBinaryPropertyName: 'attachment_0',
						options: {},
					},
					0,
				),
				webhookId: randomUUID(),
			},
			{
				...node(
					'Send the file',
					ACTION_TYPE,
					1,
					{
						resource: 'message',
						operation: 'send',
						conversationId,
						message: 'Your order confirmation is attached.',
						// Whatever the Webhook node named the uploaded file's binary property.
						additionalFields: { binaryAttachments: '={{ Object.keys($binary).join(",") }}' },
					},
					220,
				),
				credentials,
			},
			{
				...node(
					'Read it back',
					ACTION_TYPE,
					1,
					{
						resource: 'message',
						operation: 'getAll',
						conversationId,
						returnAll: false,
						limit: 1,
						options: { downloadAttachments: true },
					},
					440,
				),
				credentials,
			},
		],
		connections: {
			'Order PDF': { main: [[{ node: 'Send the file', type: 'main', index: 0 }]] },
			'Send the file': { main: [[{ node: 'Read it back', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

beforeAll(async () => {
	sandbox = await startSandbox({ api: 'support-board', token: TOKEN, seed: { users: 2 } });
	n8n = await startN8n({ mode: 'regular', packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR });
	await deployWorkflow(n8n, sandbox, filesWorkflow(), {
		publish: true,
		credentials: {
			api: 'supportBoard',
			baseUrl: sandbox.supportBoard!.installUrl,
			apiToken: TOKEN,
			allowHttp: false,
			webhookSecret: 'unused-here',
		},
	});
});

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

test('a PDF posted to the workflow lands in the conversation as an attachment, and comes back byte for byte as a binary property', async () => {
	const board = sandbox.supportBoard!;
	const { conversation } = await board.visitor.start({
		message: 'Can I have my order confirmation?',
		email: 'ines@example.com',
		first_name: 'Ines',
	});
	await board.settled();
	sandbox.clearLog();
	const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(40_000)]);

	const form = new FormData();
	form.append('conversationId', String(conversation.id));
	form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'order-4471.pdf');
	const answer = await fetch(n8n.webhookUrl(PATH), { method: 'POST', body: form });
	const body = Buffer.from(await answer.arrayBuffer());
	expect(answer.status).toBe(200);

	// Sent: uploaded once through upload.php, then stored with the message as [[name, url]].
	const uploads = sandbox.requests.filter((r) => r.path.endsWith('/upload.php'));
	expect(uploads.map((r) => `${r.method} ${r.status}`)).toEqual(['POST 200']);
	expect(sandbox.requests.filter((r) => r.function === 'send-message')).toHaveLength(1);
	const stored = [...board.uploads.files.entries()];
	expect(stored).toHaveLength(1);
	const [storedPath, storedFile] = stored[0];
	expect(storedFile.bytes.equals(pdf)).toBe(true);
	const read = await fetch(board.apiUrl, {
		method: 'POST',
		body: JSON.stringify({
			function: 'get-conversation',
			token: TOKEN,
			conversation_id: conversation.id,
		}),
	});
	const { messages } = (
		(await read.json()) as {
			response: { messages: Array<{ message: string; attachments: string }> };
		}
	).response;
	const last = messages[messages.length - 1];
	expect(last.message).toBe('Your order confirmation is attached.');
	const [[name, url]] = JSON.parse(last.attachments) as Array<[string, string]>;
	expect(name).toBe('order-4471.pdf');
	expect(url).toBe(`${board.installUrl}${storedPath}`);

	// Received: the latest message's file, downloaded into attachment_0, is what the webhook answered.
	expect(answer.headers.get('content-type')).toMatch(/^application\/pdf/);
	expect(body.equals(pdf)).toBe(true);
	const downloads = sandbox.requests.filter((r) => r.method === 'GET' && url.endsWith(r.path));
	expect(downloads.map((r) => r.status)).toEqual([200]);
});
