import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { AttachmentFile, AttachmentUrl } from '../transport/calls';
import { safeFileName } from '../shared/fileNames';
import { maskUrl } from '../shared/quotedUrls';
import { REDACTED } from '../shared/secrets';
import { MAX_ATTACHMENT_BYTES } from '../transport/calls';
import { MAX_FILE_URL_LENGTH } from './urls';

/** Message → Send's attachments: files from the item's binary data, and files by their address. */

export const attachmentFields: INodeProperties[] = [
	{
		displayName: 'Attachments (Binary Properties)',
		name: 'binaryAttachments',
		type: 'string',
		default: '',
		placeholder: 'data, invoice',
		description:
			"Names of the item's binary properties to send as files, separated by commas. Support Board stores each through its upload.php (self-hosted installs; at most 20 MB a file). The REST API has no upload request.",
	},
	{
		displayName: 'Attachment URLs',
		name: 'attachmentUrls',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Attachment',
		description: 'Files already online, sent by their address (Support Board)',
		options: [
			{
				displayName: 'Attachment',
				name: 'attachment',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						description: 'The file name people see',
					},
					{
						displayName: 'URL',
						name: 'url',
						type: 'string',
						default: '',
						placeholder: 'https://example.com/invoice.pdf',
						description: 'Where Support Board and the channel fetch the file (http or https)',
					},
				],
			},
		],
	},
	{
		displayName: 'Deliver to Channel',
		name: 'deliverToChannel',
		type: 'boolean',
		default: true,
		description:
			"Whether a reply in a conversation that came from WhatsApp, Messenger, Instagram, Telegram, Viber, Zalo or LINE is also sent to that channel, as Support Board's admin area does (Support Board only); one in an X or WeChat conversation, or in a WhatsApp, Messenger or Instagram conversation whose customer last wrote more than 24 hours ago (Meta's window), is refused before it is stored. Off: it is only stored in Support Board.",
	},
];

const HTTP_URL = /^https?:\/\/[^\s/]/i;
/** Spaces and control characters: a channel takes the address as it is, and would fail after the store. */
const NOT_IN_URL = /[\s\p{Cc}]/u;

function isHttpUrl(url: string): boolean {
	if (!HTTP_URL.test(url) || NOT_IN_URL.test(url)) return false;
	try {
		return new URL(url).hostname !== '';
	} catch {
		return false;
	}
}

/** A scheme as written at the start of an address (`ftp:`, `file:`). */
const SCHEME = /^[a-z][\d+.a-z-]{0,30}:/i;

/**
 * An address that is no http(s) one, as the refusal quotes it: by the one rule for quoted URLs (its
 * scheme and host: `ftp://alice:pw@host/…` carries a password), or its scheme alone when it has no host.
 */
function shownAddress(url: string): string {
	const shown = maskUrl(url);
	return shown !== REDACTED ? shown : `${SCHEME.exec(url)?.[0] ?? ''}…`;
}

function refuse(ctx: IExecuteFunctions, itemIndex: number, message: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex });
}

/** The stream's bytes, or undefined as soon as they pass `max`: it is read no further. */
async function upTo(
	stream: AsyncIterable<Uint8Array> & { destroy(): void },
	max: number,
): Promise<Buffer | undefined> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		size += chunk.length;
		if (size > max) {
			stream.destroy();
			return undefined;
		}
		chunks.push(Buffer.from(chunk));
	}
	return Buffer.concat(chunks);
}

/**
 * A file's bytes, its size bounded before they are read whole: getBinaryDataBuffer would load a file of
 * any size from n8n's binary data store into memory. Kept in the item, its base64 text tells its size
 * before decoding; kept in the store, it is read as a stream up to the bound.
 */
async function fileBytes(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: string,
	meta: IBinaryData,
): Promise<Buffer> {
	const tooLarge = (size: string) =>
		refuse(
			ctx,
			itemIndex,
			`The file in binary property "${property}" is ${size} bytes; the node sends files of at most ${MAX_ATTACHMENT_BYTES} bytes (20 MB). Give a larger file's address under Attachment URLs instead.`,
		);
	if (meta.id === undefined) {
		const size = Buffer.byteLength(meta.data, 'base64');
		if (size > MAX_ATTACHMENT_BYTES) throw tooLarge(String(size));
		return await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	}
	const bytes = await upTo(await ctx.helpers.getBinaryStream(meta.id), MAX_ATTACHMENT_BYTES);
	if (bytes === undefined) throw tooLarge(`more than ${MAX_ATTACHMENT_BYTES}`);
	return bytes;
}

/** The files named under Attachments (Binary Properties), each at most MAX_ATTACHMENT_BYTES. */
export async function binaryFiles(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: IDataObject,
): Promise<AttachmentFile[]> {
	const names = String(fields.binaryAttachments ?? '')
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
	const files: AttachmentFile[] = [];
	for (const property of names) {
		const meta = ctx.helpers.assertBinaryData(itemIndex, property);
		const bytes = await fileBytes(ctx, itemIndex, property, meta);
		const extension = meta.fileExtension ? `.${meta.fileExtension}` : '';
		files.push({
			name: meta.fileName ?? `${property}${extension}`,
			mimeType: meta.mimeType || 'application/octet-stream',
			bytes,
		});
	}
	return files;
}

/** The rows of Attachment URLs, each an http(s) address. */
export function attachmentUrls(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: IDataObject,
): AttachmentUrl[] {
	const rows = (fields.attachmentUrls as IDataObject | undefined)?.attachment;
	if (!Array.isArray(rows)) return [];
	return (rows as IDataObject[]).map((row, index) => {
		const url = String(row.url ?? '').trim();
		if (url.length > MAX_FILE_URL_LENGTH)
			throw refuse(
				ctx,
				itemIndex,
				`Attachment URLs, row ${index + 1}: the address is longer than ${MAX_FILE_URL_LENGTH} characters`,
			);
		if (!isHttpUrl(url))
			throw refuse(
				ctx,
				itemIndex,
				`Attachment URLs, row ${index + 1}: "${shownAddress(url)}" is no http or https address`,
			);
		// THE file name rule (shared/fileNames), as for an uploaded file: people see this name in the chat.
		return { name: safeFileName(String(row.name ?? ''), url, 'file'), url };
	});
}
