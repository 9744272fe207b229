/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Download Attachments in Message → Get Many and Conversation → Get, run by the real n8n engine against
 * the sandbox's Support Board mode, which serves the files (a second sandbox plays another host): the
 * bytes, file names and MIME types of the binary properties, where the credentials went (the request
 * log), and each bound failing its item with the option to change.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { runNode } from '../helpers/engine';
import type { FakeNetwork } from '../helpers/network';
import { fakeNetwork } from '../helpers/network';
import { ACTION_TYPE, byId } from '../helpers/supportChat';

const TOKEN = 'sb-admin-token-files-91c2';
let sandbox: Sandbox;
let other: Sandbox;
let network: FakeNetwork;
/** Another host: a public address (never reached for real) that the make-believe network routes to `other`. */
const OTHER_ADDRESS = '93.184.215.14';
const elsewhere = (url: string) => url.replace('127.0.0.1', 'files.other.test');

beforeAll(async () => {
	sandbox = await startSandbox({
		api: 'support-board',
		token: TOKEN,
		seed: { users: 2, conversations: 1 },
	});
	other = await startSandbox({ api: 'support-board', token: 'another-hosts-token-0000' });
	network = fakeNetwork();
});
afterAll(async () => {
	network.restore();
	await sandbox.close();
	await other.close();
});
beforeEach(() => {
	sandbox.reset();
	other.reset();
	network.reset();
	network.resolve('files.other.test', [OTHER_ADDRESS]);
	network.route(OTHER_ADDRESS, Number(new URL(other.origin).port));
});

const install = () => sandbox.supportBoard!.installUrl;

/** A Web API call as an admin makes it, outside the node: its `response`. */
async function webApi(fn: string, args: IDataObject): Promise<unknown> {
	const res = await fetch(sandbox.supportBoard!.apiUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ function: fn, token: TOKEN, ...args }),
	});
	return ((await res.json()) as { response: unknown }).response;
}

/** A conversation whose latest message carries these attachments (`[name, url]` pairs): its id. */
async function conversationWith(
	attachments: string[][],
	text = 'Here are the files',
): Promise<string> {
	const conversationId = String(Number(sandbox.state.conversations[0].id.replace(/\D/g, '')));
	await webApi('send-message', {
		user_id: -1,
		conversation_id: conversationId,
		message: text,
		attachments: JSON.stringify(attachments),
	});
	sandbox.clearLog();
	other.clearLog();
	return conversationId;
}

async function run(parameters: INodeParameters, continueOnFail = true) {
	return await runNode({
		node: {
			name: 'Support Chat',
			type: ACTION_TYPE,
			parameters,
			...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		},
		nodeTypes: { [ACTION_TYPE]: new SupportChat() },
		credentials: {
			types: [new SupportChatApi()],
			// Allow Plain HTTP: the sandbox playing another host speaks http.
			data: {
				supportChatApi: {
					api: 'supportBoard',
					baseUrl: install(),
					apiToken: TOKEN,
					allowHttp: true,
				},
			},
		},
	});
}

const getMany = (conversationId: string, options: IDataObject = {}, continueOnFail = true) =>
	run(
		{
			resource: 'message',
			operation: 'getAll',
			conversationId: byId(conversationId),
			returnAll: true,
			options: { downloadAttachments: true, ...options },
		},
		continueOnFail,
	);

/** The node's error when it fails without continue-on-fail. */
async function failure(conversationId: string, options: IDataObject = {}) {
	const result = await getMany(conversationId, options, false);
	expect(result.status).toBe('error');
	return result.error('Support Chat')!;
}

const withFiles = (items: INodeExecutionData[]) => items.filter((item) => item.binary);
const bytesOf = (item: INodeExecutionData, key: string) =>
	Buffer.from(item.binary![key].data, 'base64');
const fileRequests = (box: Sandbox) => box.requests.filter((r) => r.method === 'GET');

it('is off by default: the attachments stay URLs, no file is asked for, no item has binary data', async () => {
	const url = sandbox.files.put('/script/uploads/a.txt', {
		body: 'alpha',
		contentType: 'text/plain',
	});
	const id = await conversationWith([['a.txt', url]]);
	const result = await run({
		resource: 'message',
		operation: 'getAll',
		conversationId: byId(id),
		returnAll: true,
	});
	expect(result.status).toBe('success');
	expect(withFiles(result.output('Support Chat'))).toEqual([]);
	expect(fileRequests(sandbox)).toEqual([]);
});

