import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { attachmentSettings } from '../descriptions/attachments';
import type { Attachment } from '../shared/attachments';
import { attachmentError, downloadAttachments } from '../transport/attachments';
import { FileBudget } from '../transport/fileBudget';
import { clientSettings, readOptions } from '../transport/readOptions';
import type { OperationClient } from './types';

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
	client: OperationClient,
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
	let binaries: IBinaryKeyData[];
	try {
		binaries = await downloadAttachments(ctx, client.files, lists(), settings, budget);
	} catch (error) {
		throw attachmentError(ctx.getNode(), error, itemIndex, client.files.mask);
	}
	// An item with `json` is handed on as an item (the router's pairItems), its binary data kept.
	return records.map((json, index) => {
		const binary = binaries[index];
		return (Object.keys(binary).length > 0 ? { json, binary } : { json }) as IDataObject;
	});
}
