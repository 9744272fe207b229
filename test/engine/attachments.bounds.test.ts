/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Download Attachments bounded per run, not only per event (issue 27, class 2): one webhook delivery,
 * one poll and one execution of the action over all its items download at most Max Attachments per
 * Run files and Max Attachment Total per Run bytes (counted as received). Meeting a bound never drops
 * an event: its item carries attachmentError naming the bound; in the action only the item that meets
 * it (and those after it) fails. The sandboxes' request logs count the downloads. Under n8n-core's
 * real WebhookContext, PollContext and engine.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import { SupportChatPollTrigger } from '../../nodes/SupportChat/SupportChatPollTrigger.node';
import { EVENT_CLAIMS } from '../../nodes/SupportChat/shared/claims';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { callPoll, runNode } from '../helpers/engine';
import type { Receiver } from '../helpers/receiver';
import { startReceiver } from '../helpers/receiver';
import { ACTION_TYPE, byId } from '../helpers/supportChat';

const KB = 1024;
const filesBound = (files: number) =>
	new RegExp(
		`^This (webhook delivery|poll|execution)'s downloads reached Max Attachments per Run \\(${files} files\\); this (event|item)'s files were not downloaded$`,
	);
const FILES_BOUND = filesBound(5);
const BYTES_BOUND =
	/^This (webhook delivery|poll|execution)'s downloads reached Max Attachment Total per Run \(1 MB\); this (event|item)'s files were not downloaded$/;

const fileGets = (box: Sandbox) =>
	box.requests.filter((r) => r.method === 'GET' && r.path.includes('/f/'));

/** What the items hold: per item, its files (count) or the bound it met. */
const outcome = (items: INodeExecutionData[]) =>
	items.map((item) =>
		item.binary
			? Object.keys(item.binary).length
			: String((item.json.attachmentError as IDataObject | undefined)?.message ?? 'none'),
	);

describe('one webhook delivery of many events (REST, a batch)', () => {
	const TOKEN = 'rest-bounds-token-71a0';
	const SECRET = 'rest-bounds-secret-3c9e';
	let rest: Sandbox;
	let receiver: Receiver;
	beforeAll(async () => {
		rest = await startSandbox({ token: TOKEN });
		receiver = await startReceiver();
	});
	afterAll(async () => {
		await receiver.close();
		await rest.close();
	});

	/** A delivery of `events` New Message events, each naming `perEvent` files of `size` bytes on the Base URL. */
	async function deliver(
		options: IDataObject,
		events: number,
		perEvent: number,
		size: number,
		file: object = { size, declareLength: false },
	) {
		rest.reset();
		receiver.reset();
		const url = receiver.endpoint('rest', {
			trigger: {
				events: ['*'],
				verification: 'bodyField',
				keyField: 'secret_key',
				options: { downloadAttachments: true, ...options },
			},
			credentials: {
				types: [new SupportChatApi()],
				data: { supportChatApi: { baseUrl: rest.baseUrl, apiToken: TOKEN, webhookSecret: SECRET } },
			},
		});
		const batch = Array.from({ length: events }, (_, e) => ({
			event: 'message.created',
			secret_key: SECRET,
			data: {
				id: `m_${e}`,
				conversation_id: `c_${e}`,
				text: `Event ${e}`,
				attachments: Array.from({ length: perEvent }, (_, f) => ({
					name: `e${e}f${f}.bin`,
					// Sent without a length: the bytes are counted as they arrive.
					url: rest.files.put(`/f/e${e}f${f}.bin`, file),
				})),
			},
		}));
		const answer = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(batch),
		});
		expect(answer.status).toBe(200);
		await receiver.settled();
		const [delivery] = receiver.deliveries('rest');
		return delivery.response.workflowData![0];
	}

	it('30 events of 20 files: at most Max Attachments per Run files, every event still one item', async () => {
		const items = await deliver({ maxAttachmentsPerRun: 50 }, 30, 20, 10);
		// Two events of 20 fit in 50; the third would pass it, and is refused before any of its files.
		expect(fileGets(rest)).toHaveLength(40);
		expect(items.map((item) => item.json.messageId)).toEqual(
			Array.from({ length: 30 }, (_, e) => `m_${e}`),
		);
		const got = outcome(items);
		expect(got.slice(0, 2)).toEqual([20, 20]);
		for (const met of got.slice(2)) expect(met).toMatch(filesBound(50));
		expect(items[2].json.attachmentError).toEqual({
			message: expect.stringMatching(filesBound(50)),
			description: expect.stringContaining('Raise Options → Max Attachments per Run,'),
		});
	});

	it('events within the files bound keep theirs; the rest say which bound they met', async () => {
		const items = await deliver({ maxAttachmentsPerRun: 5 }, 6, 2, 10);
		expect(fileGets(rest)).toHaveLength(4);
		const got = outcome(items);
		expect(got.slice(0, 2)).toEqual([2, 2]);
		expect(got).toHaveLength(6);
		for (const met of got.slice(2)) expect(met).toMatch(FILES_BOUND);
	});

	it('bytes counted as received: no more than Max Attachment Total per Run is kept', async () => {
		const items = await deliver({ maxAttachmentTotalPerRun: 1 }, 5, 2, 300 * KB);
		// 300 KB each: three fit in 1 MB; the fourth may use only the 124 KB left, and is cut there.
		expect(fileGets(rest)).toHaveLength(4);
		const got = outcome(items);
		expect(got.slice(0, 1)).toEqual([2]);
		expect(got).toHaveLength(5);
		for (const met of got.slice(1)) expect(met).toMatch(BYTES_BOUND);
		expect(items[1].binary).toBeUndefined();
		expect(items[1].json.attachmentError).toEqual({
			message: expect.stringMatching(BYTES_BOUND),
			description: expect.stringContaining('Options → Max Attachment Total per Run (MB)'),
		});
	});

	it("the delivery's downloads end by Max Download Time per Run, not one Timeout per file", async () => {
		const started = Date.now();
		// Each file trickles for 5 s; the run has 1 s in all.
		const items = await deliver({ maxDownloadTimePerRun: 1 }, 3, 1, 0, {
			trickleMs: 50,
			body: 'x'.repeat(100),
		});
		expect(Date.now() - started).toBeLessThan(4_000);
		expect(fileGets(rest)).toHaveLength(1);
		expect(outcome(items)).toEqual(
			Array(3).fill(
				"This webhook delivery's downloads reached Max Download Time per Run (1 s); this event's files were not downloaded",
			),
		);
	}, 30_000);
});

