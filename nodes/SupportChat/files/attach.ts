import type {
	IBinaryData,
	IBinaryKeyData,
	IDataObject,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Attachment } from './parse';
import { attachmentsOf, mimeTypeOf } from './parse';
import { safeFileName } from '../shared/fileNames';
import { isDataObject, thrownField } from '../shared/json';
import type { FileRules, FileSource, PlainRequest } from './download';
import { downloadFile } from './download';
import type { FileBudget, RunBounds } from './fileBudget';
import { RunBoundMet } from './fileBudget';
import { FileRefused } from './urls';

/**
 * A message's attachments as binary properties (`attachment_0`, `attachment_1`, … by default), for
 * the action node and both triggers. What may be downloaded is bounded three times: Max Attachment
 * Size per file; Max Attachments per item, counted before the first request so that a list too long
 * fails at once rather than half-way; and the bounds of the whole run (./fileBudget.ts).
 */

export interface AttachmentSettings extends FileRules {
	/** Binary properties are named this plus the attachment's place, from 0. */
	prefix: string;
	/** Most files one input item (or one event) may bring. */
	maxFiles: number;
	/** What one webhook delivery, one poll or one execution downloads in all. */
	run: RunBounds;
}

/** The part of n8n's context a download uses: every context that runs a node's code has it. */
export interface FileContext {
	getNode(): INode;
	helpers: {
		httpRequest: PlainRequest;
		prepareBinaryData(
			binaryData: Buffer,
			filePath?: string,
			mimeType?: string,
		): Promise<IBinaryData>;
	};
}

/** Too many files, found before any download: the user's option to raise. */
class TooManyAttachments extends Error {
	readonly description = 'Raise Options → Max Attachments to download them all.';
}

/**
 * Downloads each list of attachments (one per output item) into its own binary properties, numbered
 * from 0 for each; one set of binary data per list, in order. Throws TooManyAttachments, the run's bound
 * met (RunBoundMet), a FileRefused, or n8n's own error for the first file that cannot be had: no file
 * is left out in silence. Every file takes from `budget`, the run's.
 */
export async function downloadAttachments(
	ctx: FileContext,
	source: FileSource | undefined,
	lists: Attachment[][],
	settings: AttachmentSettings,
	budget: FileBudget,
): Promise<IBinaryKeyData[]> {
	const count = lists.reduce((sum, list) => sum + list.length, 0);
	if (count > settings.maxFiles)
		throw new TooManyAttachments(
			`${count} attachments, more than Max Attachments (${settings.maxFiles})`,
		);
	// An item without files asks nothing of the run, whatever bound the run has met.
	if (count === 0) return lists.map(() => ({}));
	budget.open(count);
	const plain = ctx.helpers;
	const out: IBinaryKeyData[] = [];
	for (const list of lists) {
		const binary: IBinaryKeyData = {};
		for (const [index, attachment] of list.entries()) {
			const asked = budget.next(settings);
			const file = await downloadFile(plain, source, attachment.url, asked).catch(
				(error: unknown) => {
					throw budget.failure(error, asked, settings);
				},
			);
			budget.took(file.bytes.length);
			const fileName = safeFileName(attachment.name, attachment.url, `${settings.prefix}${index}`);
			binary[`${settings.prefix}${index}`] = await ctx.helpers.prepareBinaryData(
				file.bytes,
				fileName,
				mimeTypeOf(file.contentType, fileName),
			);
		}
		out.push(binary);
	}
	return out;
}

/** A download's failure as the action node throws it for its item: the service's, or the user's to change. */
export function attachmentError(
	node: INode,
	error: unknown,
	itemIndex: number,
	mask: (text: string) => string,
): unknown {
	if (error instanceof FileRefused && error.status !== undefined)
		return new NodeApiError(
			node,
			{ status: error.status },
			{
				message: mask(error.message),
				description: error.description,
				httpCode: String(error.status),
				itemIndex,
			},
		);
	if (
		error instanceof FileRefused ||
		error instanceof TooManyAttachments ||
		error instanceof RunBoundMet
	) {
		const message = mask(error.message);
		const failure = new NodeOperationError(node, message, {
			description: error.description,
			itemIndex,
		});
		// Set again: n8n's error trades a message quoting a network code (ECONNREFUSED) for its own
		// "The service refused the connection", which blames the service and names no file.
		failure.message = message;
		return failure;
	}
	return error;
}

/**
 * The triggers' items with the files their event's message names (`json.data`), one event at a time.
 * An event is not lost for a file: an item whose files cannot all be had is handed on without any,
 * with `attachmentError` saying why and what to change (the trigger has no item to fail, and a poll
 * that failed would stop at that event for good). Every event's files take from `budget`, the
 * delivery's or the poll's (whose deadline it keeps): once one of its bounds is met, each later event
 * with files says so and asks for none.
 */
export async function withEventFiles(
	ctx: FileContext,
	source: FileSource | undefined,
	items: INodeExecutionData[],
	settings: AttachmentSettings,
	budget: FileBudget,
): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	for (const item of items) {
		const data = item.json.data;
		const files = isDataObject(data) ? attachmentsOf(data) : [];
		if (files.length === 0) {
			out.push(item);
			continue;
		}
		try {
			const [binary] = await downloadAttachments(ctx, source, [files], settings, budget);
			out.push({ ...item, binary });
		} catch (error) {
			out.push({ ...item, json: { ...item.json, attachmentError: explained(error, source) } });
		}
	}
	return out;
}

/** A download's failure as a trigger's item carries it, masked. */
function explained(error: unknown, source: FileSource | undefined): IDataObject {
	const message = thrownField(error, 'message');
	const description = thrownField(error, 'description');
	const mask = (text: string) => (source ? source.mask(text) : text);
	return {
		message: mask(String(message)),
		description: typeof description === 'string' ? mask(description) : '',
	};
}
