import type { IDataObject } from 'n8n-workflow';

import { getPath, isDataObject } from '../shared/json';
import {
	ATTACHMENT_KEYS,
	ATTACHMENT_NAME_KEYS,
	ATTACHMENT_URL_KEYS,
} from '../shared/vocabulary/messages';

/**
 * What a message says of its files, read as untrusted text: the list of `{ name, url }`, and a MIME
 * type. Pure: the download itself is ./download.ts; the file name rule, which Support Board's upload
 * (../apis) follows too, is ../shared/fileNames.ts.
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
		const [name, url]: unknown[] = entry;
		return typeof url === 'string'
			? { name: typeof name === 'string' ? name : '', url }
			: undefined;
	}
	if (!isDataObject(entry)) return undefined;
	const url = firstOf(entry, ATTACHMENT_URL_KEYS);
	if (typeof url !== 'string') return undefined;
	const name = firstOf(entry, ATTACHMENT_NAME_KEYS);
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
			value = JSON.parse(value);
		} catch {
			return [];
		}
	}
	if (!Array.isArray(value)) return [];
	return value.map(attachmentOf).filter((entry): entry is Attachment => entry !== undefined);
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