describe('one poll (Support Board)', () => {
	const TOKEN = 'sb-bounds-token-55e2';
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({
			api: 'support-board',
			token: TOKEN,
			seed: { users: 2, conversations: 6 },
		});
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => {
		sandbox.reset();
		EVENT_CLAIMS.clear();
	});

	const credentials = () => ({
		types: [new SupportChatApi()],
		data: {
			supportChatApi: {
				api: 'supportBoard',
				baseUrl: sandbox.supportBoard!.installUrl,
				apiToken: TOKEN,
			},
		},
	});

	async function poll(options: IDataObject, staticData?: IDataObject) {
		const result = await callPoll({
			node: {
				type: 'n8n-nodes-support-chat.supportChatPollTrigger',
				parameters: {
					events: ['messageCreated'],
					options: { downloadAttachments: true, ...options },
				},
			},
			nodeType: new SupportChatPollTrigger(),
			credentials: credentials(),
			staticData,
		});
		if (result.error) throw result.error;
		return result;
	}

	/** Six visitors' conversations, each with its first message: their user and conversation ids. */
	async function visitors() {
		const started = [];
		for (let c = 0; c < 6; c++) {
			const { user, conversation } = await sandbox.supportBoard!.visitor.start({
				message: 'Hello',
				email: `visitor-${c}@example.com`,
			});
			const id = (text: string) => String(Number(text.replace(/\D/g, '')));
			started.push({ user: id(user.id), conversation: id(conversation.id) });
		}
		await sandbox.settled();
		return started;
	}

	async function send(from: { user: string; conversation: string }, files: string[][]) {
		await fetch(sandbox.supportBoard!.apiUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				function: 'send-message',
				token: TOKEN,
				user_id: from.user,
				conversation_id: from.conversation,
				message: 'The files',
				attachments: JSON.stringify(files),
			}),
		});
	}

	/** Six events of two files each (`file` serves them) in one poll after the first: their items. */
	async function pollSixEvents(options: IDataObject, file: (name: string) => object) {
		const started = await visitors();
		const first = await poll(options);
		const install = new URL(sandbox.supportBoard!.installUrl).pathname;
		for (let c = 0; c < 6; c++) {
			const files = [0, 1].map((f) => [
				`c${c}f${f}.txt`,
				sandbox.files.put(`${install}/uploads/f/c${c}f${f}.txt`, file(`c${c}f${f}`)),
			]);
			await send(started[c], files);
		}
		sandbox.clearLog();
		const second = await poll(options, first.staticData);
		const items = (second.items ?? []).filter((item) => item.json.event === 'messageCreated');
		expect(items).toHaveLength(6);
		return { items, staticData: second.staticData };
	}

	it('downloads at most Max Attachments per Run files; every event is still one item', async () => {
		const options = { maxAttachmentsPerRun: 5 };
		const { items, staticData } = await pollSixEvents(options, (body) => ({ body }));
		expect(fileGets(sandbox)).toHaveLength(4);
		const got = outcome(items);
		expect(got.slice(0, 2)).toEqual([2, 2]);
		for (const met of got.slice(2)) expect(met).toMatch(FILES_BOUND);
		// A bound met fails nothing: the poll moved on, and the next one emits none of these again.
		sandbox.clearLog();
		const third = await poll(options, staticData);
		expect(third.items ?? []).toEqual([]);
		expect(fileGets(sandbox)).toHaveLength(0);
	});

	it('keeps no more than Max Attachment Total per Run, counted as received', async () => {
		const { items } = await pollSixEvents({ maxAttachmentTotalPerRun: 1 }, () => ({
			size: 300 * KB,
			declareLength: false,
		}));
		// 300 KB each: the fourth file may use only the 124 KB left of 1 MB, and is cut there.
		expect(fileGets(sandbox)).toHaveLength(4);
		const got = outcome(items);
		expect(got[0]).toBe(2);
		for (const met of got.slice(1)) expect(met).toMatch(BYTES_BOUND);
	});
});

