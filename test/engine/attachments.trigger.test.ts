/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Download Attachments in the webhook trigger: Support Board's message-sent webhook names the files of
 * the message (`attachments`, `[["name","url"]]`), and the trigger, under n8n-core's real
 * WebhookContext, puts them on the event's item once the delivery was answered. A file that cannot be
 * had does not lose the event: its item comes without files, with attachmentError.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { Receiver } from '../helpers/receiver';
import { startReceiver } from '../helpers/receiver';
import { fakeNetwork } from '../helpers/network';

const TOKEN = 'sb-trigger-files-token-77d1';
const KEY = 'sb-webhook-files-key-41aa';
let sandbox: Sandbox;
let receiver: Receiver;

beforeAll(async () => {
	sandbox = await startSandbox({
		api: 'support-board',
		token: TOKEN,
		seed: { users: 2, conversations: 1 },
	});
	receiver = await startReceiver();
});
afterAll(async () => {
	await receiver.close();
	await sandbox.close();
});

function listen(options: INodeParameters) {
	sandbox.reset();
	receiver.reset();
	const url = receiver.endpoint('board', {
		trigger: { events: ['messageCreated'], verification: 'bodyField', options },
		credentials: {
			types: [new SupportChatApi()],
			data: {
				supportChatApi: {
					api: 'supportBoard',
					baseUrl: sandbox.supportBoard!.installUrl,
					apiToken: TOKEN,
					webhookSecret: KEY,
				},
			},
		},
	});
	sandbox.supportBoard!.configureWebhooks({ url, key: KEY, active: true });
}

/** A visitor's message with these attachments; the trigger's items once every delivery ended. */
async function visitorSends(attachments: string[][]) {
	const started = await sandbox.supportBoard!.visitor.start({
		message: 'Hello',
		email: 'fay@example.com',
	});
	await sandbox.settled();
	await receiver.settled();
	const before = receiver.deliveries('board').length;
	sandbox.clearLog();
	await fetch(sandbox.supportBoard!.apiUrl, {
		method: 'POST',
		body: JSON.stringify({
			function: 'send-message',
			token: TOKEN,
			user_id: String(Number(started.user.id.replace(/\D/g, ''))),
			conversation_id: String(Number(started.conversation.id.replace(/\D/g, ''))),
			message: 'The photo',
			attachments: JSON.stringify(attachments),
		}),
	});
	await sandbox.settled();
	await receiver.settled();
	return receiver
		.deliveries('board')
		.slice(before)
		.flatMap((d) => d.response.workflowData?.[0] ?? []);
}

it('puts the files of a New Message on its item', async () => {
	listen({ downloadAttachments: true });
	const url = sandbox.files.put('/script/uploads/photo.jpg', {
		body: 'jpeg bytes',
		contentType: 'image/jpeg',
	});
	const items = await visitorSends([['photo.jpg', url]]);
	expect(items).toHaveLength(1);
	expect(items[0].json.event).toBe('messageCreated');
	expect(Buffer.from(items[0].binary!.attachment_0.data, 'base64').toString()).toBe('jpeg bytes');
	expect(items[0].binary!.attachment_0).toMatchObject({
		fileName: 'photo.jpg',
		mimeType: 'image/jpeg',
	});
	expect(sandbox.requests.filter((r) => r.path === '/script/uploads/photo.jpg')).toHaveLength(1);
});

it('is off by default: the item keeps the URL, no file is asked for', async () => {
	listen({});
	const url = sandbox.files.put('/script/uploads/photo.jpg', { body: 'jpeg bytes' });
	const items = await visitorSends([['photo.jpg', url]]);
	expect(items).toHaveLength(1);
	expect(items[0].binary).toBeUndefined();
	expect((items[0].json.data as IDataObject).attachments).toEqual([['photo.jpg', url]]);
	expect(sandbox.requests.filter((r) => r.method === 'GET')).toEqual([]);
});

it('a file too large still runs the event, without files and with attachmentError naming the option', async () => {
	listen({ downloadAttachments: true, maxAttachmentSize: 1 });
	const url = sandbox.files.put('/script/uploads/huge.mov', { size: 3 * 1024 * 1024 });
	const items = await visitorSends([['huge.mov', url]]);
	expect(items).toHaveLength(1);
	expect(items[0].binary).toBeUndefined();
	expect(items[0].json.attachmentError).toEqual({
		message: expect.stringMatching(/huge\.mov is larger than Max Attachment Size \(1 MB\)/),
		description: expect.stringMatching(/Options → Max Attachment Size \(MB\)/),
	});
});

describe('REST credentials, whose token travels in the Authorization header', () => {
	const REST_TOKEN = 'rest-bearer-token-files-5c0e';
	const SECRET = 'rest-webhook-secret-files-8d2b';
	let rest: Sandbox;
	let elsewhere: Sandbox;
	// Another host: a public name and address (never reached for real) routed to `elsewhere`.
	const network = fakeNetwork();
	beforeAll(async () => {
		rest = await startSandbox({ token: REST_TOKEN });
		elsewhere = await startSandbox({ token: 'elsewhere-token-0000' });
		network.resolve('files.elsewhere.test', ['93.184.215.14']);
		network.route('93.184.215.14', Number(new URL(elsewhere.origin).port));
	});
	afterAll(async () => {
		network.restore();
		await rest.close();
		await elsewhere.close();
	});

	it("sends the bearer token with a file on the Base URL's origin only, never to another host", async () => {
		receiver.reset();
		const url = receiver.endpoint('rest', {
			trigger: {
				events: ['*'],
				verification: 'bodyField',
				keyField: 'secret_key',
				// Download From Other Hosts is off by default (issue 27): on, as another host is meant.
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
		const home = rest.files.put('/files/contract.pdf', {
			body: 'home',
			contentType: 'application/pdf',
		});
		const away = elsewhere.files
			.put('/bucket/scan.pdf', { body: 'away', contentType: 'application/pdf' })
			.replace('127.0.0.1', 'files.elsewhere.test');
		const answer = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				event: 'message.created',
				secret_key: SECRET,
				data: {
					id: 'm_1',
					conversation_id: 'c_1',
					text: 'Two files',
					attachments: [
						{ name: 'contract.pdf', url: home },
						{ name: 'scan.pdf', url: away },
					],
				},
			}),
		});
		expect(answer.status).toBe(200);
		await receiver.settled();
		const [item] = receiver.deliveries('rest')[0].response.workflowData![0];
		expect(item.json.attachmentError).toBeUndefined();
		expect(Buffer.from(item.binary!.attachment_0.data, 'base64').toString()).toBe('home');
		expect(Buffer.from(item.binary!.attachment_1.data, 'base64').toString()).toBe('away');
		expect(rest.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
			['/files/contract.pdf', 'Bearer ***'],
		]);
		expect(elsewhere.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
			['/bucket/scan.pdf', undefined],
		]);
		expect(JSON.stringify(elsewhere.requests)).not.toContain(REST_TOKEN);
	});
});
