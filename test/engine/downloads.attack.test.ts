/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Issue 27, classes 1 and 2, tried by an attacker after the fixes: variants the issue did not write.
 * A file host controls its DNS and its answers, the headers included; names resolve through the
 * make-believe network (test/helpers/network.ts).
 */
import net from 'node:net';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { N8N_MAJOR, runNode } from '../helpers/engine';
import type { FakeNetwork } from '../helpers/network';
import { fakeNetwork } from '../helpers/network';
import { ACTION_TYPE, byId } from '../helpers/supportChat';

const TOKEN = 'sb-admin-token-attack-4d1c0e';
const PUBLIC_A = '93.184.215.14';
let sandbox: Sandbox;
let network: FakeNetwork;
let trickle: net.Server;
const sockets = new Set<net.Socket>();

const resolving = N8N_MAJOR >= 2 ? it : it.skip;

beforeAll(async () => {
	sandbox = await startSandbox({
		api: 'support-board',
		token: TOKEN,
		seed: { users: 1, conversations: 1 },
	});
	// A file host that sends its headers one line at a time, each well within any idle timeout, for 8 s.
	trickle = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('error', () => undefined);
		socket.on('close', () => sockets.delete(socket));
		socket.write('HTTP/1.1 200 OK\r\n');
		let lines = 0;
		const tick = setInterval(() => {
			if (socket.destroyed) return clearInterval(tick);
			if (++lines < 40) return void socket.write(`X-Line-${lines}: trickle\r\n`);
			clearInterval(tick);
			socket.end('Content-Type: text/plain\r\nContent-Length: 4\r\nConnection: close\r\n\r\nlate');
		}, 200);
	});
	await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
	network = fakeNetwork();
});
afterAll(async () => {
	network.restore();
	for (const socket of sockets) socket.destroy();
	await new Promise((resolve) => trickle.close(resolve));
	await sandbox.close();
});
beforeEach(() => {
	network.reset();
	sandbox.reset();
});

async function webApi(fn: string, args: IDataObject): Promise<unknown> {
	const res = await fetch(sandbox.supportBoard!.apiUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ function: fn, token: TOKEN, ...args }),
	});
	return ((await res.json()) as { response: unknown }).response;
}

async function conversationWith(attachments: string[][]): Promise<string> {
	const conversationId = String(Number(sandbox.state.conversations[0].id.replace(/\D/g, '')));
	await webApi('send-message', {
		user_id: -1,
		conversation_id: conversationId,
		message: 'Files',
		attachments: JSON.stringify(attachments),
	});
	sandbox.clearLog();
	network.connections.length = 0;
	return conversationId;
}

async function run(parameters: INodeParameters) {
	return await runNode({
		node: { name: 'Support Chat', type: ACTION_TYPE, parameters },
		nodeTypes: { [ACTION_TYPE]: new SupportChat() },
		credentials: {
			types: [new SupportChatApi()],
			data: {
				supportChatApi: {
					api: 'supportBoard',
					baseUrl: sandbox.supportBoard!.installUrl,
					apiToken: TOKEN,
					allowHttp: true,
				},
			},
		},
	});
}

async function getMany(attachments: string[][], options: IDataObject) {
	const id = await conversationWith(attachments);
	return await run({
		resource: 'message',
		operation: 'getAll',
		conversationId: byId(id),
		returnAll: true,
		options: { downloadAttachments: true, attachmentsFromOtherHosts: true, ...options },
	});
}

describe("time: a file host's name server cannot hold a run", () => {
	// A file host answers its own name's DNS queries: it may answer slowly. n8n's lookup has no time
	// bound of its own, so the node's bounds must cover the lookup too.
	const stalled = () => {
		network.resolve('slow-dns.files.test', [PUBLIC_A]);
		network.stall('slow-dns.files.test', 6000);
		network.route(PUBLIC_A, (trickle.address() as net.AddressInfo).port);
		return [['slow.txt', 'http://slow-dns.files.test/slow.txt']];
	};

	resolving(
		'one file ends by its Timeout, however long its name takes to resolve',
		async () => {
			const started = Date.now();
			const result = await getMany(stalled(), { timeout: 1 });
			expect(result.status).toBe('error');
			expect(Date.now() - started).toBeLessThan(4000);
		},
		20000,
	);

	resolving(
		'the run ends by Max Download Time per Run, saying so',
		async () => {
			const started = Date.now();
			const result = await getMany(stalled(), { timeout: 60, maxDownloadTimePerRun: 1 });
			expect(result.status).toBe('error');
			expect(result.error('Support Chat')!.message).toMatch(/Max Download Time per Run/);
			expect(Date.now() - started).toBeLessThan(4000);
		},
		20000,
	);
});

