/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';

import {
	startN8n,
	type Execution,
	type N8nInstance,
	type WorkflowJson,
	type WorkflowNodeJson,
} from '../harness';
import { ACTION_TYPE, TRIGGER_TYPE, deployWorkflow } from '../support';
import { startSandbox, type Sandbox } from '../../sandbox';

/*
 * Files in queue mode (docs/queue-mode.md), on Support Board: main, a worker and a webhook process,
 * PostgreSQL and Redis, binary data in n8n's `database` mode (what n8n 2.41.1 chooses by itself in
 * queue mode, set here as the docs tell users to). A file enters in one process and is used in
 * another:
 * - the webhook trigger downloads a message's attachment in the webhook process; the worker runs the
 *   workflow and reads the file;
 * - the poll trigger downloads it on main (polls run there); the worker reads it;
 * - a Webhook node takes a PDF in the webhook process; on the worker, Message → Send uploads it to
 *   Support Board and Message → Get Many with Download Attachments reads it back; the webhook process
 *   answers with the file the worker stored.
 * The worker proves it read each file whole with n8n's Crypto node (SHA-256 of the binary property);
 * the bytes stored in the execution's binary data are read back through n8n's own
 * `GET /rest/binary-data`, as the editor's download button does.
 */

const TOKEN = 'sb-e2e-queue-files-token-6b1d';
const KEY = 'sb-e2e-queue-files-key-0c7e';
const PDF_PATH = 'queue-order-file';
const POLL_TRIGGER_TYPE = `${ACTION_TYPE}PollTrigger`;
/** The poll trigger's first poll runs at publication; the next ones once a minute. */
const POLL_WAIT_MS = 150_000;

const NODES = {
	delivery: 'Delivery with files',
	poll: 'Poll with files',
	deliveryHash: 'Hash on the worker (delivery)',
	pollHash: 'Hash on the worker (poll)',
};

let n8n: N8nInstance;
let sandbox: Sandbox;
let deliveryWorkflow: string;
let pollWorkflow: string;
let sendWorkflow: string;

/** The customer's file: not text, so that any re-encoding on the way would show. */
const photo = Buffer.concat([
	Buffer.from('89504e470d0a1a0a', 'hex'),
	randomBytes(300_000),
	Buffer.from([0, 0xff, 0xfe, 0x80]),
]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	x: number,
): WorkflowNodeJson {
	return { id: randomUUID(), name, type, typeVersion, position: [x, 0], parameters };
}

const credentials = { supportChatApi: { name: 'Support Board sandbox' } };

/** n8n's Crypto node: the SHA-256 of binary property attachment_0, read where the node runs. */
function hashNode(name: string, x: number): WorkflowNodeJson {
	return node(
		name,
		'n8n-nodes-base.crypto',
		1,
		{
			action: 'hash',
			type: 'SHA256',
			binaryData: true,
			binaryPropertyName: 'attachment_0',
			dataPropertyName: 'sha256',
			encoding: 'hex',
		},
		x,
	);
}