describe('one execution of the action over its items (Support Board)', () => {
	const TOKEN = 'sb-bounds-action-token-0b7d';
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({
			api: 'support-board',
			token: TOKEN,
			seed: { users: 2, conversations: 4 },
		});
	});
	afterAll(async () => await sandbox.close());

	/** Each conversation's id, after a message of its own naming two files of 300 KB. */
	async function conversations() {
		sandbox.reset();
		const install = new URL(sandbox.supportBoard!.installUrl).pathname;
		const ids: string[] = [];
		for (let c = 0; c < 4; c++) {
			const id = String(Number(sandbox.state.conversations[c].id.replace(/\D/g, '')));
			const files = [0, 1].map((f) => [
				`c${c}f${f}.bin`,
				sandbox.files.put(`${install}/uploads/f/c${c}f${f}.bin`, { size: 300 * KB }),
			]);
			await fetch(sandbox.supportBoard!.apiUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					function: 'send-message',
					token: TOKEN,
					user_id: -1,
					conversation_id: id,
					message: `Files for ${c}`,
					attachments: JSON.stringify(files),
				}),
			});
			ids.push(id);
		}
		sandbox.clearLog();
		return ids;
	}

	async function getMany(ids: string[], options: IDataObject, continueOnFail: boolean) {
		return await runNode({
			node: {
				name: 'Support Chat',
				type: ACTION_TYPE,
				parameters: {
					resource: 'message',
					operation: 'getAll',
					conversationId: byId('={{ $json.conversation }}'),
					returnAll: true,
					options: { downloadAttachments: true, ...options },
				},
				...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			},
			items: ids.map((conversation) => ({ conversation })),
			nodeTypes: { [ACTION_TYPE]: new SupportChat() },
			credentials: {
				types: [new SupportChatApi()],
				data: {
					supportChatApi: {
						api: 'supportBoard',
						baseUrl: sandbox.supportBoard!.installUrl,
						apiToken: TOKEN,
					},
				},
			},
		});
	}

	it('the items within Max Attachments per Run keep their files; the one that meets it fails, paired', async () => {
		const ids = await conversations();
		const result = await getMany(ids, { maxAttachmentsPerRun: 5 }, true);
		expect(result.status).toBe('success');
		const out = result.output('Support Chat');
		const errors = out.filter((item) => item.json.error !== undefined);
		expect(errors.map((item) => item.pairedItem)).toEqual([{ item: 2 }, { item: 3 }]);
		expect(String(errors[0].json.error)).toMatch(FILES_BOUND);
		const withFiles = out.filter((item) => item.binary);
		expect(withFiles.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(fileGets(sandbox)).toHaveLength(4);
	});

	it("time: only the time spent downloading counts, not each item's own calls between the files", async () => {
		const ids = await conversations();
		// Each item's read of its conversation takes 1.5 s, longer in all than the run's 2 s of downloads.
		sandbox.fault({ path: 'get-conversation', kind: 'slow', delayMs: 1500, times: Infinity });
		const result = await getMany(ids, { maxDownloadTimePerRun: 2 }, false);
		expect(result.status).toBe('success');
		const out = result.output('Support Chat');
		expect(out.filter((item) => item.binary).map((item) => item.pairedItem)).toEqual(
			ids.map((_id, item) => ({ item })),
		);
		expect(fileGets(sandbox)).toHaveLength(ids.length * 2);
	});

	it('bytes: nothing past Max Attachment Total per Run is downloaded, and the error names it', async () => {
		const ids = await conversations();
		const result = await getMany(ids, { maxAttachmentTotalPerRun: 1 }, false);
		expect(result.status).toBe('error');
		const error = result.error('Support Chat')!;
		expect(error.message).toMatch(BYTES_BOUND);
		expect((error as { description?: string }).description).toContain(
			'Options → Max Attachment Total per Run (MB)',
		);
		expect((error as { context?: IDataObject }).context?.itemIndex).toBe(1);
		// Item 0's two files (600 KB), item 1's first (300 KB), then its second, cut at the 124 KB left.
		expect(fileGets(sandbox)).toHaveLength(4);
	});
});
