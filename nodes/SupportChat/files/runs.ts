import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPollFunctions,
	IWebhookFunctions,
	IBinaryData,
	INode,
} from 'n8n-workflow';

import { connect } from '../apis';
import { clientSettings, readOptions } from '../transport/readOptions';
import type { FileHome } from '../transport/request';
import type { FileSource, PlainRequest } from './download';
import type { AttachmentSettings } from './downloadOptions';
import { attachmentSettings } from './downloadOptions';
import { FileBudget, RunBoundMet } from './fileBudget';
import type { Attachment } from './parse';
import { nodeCollection } from '../shared/parameters';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { attachmentsOf, mimeTypeOf } from './parse';
import { safeFileName } from '../shared/fileNames';
import { isDataObject, thrownField } from '../shared/json';
import { downloadFile } from './download';
import { FileRefused } from './urls';

/**
 * A message's attachments as binary properties (`attachment_0`, `attachment_1`, … by default), for
 * the action node and both triggers. What may be downloaded is bounded three times: Max Attachment
 * Size per file; Max Attachments per item, counted before the first request so that a list too long
 * fails at once rather than half-way; and the bounds of the whole run (./fileBudget.ts).
 */

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
function attachmentError(
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

/**
 * Each run's door into the files feature: an execution of the action node, a webhook delivery, a
 * poll. Each reads the attachment options, makes the run's budget and hands its items to the attaching above.
 * Their callers read Download Attachments first (DOWNLOAD_ATTACHMENTS_PATH, ./downloadOptions) and
 * come here only when it is on: with it off, none of files/ runs.
 */

/** What a door is given of the client: the service's own origin, built when asked. */
interface FileClient {
	fileHome(): FileHome;
}

/**
 * One budget per execution of the node, over all its input items: n8n gives each execution its own
 * context, shared by the items. It is made at the first item that downloads, with that item's options.
 */
const RUN_BUDGETS = new WeakMap<IExecuteFunctions, FileBudget>();

/**
 * The output records as items with the files their messages name (`lists`, one per record), when
 * Options → Download Attachments is on; the records as they are otherwise, without a request. A file
 * that cannot be had fails the item (the router's continue-on-fail then makes it an error item), and
 * so does an item past a bound of the run: the items before it keep their files.
 */
export async function withAttachments(
	ctx: IExecuteFunctions,
	itemIndex: number,
	client: FileClient,
	records: IDataObject[],
	lists: () => Attachment[][],
): Promise<IDataObject[]> {
	const options = readOptions(ctx, itemIndex);
	const settings = attachmentSettings(options, clientSettings(options).timeoutMs);
	if (settings === undefined) return records;
	let budget = RUN_BUDGETS.get(ctx);
	if (budget === undefined) {
		budget = new FileBudget(settings.run, 'execution');
		RUN_BUDGETS.set(ctx, budget);
	}
	const source = client.fileHome();
	let binaries: IBinaryKeyData[];
	try {
		binaries = await downloadAttachments(ctx, source, lists(), settings, budget);
	} catch (error) {
		throw attachmentError(ctx.getNode(), error, itemIndex, source.mask);
	}
	// An item with `json` is handed on as an item (the router's pairItems), its binary data kept.
	return records.map((json, index) => {
		const binary = binaries[index];
		return (Object.keys(binary).length > 0 ? { json, binary } : { json }) as IDataObject;
	});
}

/**
 * The webhook trigger's items with their messages' files. Run after the delivery was answered: a
 * download never delays the answer the service waits for, so a slow file cannot make it deliver the
 * event again. The delivery's events share one budget of files, bytes and time: however many events a
 * delivery holds, it downloads no more than one run may.
 */
export async function withDeliveryFiles(
	ctx: IWebhookFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const options = nodeCollection(ctx, 'options');
	const settings = attachmentSettings(options, clientSettings(options).timeoutMs);
	if (settings === undefined) return items;
	const budget = new FileBudget(settings.run, 'webhook delivery');
	return await withEventFiles(ctx, await deliverySource(ctx), items, settings, budget);
}

/**
 * The credentials' Base URL and credentials, for the files on its origin. The trigger needs
 * credentials only to verify deliveries: without usable ones every file is on "another host", fetched
 * without any credentials, which gives a file server less, never more.
 */
async function deliverySource(ctx: IWebhookFunctions): Promise<FileSource | undefined> {
	try {
		return (await connect(ctx, 0)).fileHome();
	} catch {
		return undefined;
	}
}

/**
 * A poll's items with their messages' files: the poll's events share one budget of files, bytes and
 * time, whose time ends by the poll's deadline.
 */
export async function withPollFiles(
	ctx: IPollFunctions,
	client: FileClient,
	options: IDataObject,
	items: INodeExecutionData[],
	deadline: number,
): Promise<INodeExecutionData[]> {
	const settings = attachmentSettings(options, clientSettings(options).timeoutMs);
	if (settings === undefined) return items;
	const budget = new FileBudget(settings.run, 'poll', deadline);
	return await withEventFiles(ctx, client.fileHome(), items, settings, budget);
}