function triggerWorkflow(trigger: WorkflowNodeJson, hash: string): WorkflowJson {
	return {
		name: trigger.name,
		nodes: [trigger, hashNode(hash, 220)],
		connections: { [trigger.name]: { main: [[{ node: hash, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

function deliveryTrigger(): WorkflowNodeJson {
	return {
		...node(
			NODES.delivery,
			TRIGGER_TYPE,
			1,
			{
				events: ['messageCreated'],
				verification: 'bodyField',
				options: { downloadAttachments: true },
			},
			0,
		),
		webhookId: randomUUID(),
		credentials,
	};
}

function pollTrigger(): WorkflowNodeJson {
	return {
		...node(
			NODES.poll,
			POLL_TRIGGER_TYPE,
			1,
			{ events: ['messageCreated'], options: { downloadAttachments: true } },
			0,
		),
		credentials,
	};
}

/** files.e2e.test.ts's workflow: a PDF posted to a Webhook node, sent, read back, answered. */
function sendWorkflowJson(): WorkflowJson {
	const conversationId = {
		__rl: true,
		mode: 'id',
		value: "={{ $('Order PDF').first().json.body.conversationId }}",
	};
	return {
		name: 'Send a file from binary data',
		nodes: [
			{
				...node(
					'Order PDF',
					'n8n-nodes-base.webhook',
					2.1,
					{
						httpMethod: 'POST',
						path: PDF_PATH,
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

/** The first output item of a node in a run. */
function itemOf(run: Execution, nodeName: string): { json: any; binary?: Record<string, any> } {
	return run.data.resultData.runData[nodeName][0].data.main[0][0];
}

/** Which process finished a run, by n8n's own log lines. */
function finishedBy(run: Execution): string[] {
	return n8n.processes
		.filter((p) =>
			fs.readFileSync(n8n.logs[p.name], 'utf8').includes(`finished execution ${run.id} `),
		)
		.map((p) => p.name);
}

/** The row n8n's `database` binary data mode stored for a binary data id. */
async function storedFile(binaryDataId: string) {
	expect(binaryDataId).toMatch(/^database:/);
	const [row] = await n8n.sql(
		'SELECT data, "sourceType", "sourceId", "fileName" FROM binary_data WHERE "fileId" = $1',
		[binaryDataId.slice('database:'.length)],
	);
	return row as { data: Buffer; sourceType: string; sourceId: string; fileName: string };
}

/** What the editor's download of a binary data id answers (`GET /rest/binary-data`, signed in as the owner). */
async function editorDownload(binaryDataId: string): Promise<{ status: number; bytes: Buffer }> {
	const browserId = `queue-files-${randomUUID()}`;
	const login = await fetch(`${n8n.baseUrl}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': browserId },
		body: JSON.stringify({ emailOrLdapLoginId: n8n.owner.email, password: n8n.owner.password }),
	});
	expect(login.status).toBe(200);
	const cookie = login.headers
		.getSetCookie()
		.map((line) => line.split(';')[0])
		.find((pair) => pair.startsWith('n8n-auth='));
	const query = new URLSearchParams({ id: binaryDataId, action: 'download' });
	const answer = await fetch(`${n8n.baseUrl}/rest/binary-data?${query}`, {
		headers: { cookie: cookie ?? '', 'browser-id': browserId },
	});
	return { status: answer.status, bytes: Buffer.from(await answer.arrayBuffer()) };
}

/** The first poll (at publication) has asked Support Board for new conversations. */
async function firstPollDone(): Promise<void> {
	const start = Date.now();
	while (!sandbox.requests.some((r) => r.function === 'get-new-conversations')) {
		if (Date.now() - start > 30_000) throw new Error('no first poll 30 s after publication');
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	await sandbox.settled();
}

let conversationId: number;
let photoUrl: string;
let customerMessageId: string;

beforeAll(async () => {
	sandbox = await startSandbox({ api: 'support-board', token: TOKEN, seed: { users: 2 } });
	// The customer's conversation comes before the workflows: its first message is history to both
	// triggers, so that only the message with the photo runs them.
	const started = await sandbox.supportBoard!.visitor.start({
		message: 'My parcel arrived damaged.',
		email: 'noor@example.com',
		first_name: 'Noor',
	});
	conversationId = Number(started.conversation.id.replace(/\D/g, ''));
	await sandbox.settled();

	n8n = await startN8n({
		mode: 'queue',
		packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR,
		env: { N8N_DEFAULT_BINARY_DATA_MODE: 'database' },
	});
	const deploy = {
		publish: true,
		known: new Set<string>(),
		credentials: {
			api: 'supportBoard',
			baseUrl: sandbox.supportBoard!.installUrl,
			apiToken: TOKEN,
			allowHttp: false,
			webhookSecret: KEY,
		},
	};
	const delivery = await deployWorkflow(
		n8n,
		sandbox,
		triggerWorkflow(deliveryTrigger(), NODES.deliveryHash),
		deploy,
	);
	deliveryWorkflow = delivery.id;
	sandbox.supportBoard!.configureWebhooks({ url: delivery.triggerUrl!, key: KEY, active: true });
	pollWorkflow = (
		await deployWorkflow(n8n, sandbox, triggerWorkflow(pollTrigger(), NODES.pollHash), deploy)
	).id;
	sendWorkflow = (await deployWorkflow(n8n, sandbox, sendWorkflowJson(), deploy)).id;
	await firstPollDone();

	// The customer sends a photo: one message, heard by both triggers.
	photoUrl = sandbox.files.put('/script/uploads/parcel.png', {
		body: photo,
		contentType: 'image/png',
	});
	const sent = await fetch(sandbox.supportBoard!.apiUrl, {
		method: 'POST',
		body: JSON.stringify({
			function: 'send-message',
			token: TOKEN,
			user_id: String(Number(started.user.id.replace(/\D/g, ''))),
			conversation_id: String(conversationId),
			message: 'Here is the photo.',
			attachments: JSON.stringify([['parcel.png', photoUrl]]),
		}),
	});
	customerMessageId = String(((await sent.json()) as { response: { id: unknown } }).response.id);
	await sandbox.settled();
}, 6 * 60_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

test('n8n runs in queue mode with binary data in the database', async () => {
	expect(n8n.processes.map((p) => p.name)).toEqual(['main', 'worker1', 'webhook']);
	const settings = await n8n.rest('GET', '/rest/settings');
	expect(settings.data.binaryDataMode).toBe('database');
});

test('a delivery with an attachment reaches the worker with its file intact', async () => {
	const [run] = await n8n.waitForExecutions(deliveryWorkflow, { count: 1 });
	expect(run.status).toBe('success');
	expect(run.mode).toBe('webhook');
	expect(finishedBy(run)).toEqual(['worker1']);
	// Downloaded in the webhook process, stored in the database, kept in the run the worker saved.
	const delivery = sandbox.supportBoard!.deliveries.filter((d) => d.function === 'message-sent');
	expect(delivery.map((d) => d.url)).toEqual([
		expect.stringMatching(new RegExp(`^${n8n.webhookBaseUrl}/webhook/`)),
	]);
	const item = itemOf(run, NODES.delivery);
	expect(String(item.json.messageId)).toBe(customerMessageId);
	expect(item.binary?.attachment_0).toMatchObject({
		fileName: 'parcel.png',
		mimeType: 'image/png',
		id: expect.stringMatching(/^database:/),
	});
	// Stored before the run existed, so under n8n's "temp" execution: the editor cannot download it
	// (n8n 2.41.1 moves only ids with a /temp/ path, filesystem and blob stores, to the run; docs/queue-mode.md).
	const stored = await storedFile(item.binary!.attachment_0.id);
	expect(stored.data.equals(photo)).toBe(true);
	expect([stored.sourceType, stored.sourceId]).toEqual(['execution', 'temp']);
	expect((await editorDownload(item.binary!.attachment_0.id)).status).toBe(404);
	// The worker read the file whole.
	expect(itemOf(run, NODES.deliveryHash).json.sha256).toBe(sha256(photo));
});

test('a file from binary data, sent by the worker, is stored byte for byte', async () => {
	const board = sandbox.supportBoard!;
	const uploadsBefore = board.uploads.files.size;
	const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(40_000)]);
	const form = new FormData();
	form.append('conversationId', String(conversationId));
	form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'order-4471.pdf');
	const answer = await fetch(n8n.webhookUrl(PDF_PATH), { method: 'POST', body: form });
	const body = Buffer.from(await answer.arrayBuffer());
	expect(answer.status).toBe(200);

	const [run] = await n8n.waitForExecutions(sendWorkflow, { count: 1 });
	expect(run.status).toBe('success');
	expect(finishedBy(run)).toEqual(['worker1']);
	// The Webhook node stored the upload in the webhook process; the worker sent it from there.
	const received = itemOf(run, 'Order PDF').binary!;
	const [property] = Object.keys(received);
	const stored = [...board.uploads.files.values()].slice(uploadsBefore);
	expect(stored).toHaveLength(1);
	expect(stored[0].bytes.equals(pdf)).toBe(true);
	expect((await storedFile(received[property].id)).data.equals(pdf)).toBe(true);
	// Read back on the worker, which stores it under the run: the editor downloads that one.
	const readBack = itemOf(run, 'Read it back').binary!.attachment_0.id;
	const kept = await storedFile(readBack);
	expect([kept.sourceType, kept.sourceId, kept.data.equals(pdf)]).toEqual([
		'execution',
		run.id,
		true,
	]);
	const download = await editorDownload(readBack);
	expect([download.status, download.bytes.equals(pdf)]).toEqual([200, true]);
	// And the webhook process answered with it, from the database.
	expect(answer.headers.get('content-type')).toMatch(/^application\/pdf/);
	expect(body.equals(pdf)).toBe(true);
});

// Last: the poll comes up to a minute after the photo, and the tests before take from that wait.
test("the poll trigger's file, downloaded on main, reaches the worker intact", async () => {
	const [run] = await n8n.waitForExecutions(pollWorkflow, { count: 1, timeoutMs: POLL_WAIT_MS });
	expect(run.status).toBe('success');
	expect(run.mode).toBe('trigger');
	expect(finishedBy(run)).toEqual(['worker1']);
	const item = itemOf(run, NODES.poll);
	expect(item.json.eventSource).toBe('poll get-new-messages');
	expect(String(item.json.messageId)).toBe(customerMessageId);
	expect(item.binary?.attachment_0).toMatchObject({
		fileName: 'parcel.png',
		mimeType: 'image/png',
		id: expect.stringMatching(/^database:/),
	});
	const stored = await storedFile(item.binary!.attachment_0.id);
	expect(stored.data.equals(photo)).toBe(true);
	expect([stored.sourceType, stored.sourceId]).toEqual(['execution', 'temp']);
	expect(itemOf(run, NODES.pollHash).json.sha256).toBe(sha256(photo));
	// Each trigger downloaded the photo once: the webhook process, then main.
	expect(
		sandbox.requests.filter((r) => r.path === photoUrl.replace(/^https?:\/\/[^/]+/, '')),
	).toHaveLength(2);
});
