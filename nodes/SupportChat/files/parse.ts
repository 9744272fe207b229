import type { IDataObject } from 'n8n-workflow';

import { getPath, isRecord } from './json';
import { ATTACHMENT_KEYS, ATTACHMENT_NAME_KEYS, ATTACHMENT_URL_KEYS } from './vocabulary/messages';

/**
 * What a message says of its files, read as untrusted text: the list of `{ name, url }`, a file name fit
 * for a binary property, and a MIME type. Pure: the download itself is transport/download.ts.
 */

/** The first of several names a record may give the same field, if it is set. */
function firstOf(record: IDataObject, paths: readonly string[]): unknown {
	for (const path of paths) {
		const value = getPath(record, path);
		if (value !== undefined && value !== null && value !== '') return value;
	}
	return undefined;
}

/** A file a message names, as the message names it. */
export interface Attachment {
	name: string;
	url: string;
}

/** One attachment as `{ name, url }`: Support Board's pair `[name, url]`, or a record under any of the usual names. */
function attachmentOf(entry: unknown): Attachment | undefined {
	if (Array.isArray(entry)) {
		const [name, url] = entry as unknown[];
		return typeof url === 'string'
			? { name: typeof name === 'string' ? name : '', url }
			: undefined;
	}
	if (!isRecord(entry)) return undefined;
	const url = firstOf(entry as IDataObject, ATTACHMENT_URL_KEYS);
	if (typeof url !== 'string') return undefined;
	const name = firstOf(entry as IDataObject, ATTACHMENT_NAME_KEYS);
	return { name: typeof name === 'string' ? name : '', url };
}

/**
 * A message's attachments as a list of `{ name, url }`. Support Board keeps them as JSON text, `""`
 * when there are none; text that is no JSON list (the product writes a quote in a file name unescaped)
 * gives none rather than a guess.
 */
export function attachmentsOf(record: IDataObject): Attachment[] {
	let value = firstOf(record, ATTACHMENT_KEYS);
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value) as unknown;
		} catch {
			return [];
		}
	}
	if (!Array.isArray(value)) return [];
	return value.map(attachmentOf).filter((entry): entry is Attachment => entry !== undefined);
}

/** Longer file names are cut, their extension kept: file systems take 255 bytes. */
const MAX_FILE_NAME_LENGTH = 120;
const MAX_EXTENSION_LENGTH = 10;

/**
 * What no file name may hold, either way: control characters (C0, DEL, C1); Unicode format characters
 * (bidi embeddings, overrides and isolates, which show `report\u202Efdp.exe` as `reportexe.pdf`; zero
 * widths, the soft hyphen, the byte order mark); every other character Unicode says not to show
 * (Default_Ignorable_Code_Point: the combining grapheme joiner, variation selectors, Hangul fillers),
 * so that no two names that look alike differ; lone surrogates; line and paragraph separators; path
 * separators; and what Windows refuses, the quote and the backslash among them, which would also end
 * or escape a multipart header's `filename="…"`. One character class: linear.
 */
const UNSAFE_IN_NAME = /[\p{Cc}\p{Cf}\p{DI}\p{Cs}\p{Zl}\p{Zp}<>:"/\\|?*]/gu;

/**
 * THE file name rule, for a download's binary property `fileName` and for the name an upload sends in
 * its multipart header (and shows in the message): the last part of what is named (else of the URL's
 * path), each character of UNSAFE_IN_NAME as `_`, not `.` or `..`, cut to MAX_FILE_NAME_LENGTH with
 * its extension kept; `fallback` when nothing is left. A character is replaced, not the file refused:
 * a name copied from a web page carries a zero width or a soft hyphen unseen, and macOS allows `:`.
 */
export function safeFileName(name: string, url: string, fallback: string): string {
	const fromUrl = () => {
		try {
			const path = new URL(url).pathname;
			return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
		} catch {
			return '';
		}
	};
	// The end of a long name is kept: the last path part and the extension are there.
	const typed = (name.trim() || fromUrl()).slice(-1000);
	const last = typed.slice(Math.max(typed.lastIndexOf('/'), typed.lastIndexOf('\\')) + 1);
	let clean = last.replace(UNSAFE_IN_NAME, '_').trim();
	while (clean.startsWith('.')) clean = clean.slice(1);
	while (clean.endsWith('.') || clean.endsWith(' ')) clean = clean.slice(0, -1);
	if (clean === '') return fallback;
	if (clean.length <= MAX_FILE_NAME_LENGTH) return clean;
	const dot = clean.lastIndexOf('.');
	const extension =
		dot > 0 && clean.length - dot <= MAX_EXTENSION_LENGTH + 1 ? clean.slice(dot) : '';
	// A cut between the two halves of a surrogate pair would leave half a character.
	const head = clean
		.slice(0, MAX_FILE_NAME_LENGTH - extension.length)
		.replace(/[\uD800-\uDBFF]$/, '');
	return head + extension;
}

/** The MIME types of the extensions chat files usually have; others go by the answer or as bytes. */
const MIME_BY_EXTENSION = new Map<string, string>([
	['csv', 'text/csv'],
	['doc', 'application/msword'],
	['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
	['gif', 'image/gif'],
	['jpeg', 'image/jpeg'],
	['jpg', 'image/jpeg'],
	['json', 'application/json'],
	['m4a', 'audio/mp4'],
	['mov', 'video/quicktime'],
	['mp3', 'audio/mpeg'],
	['mp4', 'video/mp4'],
	['oga', 'audio/ogg'],
	['ogg', 'audio/ogg'],
	['pdf', 'application/pdf'],
	['png', 'image/png'],
	['svg', 'image/svg+xml'],
	['txt', 'text/plain'],
	['wav', 'audio/wav'],
	['webm', 'video/webm'],
	['webp', 'image/webp'],
	['xls', 'application/vnd.ms-excel'],
	['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
	['zip', 'application/zip'],
]);

const UNKNOWN_MIME_TYPE = 'application/octet-stream';
/** A longer Content-Type is no MIME type anyone sends: it is not read. */
const MAX_CONTENT_TYPE_LENGTH = 200;
const MIME_TYPE = /^[a-z0-9][\w.+-]{0,63}\/[a-z0-9][\w.+-]{0,126}$/;

/**
 * The file's MIME type: the answer's Content-Type when it names one (without its parameters), else the
 * one of the file name's extension, else application/octet-stream. A generic octet-stream answer
 * yields to the extension, which says more.
 */
export function mimeTypeOf(contentType: string | undefined, fileName: string): string {
	const typed = (contentType ?? '').slice(0, MAX_CONTENT_TYPE_LENGTH);
	const semicolon = typed.indexOf(';');
	const mime = (semicolon === -1 ? typed : typed.slice(0, semicolon)).trim().toLowerCase();
	if (MIME_TYPE.test(mime) && mime !== UNKNOWN_MIME_TYPE) return mime;
	const dot = fileName.lastIndexOf('.');
	const extension = dot === -1 ? '' : fileName.slice(dot + 1).toLowerCase();
	return MIME_BY_EXTENSION.get(extension) ?? (MIME_TYPE.test(mime) ? mime : UNKNOWN_MIME_TYPE);
}