it('downloads each file into attachment_0, attachment_1: bytes, file name and MIME type', async () => {
	const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
	const a = sandbox.files.put('/script/uploads/27-11-26/report.pdf', {
		body: 'PDF-ish',
		contentType: 'application/pdf',
	});
	// No Content-Type: the extension says what it is.
	const b = sandbox.files.put('/script/uploads/27-11-26/photo.png', { body: png });
	const id = await conversationWith([
		['report.pdf', a],
		['../../etc/pass<wd>.png', b],
	]);
	const result = await getMany(id);
	expect(result.status).toBe('success');
	const [item] = withFiles(result.output('Support Chat'));
	expect(Object.keys(item.binary!)).toEqual(['attachment_0', 'attachment_1']);
	expect(bytesOf(item, 'attachment_0').toString()).toBe('PDF-ish');
	expect(item.binary!.attachment_0).toMatchObject({
		fileName: 'report.pdf',
		mimeType: 'application/pdf',
	});
	expect(bytesOf(item, 'attachment_1').equals(png)).toBe(true);
	expect(item.binary!.attachment_1).toMatchObject({
		fileName: 'pass_wd_.png',
		mimeType: 'image/png',
	});
	expect(item.json.message).toBe('Here are the files');
	expect(item.pairedItem).toEqual({ item: 0 });
});

it('names the binary properties with Attachment Prefix', async () => {
	const a = sandbox.files.put('/script/uploads/x.txt', { body: 'x', contentType: 'text/plain' });
	const id = await conversationWith([['x.txt', a]]);
	const [item] = withFiles(
		(await getMany(id, { attachmentPrefix: 'file' })).output('Support Chat'),
	);
	expect(Object.keys(item.binary!)).toEqual(['file0']);
});

it('Conversation → Get puts the files of all its messages on its one item', async () => {
	const a = sandbox.files.put('/script/uploads/one.txt', {
		body: 'one',
		contentType: 'text/plain',
	});
	const b = sandbox.files.put('/script/uploads/two.txt', {
		body: 'two',
		contentType: 'text/plain',
	});
	await conversationWith([['one.txt', a]]);
	const id = await conversationWith([['two.txt', b]], 'And another');
	const result = await run({
		resource: 'conversation',
		operation: 'get',
		conversationId: byId(id),
		simplify: true,
		options: { downloadAttachments: true },
	});
	const items = result.output('Support Chat');
	expect(items).toHaveLength(1);
	expect(Object.keys(items[0].binary!)).toEqual(['attachment_0', 'attachment_1']);
	expect(bytesOf(items[0], 'attachment_0').toString()).toBe('one');
	expect(bytesOf(items[0], 'attachment_1').toString()).toBe('two');
});

describe('where the credentials go', () => {
	it("another host's file comes without credentials; a redirect to it is followed, a redirect back home too", async () => {
		const away = elsewhere(
			other.files.put('/s3/bucket/away.txt', { body: 'from elsewhere', contentType: 'text/plain' }),
		);
		const home = sandbox.files.put('/script/uploads/home.txt', {
			body: 'home',
			contentType: 'text/plain',
		});
		const hop = sandbox.files.put('/script/uploads/moved.txt', { location: away });
		const back = elsewhere(other.files.put('/s3/back', { location: home }));
		const id = await conversationWith([
			['moved.txt', hop],
			['back.txt', back],
		]);
		// Download From Other Hosts is off by default (issue 27): turned on where another host is meant.
		const result = await getMany(id, { attachmentsFromOtherHosts: true });
		expect(result.status).toBe('success');
		const [item] = withFiles(result.output('Support Chat'));
		expect(bytesOf(item, 'attachment_0').toString()).toBe('from elsewhere');
		expect(bytesOf(item, 'attachment_1').toString()).toBe('home');
		// The name comes from the message, not from where the redirect led.
		expect(item.binary!.attachment_1.fileName).toBe('back.txt');
		const otherHeaders = fileRequests(other).map((r) => r.headers);
		expect(fileRequests(other).map((r) => r.path)).toEqual(['/s3/bucket/away.txt', '/s3/back']);
		for (const headers of otherHeaders) {
			expect(headers.authorization).toBeUndefined();
			expect(JSON.stringify(headers)).not.toContain(TOKEN);
		}
	});

	it('with Download From Other Hosts off, a file elsewhere fails the item, naming the option, before any request there', async () => {
		const away = elsewhere(
			other.files.put('/s3/away.txt', { body: 'x', contentType: 'text/plain' }),
		);
		const id = await conversationWith([['away.txt', away]]);
		const error = await failure(id, { attachmentsFromOtherHosts: false });
		expect(error.message).toMatch(/another host than the Base URL/);
		expect(error.description).toMatch(/Options → Download From Other Hosts/);
		expect(fileRequests(other)).toEqual([]);
	});

	it("a private address on another host than the Base URL's is refused without a request", async () => {
		const id = await conversationWith([['meta', 'https://169.254.169.254/latest/meta-data/']]);
		const error = await failure(id, { attachmentsFromOtherHosts: true });
		expect(error.message).toMatch(/private or loopback address/);
	});
});

