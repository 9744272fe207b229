import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { attachmentSettings } from '../descriptions/attachments';
import type { Attachment } from '../shared/attachments';
import { attachmentError, downloadAttachments } from '../transport/attachments';
import { clientSettings, readOptions } from './readOptions';
import type { OperationClient } from './types';

/**
 * The output records as items with the files their messages name (`lists`, one per record), when
 * Options → Download Attachments is on; the records as they are otherwise, without a request. A file
 * that cannot be had fails the item (the router's continue-on-fail then makes it an error item).
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
	let binaries: IBinaryKeyData[];
	try {
		binaries = await downloadAttachments(ctx, client.files, lists(), settings);
	} catch (error) {
		throw attachmentError(ctx.getNode(), error, itemIndex, client.files.mask);
	}
	// An item with `json` is handed on as an item (the router's pairItems), its binary data kept.
	return records.map((json, index) => {
		const binary = binaries[index];
		return (Object.keys(binary).length > 0 ? { json, binary } : { json }) as IDataObject;
	});
}
