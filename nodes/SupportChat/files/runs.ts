import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { connect } from '../apis';
import { clientSettings, readOptions } from '../transport/readOptions';
import type { FileHome } from '../transport/request';
import { attachmentError, downloadAttachments, withEventFiles } from './attach';
import type { FileSource } from './download';
import { attachmentSettings } from './downloadOptions';
import { FileBudget } from './fileBudget';
import type { Attachment } from './parse';
import { nodeCollection } from '../shared/parameters';

/**
 * Each run's door into the files feature: an execution of the action node, a webhook delivery, a
 * poll. Each reads the attachment options, makes the run's budget and hands its items to ./attach.
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
