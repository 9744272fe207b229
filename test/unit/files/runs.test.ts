import type { IBinaryData, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';

import type { AttachmentSettings } from '../../../nodes/SupportChat/files/downloadOptions';
import { downloadAttachments, withEventFiles } from '../../../nodes/SupportChat/files/runs';
import type { FileSource } from '../../../nodes/SupportChat/files/download';
import { FileBudget } from '../../../nodes/SupportChat/files/fileBudget';

const SETTINGS: AttachmentSettings = {
	prefix: 'attachment_',
	maxBytes: 1024,
	maxFiles: 5,
	otherHosts: true,
	timeoutMs: 60_000,
	run: { files: 100, bytes: 1 << 20, ms: 120_000, shown: { megabytes: 1, seconds: 120 } },
};

/** A delivery's budget, or a poll's that ends at `deadline`. */
const budget = (deadline?: number) =>
	deadline === undefined
		? new FileBudget(SETTINGS.run, 'webhook delivery')
		: new FileBudget(SETTINGS.run, 'poll', deadline);

/** A context whose plain requests answer `body` for every URL, recording what was asked. */
function context(body = 'file bytes') {
	const asked: IHttpRequestOptions[] = [];
	const ctx = {
		getNode: () => ({ name: 'Trigger' }) as never,
		helpers: {
			httpRequest: async (options: IHttpRequestOptions) => {
				asked.push(options);
				return {
					statusCode: 200,
					headers: { 'content-type': 'text/plain' },
					body: Buffer.from(body),
				};
			},
			prepareBinaryData: async (bytes: Buffer, fileName?: string, mimeType?: string) =>
				({ data: bytes.toString('base64'), fileName, mimeType }) as IBinaryData,
		},
	};
	return { ctx, asked };
}

const SOURCE: FileSource = {
	baseUrl: 'https://chat.example.com',
	allowHttp: false,
	mask: (text) => text.split('SECRET').join('[redacted]'),
	sendWithCredentials: async () => {
		throw new Error('no file here is on the Base URL');
	},
};

const event = (attachments: unknown): INodeExecutionData => ({
	json: { event: 'messageCreated', data: { message: 'hi', attachments } },
});

it('leaves an event without files as it is, and asks for nothing', async () => {
	const { ctx, asked } = context();
	const items = [event(''), { json: { event: 'userCreated', data: null } }];
	expect(await withEventFiles(ctx, SOURCE, items, SETTINGS, budget())).toEqual(items);
	expect(asked).toEqual([]);
});

it("an item without files still succeeds once the run's bound is met, and asks for nothing", async () => {
	const { ctx, asked } = context();
	const met = new FileBudget({ ...SETTINGS.run, files: 1 }, 'execution');
	const over = [{ name: 'a', url: 'https://cdn.example.net/a' }];
	await expect(downloadAttachments(ctx, SOURCE, [over, over], SETTINGS, met)).rejects.toThrow(
		'Max Attachments per Run',
	);
	expect(await downloadAttachments(ctx, SOURCE, [[], []], SETTINGS, met)).toEqual([{}, {}]);
	expect(asked).toEqual([]);
});

it("puts each event's files on its own item, without credentials on another host", async () => {
	const { ctx, asked } = context();
	const [item] = await withEventFiles(
		ctx,
		SOURCE,
		[event([['a.txt', 'https://cdn.example.net/a.txt']])],
		SETTINGS,
		budget(),
	);
	expect(item.binary).toEqual({
		attachment_0: {
			data: Buffer.from('file bytes').toString('base64'),
			fileName: 'a.txt',
			mimeType: 'text/plain',
		},
	});
	expect(asked.map((options) => [options.url, options.disableFollowRedirect])).toEqual([
		['https://cdn.example.net/a.txt', true],
	]);
});

it('an event whose file cannot be had keeps its item, without files, with attachmentError masked', async () => {
	const { ctx, asked } = context();
	const [item] = await withEventFiles(
		ctx,
		SOURCE,
		[event([['a', 'https://10.1.2.3/SECRET/a']])],
		SETTINGS,
		budget(),
	);
	expect(item.binary).toBeUndefined();
	expect(item.json.attachmentError).toEqual({
		message: 'The attachment https://10.1.2.3/[redacted]/a is at a private or loopback address',
		description: expect.stringContaining("another origin than the Base URL's"),
	});
	expect(item.json.event).toBe('messageCreated');
	expect(asked).toEqual([]);
});

it("once the poll's time has run out, no file is asked for and the event says why", async () => {
	const { ctx, asked } = context();
	const [item] = await withEventFiles(
		ctx,
		SOURCE,
		[event([['a.txt', 'https://cdn.example.net/a.txt']])],
		SETTINGS,
		budget(Date.now() + 500),
	);
	expect(item.json.attachmentError).toEqual({
		message: "The poll's time ran out before this event's files were downloaded",
		description: expect.stringContaining('Poll more often'),
	});
	expect(asked).toEqual([]);
});

it("shortens each file's Timeout to the poll's time left", async () => {
	const { ctx, asked } = context();
	await withEventFiles(
		ctx,
		SOURCE,
		[event([['a.txt', 'https://cdn.example.net/a.txt']])],
		SETTINGS,
		budget(Date.now() + 5_000),
	);
	expect(asked[0].timeout).toBeGreaterThan(3_000);
	expect(asked[0].timeout).toBeLessThanOrEqual(5_000);
});
