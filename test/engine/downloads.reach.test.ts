/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Issue 27, class 1: a URL a visitor or a file host chose never makes n8n connect to a loopback,
 * private, link-local, shared or reserved address, however the name is spelt or resolves; the Base
 * URL's origin is the only exemption, and there only the product's files, never its API; no error
 * tells a resolved address or a port's state. Names resolve through a make-believe network
 * (test/helpers/network.ts): `*.test` names the test maps, and public addresses routed to the sandbox.
 */
import net from 'node:net';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import { SupportChatPollTrigger } from '../../nodes/SupportChat/SupportChatPollTrigger.node';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { N8N_MAJOR, callPoll, runNode } from '../helpers/engine';
import type { FakeNetwork } from '../helpers/network';
import type { Receiver } from '../helpers/receiver';
import { startReceiver } from '../helpers/receiver';
import { fakeNetwork } from '../helpers/network';
import { ACTION_TYPE, byId } from '../helpers/supportChat';

const POLL_TYPE = 'n8n-nodes-support-chat.supportChatPollTrigger';
const TOKEN = 'sb-admin-token-reach-5e1f9a';
const REST_TOKEN = 'rest-bearer-token-reach-77c0d4';
const SECRET = 'rest-webhook-secret-reach-1b2c';
/** Public addresses no test connects to for real: the make-believe network routes them to a sandbox. */
const PUBLIC_A = '93.184.215.14';
const PUBLIC_B = '151.101.1.140';
let sandbox: Sandbox;
let other: Sandbox;
let rest: Sandbox;
let network: FakeNetwork;
let hangUp: net.Server;
let receiver: Receiver;

/**
 * n8n 1.x offers nodes no egress filter: names cannot be resolved there, only judged as written, and
 * the tests of names as resolved and of pinned connections do not apply (docs/support-board.md).
 */
const resolving = N8N_MAJOR >= 2 ? it : it.skip;

const portOf = (box: Sandbox) => Number(new URL(box.origin).port);
/** The connections the downloads opened: all but those of the node's API calls to the Base URL. */
const away = () => network.connections.filter((c) => c.port !== portOf(sandbox));

beforeAll(async () => {
	sandbox = await startSandbox({
		api: 'support-board',
		token: TOKEN,
		seed: { users: 1, conversations: 1 },
	});
	other = await startSandbox({ api: 'support-board', token: 'another-hosts-token-reach' });
	rest = await startSandbox({ token: REST_TOKEN });
	// A port that is open and hangs up at once: over http, "socket hang up" where a closed one says ECONNREFUSED.
	hangUp = net.createServer((socket) => socket.destroy());
	await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
	receiver = await startReceiver();
	network = fakeNetwork();
});
afterAll(async () => {
	network.restore();
	await receiver.close();
	await new Promise((resolve) => hangUp.close(resolve));
	await sandbox.close();
	await other.close();
	await rest.close();
});
beforeEach(() => {
	network.reset();
	sandbox.reset();
	other.reset();
	rest.reset();
});

async function webApi(fn: string, args: IDataObject): Promise<unknown> {
	const res = await fetch(sandbox.supportBoard!.apiUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ function: fn, token: TOKEN, ...args }),
	});
	return ((await res.json()) as { response: unknown }).response;
}

/** A conversation whose latest message carries these attachments: its id, with every log cleared. */
async function conversationWith(attachments: string[][]): Promise<string> {
	const conversationId = String(Number(sandbox.state.conversations[0].id.replace(/\D/g, '')));
	await webApi('send-message', {
		user_id: -1,
		conversation_id: conversationId,
		message: 'Files',
		attachments: JSON.stringify(attachments),
	});
	sandbox.clearLog();
	other.clearLog();
	network.connections.length = 0;
	return conversationId;
}

async function run(parameters: INodeParameters, credentials: IDataObject) {
	return await runNode({
		node: { name: 'Support Chat', type: ACTION_TYPE, parameters },
		nodeTypes: { [ACTION_TYPE]: new SupportChat() },
		credentials: { types: [new SupportChatApi()], data: { supportChatApi: credentials } },
	});
}

const SB_CREDENTIALS = () => ({
	api: 'supportBoard',
	baseUrl: sandbox.supportBoard!.installUrl,
	apiToken: TOKEN,
	allowHttp: true,
});

/** Message → Get Many of a conversation whose message names `url`, failing: its error. */
async function downloadFails(url: string, options: IDataObject = {}) {
	const id = await conversationWith([['file.txt', url]]);
	const result = await run(
		{
			resource: 'message',
			operation: 'getAll',
			conversationId: byId(id),
			returnAll: true,
			options: { downloadAttachments: true, attachmentsFromOtherHosts: true, ...options },
		},
		SB_CREDENTIALS(),
	);
	expect(result.status).toBe('error');
	return result.error('Support Chat')!;
}

