import { NodeApiError } from 'n8n-workflow';

import { safeFileName } from '../../shared/fileNames';
import type { AttachmentFile } from '../../transport/calls';
import type { WirePort } from '../../transport/wire';

/**
 * Files into a self-hosted Support Board through its own upload endpoint, `include/upload.php` beside
 * `include/api.php` (what its chat widget and admin area post to): one multipart field `file`, answered
 * `["success", url]`, `["success", "extension_error"]` for a type its settings do not allow, or
 * `["error", …]` (PHP refused the file, its upload_max_filesize say). It asks for no token and no login:
 * the node sends none, and the address is the Base URL's own, so nothing leaves the service's origin.
 * A cloud account reads its account from the admin area's cookie, which a Web API token is not.
 */

const USE_URLS =
	'Attachment URLs work instead: put the file where Support Board and the channel can fetch it, and give its address under Additional Fields → Attachment URLs.';

const uploadUrl = (port: WirePort): string =>
	port.resolveUrl({ path: '' }).replace(/api\.php$/i, 'upload.php');

/** A boundary the file does not contain (RFC 2046 §5.1.1); tried afresh in the unlikely case it does. */
function boundaryFor(bytes: Buffer): string {
	for (;;) {
		const boundary = `----SupportChat${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
		if (!bytes.includes(boundary)) return boundary;
	}
}

function multipart(file: AttachmentFile): { bytes: Buffer; contentType: string } {
	const boundary = boundaryFor(file.bytes);
	const head = Buffer.from(
		`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.mimeType.replace(/[\r\n]/g, '')}\r\n\r\n`,
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	return {
		bytes: Buffer.concat([head, file.bytes, tail]),
		contentType: `multipart/form-data; boundary=${boundary}`,
	};
}

/** What upload.php answered, as the file's URL or the reason it gave none. */
function uploadedUrl(port: WirePort, file: AttachmentFile, body: unknown): string {
	const [state, value]: unknown[] = Array.isArray(body) ? body : [];
	if (state === 'success' && typeof value === 'string' && /^https?:\/\//i.test(value)) return value;
	if (state === 'success' && value === 'extension_error')
		throw port.error(200, `Support Board does not take files like "${file.name}" (its type)`, {
			description: `Its settings allow a list of file extensions. ${USE_URLS}`,
		});
	throw port.error(200, `Support Board did not take the file "${file.name}"`, {
		description: `Its upload.php answered without a file address (a file larger than its PHP's upload_max_filesize, say). ${USE_URLS}`,
		body,
	});
}

/**
 * One file, under THE file name rule (shared/fileNames): what the multipart header carries, what the
 * message shows and what errors quote. Its `filename="…"` is then a quoted-string without a quote, a
 * backslash or a line break; and no NUL, which PHP would take as the name's end (`shell.css\u0000.png`
 * stored as `shell.css`), nor a bidi override, which would show another extension than the real one.
 */
async function uploadOne(port: WirePort, given: AttachmentFile): Promise<[string, string]> {
	const file = { ...given, name: safeFileName(given.name, '', 'file') };
	let body: unknown;
	try {
		({ body } = await port.request({
			method: 'POST',
			url: uploadUrl(port),
			upload: multipart(file),
			label: 'upload.php',
			read: false,
			hint: () =>
				`Support Board Cloud takes uploads only from its admin area, and an install may block upload.php. ${USE_URLS}`,
		}));
	} catch (error) {
		const api = error instanceof NodeApiError ? error : undefined;
		throw port.error(
			Number(api?.httpCode) || undefined,
			`Support Board refused the upload of "${file.name}": ${error instanceof Error ? error.message : String(error)}`,
			{ description: `${api?.description ?? ''} ${USE_URLS}`.trim() },
		);
	}
	return [file.name, uploadedUrl(port, file, body)];
}

/** Each file uploaded in turn, as send-message takes attachments: `[name, url]` pairs. */
export async function uploadFiles(
	port: WirePort,
	files: AttachmentFile[],
): Promise<Array<[string, string]>> {
	const pairs: Array<[string, string]> = [];
	for (const file of files) pairs.push(await uploadOne(port, file));
	return pairs;
}
