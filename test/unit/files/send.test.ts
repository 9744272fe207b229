import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { attachmentUrls, binaryFiles } from '../../../nodes/SupportChat/files/send';
import { MAX_ATTACHMENT_BYTES } from '../../../nodes/SupportChat/transport/calls';

const MB = 1024 * 1024;

/**
 * A context whose binary property `file` is `meta`; its store hands out `stream`. getBinaryDataBuffer
 * loads a stored file whole, whatever its size: it is counted, and reads what the item holds.
 */
function context(meta: Record<string, unknown>, stream?: () => AsyncGenerator<Buffer>) {
	const calls = { buffer: 0, streamed: 0 };
	const ctx = {
		getNode: () => ({ name: 'Support Chat', type: 'x', typeVersion: 1, position: [0, 0] }),
		helpers: {
			assertBinaryData: () => ({ mimeType: 'application/pdf', fileName: 'a.pdf', ...meta }),
			getBinaryDataBuffer: async () => {
				calls.buffer++;
				if (meta.id !== undefined) throw new Error('read whole');
				return Buffer.from(String(meta.data), 'base64');
			},
			getBinaryStream: async () => {
				const source = stream!();
				return Object.assign(
					(async function* () {
						for await (const chunk of source) {
							calls.streamed += chunk.length;
							yield chunk;
						}
					})(),
					{ destroy: () => undefined },
				);
			},
		},
	} as unknown as IExecuteFunctions;
	return { ctx, calls };
}

/** A stored file that never ends, 1 MB a chunk. */
async function* endless(): AsyncGenerator<Buffer> {
	for (;;) yield Buffer.alloc(MB);
}

describe('binaryFiles: the 20 MB bound holds before a file is read whole', () => {
	it('a file in the binary data store is read no further than the bound', async () => {
		const { ctx, calls } = context({ id: 'filesystem-v2:big', data: 'filesystem-v2' }, endless);
		await expect(binaryFiles(ctx, 0, { binaryAttachments: 'file' })).rejects.toThrow(
			new NodeOperationError(
				ctx.getNode(),
				`The file in binary property "file" is more than ${MAX_ATTACHMENT_BYTES} bytes; the node sends files of at most ${MAX_ATTACHMENT_BYTES} bytes (20 MB). Give a larger file's address under Attachment URLs instead.`,
			),
		);
		expect(calls.buffer).toBe(0);
		expect(calls.streamed).toBeLessThanOrEqual(MAX_ATTACHMENT_BYTES + MB);
	});

	it('a stored file within the bound is sent whole', async () => {
		async function* small() {
			yield Buffer.from('%PDF-');
			yield Buffer.from('1.7');
		}
		const { ctx } = context({ id: 'filesystem-v2:small', data: 'filesystem-v2' }, small);
		const [file] = await binaryFiles(ctx, 0, { binaryAttachments: 'file' });
		expect(file.bytes.toString()).toBe('%PDF-1.7');
		expect(file).toMatchObject({ name: 'a.pdf', mimeType: 'application/pdf' });
	});

	it('a file kept in the item is measured by its base64 text, not decoded when too large', async () => {
		const data = Buffer.alloc(MAX_ATTACHMENT_BYTES + 1).toString('base64');
		const { ctx, calls } = context({ data });
		await expect(binaryFiles(ctx, 0, { binaryAttachments: 'file' })).rejects.toThrow(
			`is ${MAX_ATTACHMENT_BYTES + 1} bytes`,
		);
		expect(calls.buffer).toBe(0);
	});

	it('a file kept in the item of exactly 20 MB is sent', async () => {
		const data = Buffer.alloc(MAX_ATTACHMENT_BYTES, 1).toString('base64');
		const { ctx } = context({ data });
		const [file] = await binaryFiles(ctx, 0, { binaryAttachments: 'file' });
		expect(file.bytes.length).toBe(MAX_ATTACHMENT_BYTES);
	});
});

describe('attachmentUrls: addresses a channel can fetch, checked before any request', () => {
	const { ctx } = context({});
	const rows = (url: string) => ({ attachmentUrls: { attachment: [{ name: 'f', url }] } });

	it.each([
		['https://files.example.com/a b.pdf', 'a space'],
		['https://files.example.com/a.pdf\u0000.exe', 'a control character'],
		['https://files.example.com/a\t.pdf', 'a tab inside'],
		['https://[bad/a.pdf', 'no host a URL parser reads'],
		['javascript:alert(1)//https://x', 'another scheme'],
	])('%j (%s) is refused', (url) => {
		expect(() => attachmentUrls(ctx, 0, rows(url))).toThrow('is no http or https address');
	});

	it('an address longer than 2048 characters is refused, and not quoted whole', () => {
		const url = `https://files.example.com/${'a'.repeat(3000)}.pdf`;
		expect(() => attachmentUrls(ctx, 0, rows(url))).toThrow(
			'Attachment URLs, row 1: the address is longer than 2048 characters',
		);
	});

	it('an http(s) address is sent as given', () => {
		const url = 'https://files.example.com/terms.pdf?v=2';
		expect(attachmentUrls(ctx, 0, rows(url))).toEqual([{ name: 'f', url }]);
	});
});

describe('binaryFiles and attachmentUrls: the names sent', () => {
	it('a file without a name is named by its property and extension, typed octet-stream without a type', async () => {
		const { ctx } = context({
			data: Buffer.from('x').toString('base64'),
			fileName: undefined,
			fileExtension: 'pdf',
			mimeType: '',
		});
		const [file] = await binaryFiles(ctx, 0, { binaryAttachments: ' file , ' });
		expect(file).toMatchObject({ name: 'file.pdf', mimeType: 'application/octet-stream' });
	});

	it('no rows: no URLs; a row without a name is named by its address', () => {
		const { ctx } = context({});
		expect(attachmentUrls(ctx, 0, {})).toEqual([]);
		expect(
			attachmentUrls(ctx, 0, {
				attachmentUrls: {
					attachment: [
						{ url: 'https://files.example.com/terms.pdf?v=2' },
						{ name: ' ', url: 'https://files.example.com/' },
					],
				},
			}),
		).toEqual([
			{ name: 'terms.pdf', url: 'https://files.example.com/terms.pdf?v=2' },
			// THE file name rule: an address is no file name (its slashes and colon), so the fallback.
			{ name: 'file', url: 'https://files.example.com/' },
		]);
	});

	it('a name is cleaned by THE file name rule, as an uploaded one is', () => {
		const { ctx } = context({});
		const url = 'https://files.example.com/x';
		expect(
			attachmentUrls(ctx, 0, {
				attachmentUrls: {
					attachment: [
						{ name: 'report\u202Efdp.exe', url },
						{ name: 'shell.css\u0000.png', url },
						{ name: 'a\u200Bb\u2028c.pdf', url },
					],
				},
			}).map((row) => row.name),
		).toEqual(['report_fdp.exe', 'shell.css_.png', 'a_b_c.pdf']);
	});
});