describe('a name is judged by what it resolves to', () => {
	resolving(
		'a name resolving to 127.0.0.1 is refused before any connection, without the address',
		async () => {
			network.resolve('files.evil.test', ['127.0.0.1']);
			const error = await downloadFails(`http://files.evil.test:${portOf(other)}/x`);
			expect(error.message).toMatch(/could not be downloaded: no answer from its server/);
			expect(`${error.message} ${error.description}`).not.toContain('127.0.0.1');
			expect(away()).toEqual([]);
			expect(other.requests).toEqual([]);
		},
	);

	resolving('so is a name with one forbidden address among public ones', async () => {
		network.resolve('mixed.evil.test', [PUBLIC_A, '10.0.0.7']);
		network.route(PUBLIC_A, portOf(other));
		const error = await downloadFails(`http://mixed.evil.test:${portOf(other)}/x`);
		expect(error.message).toMatch(/could not be downloaded: no answer from its server/);
		expect(away()).toEqual([]);
	});

	resolving(
		'a public name is fetched at the address checked, with its own name in the Host header',
		async () => {
			const url = other.files.put('/bucket/ok.txt', { body: 'fine', contentType: 'text/plain' });
			const port = portOf(other);
			network.resolve('files.good.test', [PUBLIC_A]);
			network.route(PUBLIC_A, port);
			const id = await conversationWith([['ok.txt', url.replace('127.0.0.1', 'files.good.test')]]);
			const result = await run(
				{
					resource: 'message',
					operation: 'getAll',
					conversationId: byId(id),
					returnAll: true,
					options: { downloadAttachments: true, attachmentsFromOtherHosts: true },
				},
				SB_CREDENTIALS(),
			);
			expect(result.status).toBe('success');
			const [item] = result.output('Support Chat').filter((i) => i.binary);
			expect(Buffer.from(item.binary!.attachment_0.data, 'base64').toString()).toBe('fine');
			// The connection went to the address judged, not to whatever the name resolves to by then.
			expect(away()).toEqual([{ host: PUBLIC_A, port }]);
			const [request] = other.requests.filter((r) => r.method === 'GET');
			expect(request.headers.host).toBe(`files.good.test:${port}`);
			expect(request.headers.authorization).toBeUndefined();
		},
	);
	resolving(
		'over https the connection goes to the address checked, and TLS is asked for the name',
		async () => {
			network.resolve('secure.files.test', [PUBLIC_B]);
			network.route(PUBLIC_B, (hangUp.address() as net.AddressInfo).port);
			const error = await downloadFails('https://secure.files.test/report.pdf');
			expect(error.message).toBe(
				'The attachment https://secure.files.test/report.pdf could not be downloaded: no answer from its server',
			);
			// The server name is what the certificate is verified against: the name, not the address.
			expect(away()).toEqual([{ host: PUBLIC_B, port: 443, servername: 'secure.files.test' }]);
		},
	);
});

describe('addresses as written', () => {
	it.each([
		['http://localhost./x'],
		['http://x.localhost./x'],
		['http://198.18.0.1/x'],
		['http://192.0.0.8/x'],
		['http://[fec0::1]/x'],
		['http://[64:ff9b::7f00:1]/x'],
		['http://[2002:7f00:1::]/x'],
		['http://[::ffff:127.0.0.1]/x'],
	])('%s is refused without a connection', async (url) => {
		const error = await downloadFails(url);
		expect(error.message).toMatch(/is at a private or loopback address/);
		expect(away()).toEqual([]);
	});

	it("another port of the Base URL's host is another host: refused at a loopback address", async () => {
		const url = other.files.put('/admin/secret.txt', { body: 'container API' });
		const error = await downloadFails(url);
		expect(error.message).toMatch(/is at a private or loopback address/);
		expect(other.requests).toEqual([]);
	});
});

describe("the Base URL's origin: its files, never its API", () => {
	it('Support Board: nothing in include/ (api.php, ajax.php, upload.php), however spelt', async () => {
		for (const path of [
			'/script/include/api.php',
			'/script/include/ajax.php',
			'/script/uploads/../INCLUDE/api.php',
			'/script//includ%65/upload.php',
		]) {
			const error = await downloadFails(`${sandbox.origin}${path}`);
			expect(error.message).toMatch(/is in the folder of the service's API/);
		}
		expect(sandbox.requests.filter((r) => r.method === 'GET')).toEqual([]);
	});

	it('REST, in the webhook trigger: a file URL under the API path is refused, and the token is never sent', async () => {
		const item = await restDelivery([
			{ name: 'users.json', url: `${rest.baseUrl}/users` },
			{ name: 'ok.pdf', url: rest.files.put('/files/ok.pdf', { body: 'ok' }) },
		]);
		expect((item.json.attachmentError as IDataObject).message).toMatch(
			/is in the folder of the service's API/,
		);
		expect(rest.requests).toEqual([]);
	});

	resolving('the webhook trigger judges resolved names too', async () => {
		network.resolve('files.evil.test', ['127.0.0.1']);
		const item = await restDelivery([
			{ name: 'x', url: `http://files.evil.test:${portOf(other)}/x` },
		]);
		expect((item.json.attachmentError as IDataObject).message).toMatch(
			/could not be downloaded: no answer from its server/,
		);
		expect(away()).toEqual([]);
		expect(other.requests).toEqual([]);
	});
});

/** One REST delivery naming these files, to a webhook trigger that downloads them: its item. */
async function restDelivery(attachments: Array<{ name: string; url: string }>) {
	receiver.reset();
	rest.clearLog();
	other.clearLog();
	network.connections.length = 0;
	const url = receiver.endpoint('rest', {
		trigger: {
			events: ['*'],
			verification: 'bodyField',
			keyField: 'secret_key',
			options: { downloadAttachments: true, attachmentsFromOtherHosts: true },
		},
		credentials: {
			types: [new SupportChatApi()],
			data: {
				supportChatApi: {
					baseUrl: rest.baseUrl,
					apiToken: REST_TOKEN,
					webhookSecret: SECRET,
					allowHttp: true,
				},
			},
		},
	});
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			event: 'message.created',
			secret_key: SECRET,
			data: { id: 'm_1', conversation_id: 'c_1', text: 'Files', attachments },
		}),
	});
	expect(answer.status).toBe(200);
	await receiver.settled();
	return receiver.deliveries('rest')[0].response.workflowData![0][0];
}