describe('addresses: the IPv4-translated form (::ffff:0:a.b.c.d) and the IPv6 ranges not reachable worldwide', () => {
	it.each([
		['http://[::ffff:0:7f00:1]/x'],
		['http://[::ffff:0:a00:1]/x'],
		['http://[3fff::1]/x'],
		['http://[2001:10::1]/x'],
	])('%s, as written, is refused without a connection', async (url) => {
		const result = await getMany([['x', url]], {});
		expect(result.status).toBe('error');
		expect(result.error('Support Chat')!.message).toMatch(/is at a private or loopback address/);
		expect(network.connections.filter((c) => c.host !== '127.0.0.1')).toEqual([]);
	});

	resolving(
		'a name that resolves to ::ffff:0:a00:1 (10.0.0.1 through a translator) is refused',
		async () => {
			network.resolve('siit.evil.test', ['::ffff:0:a00:1']);
			const result = await getMany([['x', 'https://siit.evil.test/x']], {});
			expect(result.status).toBe('error');
			expect(result.error('Support Chat')!.message).toMatch(
				/could not be downloaded: no answer from its server/,
			);
			expect(network.connections.filter((c) => c.host !== '127.0.0.1')).toEqual([]);
		},
	);
});

describe('no error tells what a name resolves to', () => {
	resolving(
		'a name inside the network (resolving to 10.0.0.7), a name that does not resolve, and a closed port read the same',
		async () => {
			network.resolve('jenkins.corp.test', ['10.0.0.7']);
			network.resolve('closed.files.test', [PUBLIC_A]);
			const text = async (host: string) => {
				sandbox.reset();
				const result = await getMany([['x', `https://${host}/x`]], {});
				expect(result.status).toBe('error');
				const error = result.error('Support Chat')!;
				return `${error.message} | ${error.description}`.replace(host, 'HOST');
			};
			const inside = await text('jenkins.corp.test');
			const nowhere = await text('no-such-name.invalid');
			const closed = await text('closed.files.test');
			expect(inside).toBe(nowhere);
			expect(inside).toBe(closed);
			expect(network.connections.filter((c) => c.host === '10.0.0.7')).toEqual([]);
		},
		20000,
	);
});

describe("the Base URL's machine is exempt only at its origin, however it is named", () => {
	// The service's host on a public address: its other ports are other services of that machine
	// (a container API, n8n itself), which a firewall may keep from the internet but not from itself.
	const onPublicHost = async (url: string) => {
		const port = new URL(sandbox.origin).port;
		network.resolve('sb.public.test', [PUBLIC_A]);
		network.resolve('alias.public.test', [PUBLIC_A]);
		network.route(PUBLIC_A, Number(port));
		const id = await conversationWith([['x', url]]);
		return await runNode({
			node: {
				name: 'Support Chat',
				type: ACTION_TYPE,
				parameters: {
					resource: 'message',
					operation: 'getAll',
					conversationId: byId(id),
					returnAll: true,
					options: { downloadAttachments: true, attachmentsFromOtherHosts: true },
				},
			},
			nodeTypes: { [ACTION_TYPE]: new SupportChat() },
			credentials: {
				types: [new SupportChatApi()],
				data: {
					supportChatApi: {
						api: 'supportBoard',
						baseUrl: sandbox.supportBoard!.installUrl.replace('127.0.0.1', 'sb.public.test'),
						apiToken: TOKEN,
						allowHttp: true,
					},
				},
			},
		});
	};

	it('another port of it, by its own name, is refused without a connection', async () => {
		const result = await onPublicHost('http://sb.public.test:2375/containers/json');
		expect(result.status).toBe('error');
		expect(result.error('Support Chat')!.message).toMatch(/another port of the Base URL's host/);
		expect(network.connections.filter((c) => c.port === 2375)).toEqual([]);
	});

	// Where n8n resolves names (2.x): the Base URL's own name is resolved to find its machine's addresses.
	resolving('another port of it, by its address, is refused without a connection', async () => {
		const result = await onPublicHost(`http://${PUBLIC_A}:2375/containers/json`);
		expect(result.status).toBe('error');
		expect(result.error('Support Chat')!.message).toMatch(/another port of the Base URL's host/);
		expect(network.connections.filter((c) => c.port === 2375)).toEqual([]);
	});

	resolving('another port of it, by another name that resolves to it, is refused', async () => {
		const result = await onPublicHost('http://alias.public.test:2375/containers/json');
		expect(result.status).toBe('error');
		expect(result.error('Support Chat')!.message).toMatch(/another port of the Base URL's host/);
		expect(network.connections.filter((c) => c.port === 2375)).toEqual([]);
	});
});
