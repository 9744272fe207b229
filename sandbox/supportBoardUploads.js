// @ts-check
'use strict';

/**
 * Support Board's include/upload.php: a multipart POST with one field `file` (no token, no login, as
 * on a self-hosted install), stored under `uploads/<d-m-y>/<n>_<slug>` and answered
 * `["success", url]`; an extension outside the product's list is `["success", "extension_error"]`, a
 * request without the field `["error", …]`. The files are served back at their URL.
 */

/** sb_is_allowed_extension's list (include/functions.php, 3.8.7). */
const ALLOWED = new Set(
	'step stl obj rtf 3mf bmp aac webm oga json psd ai jpg jpeg png gif webp pdf doc docx key ppt odt xls xlsx zip rar mp3 m4a ogg wav mp4 mov wmv avi mpg ogv 3gp 3g2 mkv txt ico csv ttf font css scss'.split(
		' ',
	),
);

/**
 * The part named `file` of a multipart body, or undefined.
 * @param {Buffer} body
 * @param {string | undefined} contentType
 */
function filePart(body, contentType) {
	const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
	if (!match) return undefined;
	const delimiter = Buffer.from(`--${match[1] ?? match[2]}`);
	let at = body.indexOf(delimiter);
	while (at !== -1) {
		const start = at + delimiter.length + 2;
		const next = body.indexOf(delimiter, start);
		if (next === -1) return undefined;
		const part = body.subarray(start, next - 2);
		const headEnd = part.indexOf('\r\n\r\n');
		const head = part.subarray(0, headEnd).toString('utf8');
		const name = /name="([^"]*)"/i.exec(head)?.[1];
		const filename = /filename="([^"]*)"/i.exec(head)?.[1];
		if (name === 'file' && filename !== undefined)
			return {
				filename,
				type: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? 'application/octet-stream',
				bytes: part.subarray(headEnd + 4),
			};
		at = next;
	}
	return undefined;
}

/** @param {string} name sb_string_slug, roughly: lower case, spaces to dashes, only letters, digits, . _ - */
const slug = (name) =>
	name
		.trim()
		.toLowerCase()
		.replace(/ /g, '-')
		.replace(/[^\p{L}\p{N}._-]/gu, '');

/** @param {() => string} installUrl */
function createUploads(installUrl) {
	/** @type {Map<string, { type: string, bytes: Buffer }>} path under the install → file */
	const files = new Map();
	/** @type {string[]} every part's `filename` as the multipart header carried it, raw */
	const filenames = [];
	let n = 1000;
	return {
		files,
		filenames,
		reset() {
			files.clear();
			filenames.length = 0;
		},
		/**
		 * The answer's text to an upload.
		 * @param {Buffer} body @param {string | undefined} contentType
		 */
		upload(body, contentType) {
			const part = filePart(body, contentType);
			if (!part)
				return JSON.stringify(['error', 'Support Board Error: Key file in $_FILES not found.']);
			filenames.push(part.filename);
			// PHP's $_FILES name ends at a NUL: the product stores `shell.css\u0000.png` as `shell.css`.
			const filename = part.filename.split('\u0000')[0];
			const extension = (filename.split('.').pop() ?? '').toLowerCase();
			if (!filename.includes('.') || !ALLOWED.has(extension))
				return JSON.stringify(['success', 'extension_error']);
			const now = new Date();
			const day = `${String(now.getUTCDate()).padStart(2, '0')}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-${String(now.getUTCFullYear()).slice(2)}`;
			const path = `/uploads/${day}/${(n += 7)}_${slug(filename)}`;
			files.set(path, { type: part.type, bytes: Buffer.from(part.bytes) });
			return JSON.stringify(['success', `${installUrl()}${path}`]).replace(/\//g, '\\/');
		},
		/** @param {string} path The path under the install. */
		file: (path) => files.get(path),
	};
}

module.exports = { createUploads };