describe('no error tells an address or a port state', () => {
	it('a closed port and one that hangs up read the same', async () => {
		const closed = net.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const closedPort = (closed.address() as net.AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));
		network.resolve('closed.files.test', [PUBLIC_A]);
		network.resolve('open.files.test', [PUBLIC_B]);
		network.route(PUBLIC_A, closedPort);
		network.route('closed.files.test', closedPort);
		network.route(PUBLIC_B, (hangUp.address() as net.AddressInfo).port);
		network.route('open.files.test', (hangUp.address() as net.AddressInfo).port);
		const a = await downloadFails('http://closed.files.test/x');
		const b = await downloadFails('http://open.files.test/x');
		const text = (error: { message: string; description?: string | null }) =>
			`${error.message} | ${error.description}`.replace(/(closed|open)\.files\.test/, 'HOST');
		expect(text(a)).toBe(text(b));
		expect(text(a)).not.toMatch(/ECONN|socket|hang up|127\.0\.0\.1|93\.184/);
	});
});

describe('quoted addresses are masked, then cut', () => {
	it('a token across the 200th character shows none of its characters', async () => {
		// Quoted by the webhook trigger's refusal of a private address, as a visitor could write it.
		const head = 'https://10.0.0.1/';
		const url = `${head}${'a'.repeat(190 - head.length)}/${REST_TOKEN}/${'b'.repeat(400)}.png`;
		const item = await restDelivery([{ name: 'x.png', url }]);
		const { message } = item.json.attachmentError as { message: string };
		expect(message).toMatch(/is at a private or loopback address/);
		for (let i = 0; i + 6 <= REST_TOKEN.length; i++)
			expect(message).not.toContain(REST_TOKEN.slice(i, i + 6));
	});
});

describe('sizes in the option’s unit', () => {
	it('says Max Attachment Size in MB', async () => {
		const big = sandbox.files.put('/script/uploads/big.bin', { size: 2 * 1024 * 1024 });
		const error = await downloadFails(big, { maxAttachmentSize: 1 });
		expect(error.message).toMatch(/is larger than Max Attachment Size \(1 MB\)/);
	});
});

describe('the poll trigger', () => {
	resolving(
		'judges resolved names too: the event comes, with attachmentError and no connection',
		async () => {
			const poll = async (staticData?: IDataObject) => {
				const result = await callPoll({
					node: {
						type: POLL_TYPE,
						parameters: {
							events: ['messageCreated'],
							options: { downloadAttachments: true, attachmentsFromOtherHosts: true },
						},
					},
					nodeType: new SupportChatPollTrigger(),
					credentials: {
						types: [new SupportChatApi()],
						data: { supportChatApi: SB_CREDENTIALS() },
					},
					staticData,
				});
				if (result.error) throw result.error;
				return result;
			};
			const started = await sandbox.supportBoard!.visitor.start({
				message: 'Hello',
				email: 'poll@example.com',
			});
			await sandbox.settled();
			const first = await poll();
			network.resolve('poll.evil.test', ['127.0.0.1']);
			await webApi('send-message', {
				user_id: String(Number(started.user.id.replace(/\D/g, ''))),
				conversation_id: String(Number(started.conversation.id.replace(/\D/g, ''))),
				message: 'The file',
				attachments: JSON.stringify([['x', `http://poll.evil.test:${portOf(other)}/x`]]),
			});
			await sandbox.settled();
			network.connections.length = 0;
			const second = await poll(first.staticData);
			const [event] = (second.items ?? []).filter((item) => item.json.event === 'messageCreated');
			expect((event.json.attachmentError as IDataObject).message).toMatch(
				/could not be downloaded: no answer from its server/,
			);
			expect(away()).toEqual([]);
			expect(other.requests).toEqual([]);
		},
	);
});