describe('redirects', () => {
	it('a redirect to nowhere, or one more than 5 in a row, fails the item', async () => {
		const nowhere = sandbox.files.put('/script/uploads/nowhere', { location: '' });
		const id = await conversationWith([['nowhere', nowhere]]);
		const error = await failure(id);
		expect(error.message).toMatch(/answered 302/);
		expect(error.description).toMatch(/or to nowhere/);
		expect(fileRequests(sandbox)).toHaveLength(1);

		sandbox.reset();
		const loop = sandbox.files.put('/script/uploads/loop', { location: '/script/uploads/loop' });
		const looping = await conversationWith([['loop', loop]]);
		const circle = await failure(looping);
		expect(circle.message).toMatch(/answered 302/);
		expect(circle.description).toMatch(/more than 5 times/);
		expect(fileRequests(sandbox)).toHaveLength(6);
	});
});

describe('bounds: exceeding one fails the item and names the option', () => {
	it('a file larger than Max Attachment Size, whether it says so or not', async () => {
		const said = sandbox.files.put('/script/uploads/big.bin', { size: 2 * 1024 * 1024 });
		const unsaid = sandbox.files.put('/script/uploads/big2.bin', {
			size: 2 * 1024 * 1024,
			declareLength: false,
		});
		for (const url of [said, unsaid]) {
			const id = await conversationWith([['big.bin', url]]);
			const error = await failure(id, { maxAttachmentSize: 1 });
			expect(error.message).toMatch(/is larger than Max Attachment Size \(1 MB\)/);
			expect(error.description).toMatch(/Options → Max Attachment Size \(MB\)/);
		}
	});

	it('more files than Max Attachments fails before any download', async () => {
		const a = sandbox.files.put('/script/uploads/a.txt', { body: 'a' });
		const id = await conversationWith([
			['a.txt', a],
			['b.txt', a],
			['c.txt', a],
		]);
		const error = await failure(id, { maxAttachments: 2 });
		expect(error.message).toMatch(/3 attachments, more than Max Attachments \(2\)/);
		expect(error.description).toMatch(/Options → Max Attachments/);
		expect(fileRequests(sandbox)).toEqual([]);
	});

	it('a trickling file stops at Timeout', async () => {
		const slow = sandbox.files.put('/script/uploads/slow.txt', {
			body: 'abcdefghij',
			trickleMs: 400,
		});
		const id = await conversationWith([['slow.txt', slow]]);
		const started = Date.now();
		const error = await failure(id, { timeout: 1 });
		expect(Date.now() - started).toBeLessThan(3000);
		expect(error.message).toMatch(/did not arrive in full within 1 s/);
		expect(error.description).toMatch(/Options → Timeout \(Seconds\)/);
	});

	it('a server that cannot be reached fails the item, saying so', async () => {
		// Another host on a closed port: asked without the credentials, refused, and said without the cause.
		network.route(OTHER_ADDRESS, 9);
		const closed = `http://files.other.test:9/unreachable.pdf`;
		const id = await conversationWith([['unreachable.pdf', closed]]);
		const error = await failure(id, { attachmentsFromOtherHosts: true });
		expect(error.message).toBe(
			'The attachment http://files.other.test:9/unreachable.pdf could not be downloaded: no answer from its server',
		);
		// The same text as a name that resolves to a forbidden address (issue 27: no message tells what a name resolves to).
		expect(error.description).toMatch(/^Check that its server is reachable from n8n/);
	});

	it('a missing file fails its item with its status, asked once; continue-on-fail keeps the pairing', async () => {
		const gone = `${sandbox.origin}/script/uploads/gone.txt`;
		const missing = await conversationWith([['gone.txt', gone]]);
		const result = await getMany(missing);
		const [item] = result.output('Support Chat');
		expect(item.json).toMatchObject({
			error: expect.stringMatching(/answered 404/),
			httpCode: '404',
		});
		expect(item.pairedItem).toEqual({ item: 0 });
		// Asked once: a download is not retried.
		expect(fileRequests(sandbox).filter((r) => r.path.endsWith('gone.txt'))).toHaveLength(1);
	});
});
