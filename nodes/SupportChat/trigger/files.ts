import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { clientSettings } from '../transport/readOptions';
import { attachmentSettings } from '../descriptions/attachments';
import { withEventFiles } from '../transport/attachments';
import { connect } from '../apis';
import type { FileSource } from '../transport/download';
import { FileBudget } from '../transport/fileBudget';

/**
 * The webhook trigger's items with their messages' files, when Options → Download Attachments is on
 * (transport/attachments.ts). Run after the delivery was answered: a download never delays the answer
 * the service waits for, so a slow file cannot make it deliver the event again. The delivery's events
 * share one budget of files, bytes and time: however many events a delivery holds, it downloads no
 * more than one run may.
 */
export async function withDeliveryFiles(
	ctx: IWebhookFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const settings = attachmentSettings(options, clientSettings(options).timeoutMs);
	if (settings === undefined) return items;
	const budget = new FileBudget(settings.run, 'webhook delivery');
	return await withEventFiles(ctx, await fileSource(ctx), items, settings, budget);
}

/**
 * The credentials' Base URL and credentials, for the files on its origin. The trigger needs
 * credentials only to verify deliveries: without usable ones every file is on "another host", fetched
 * without any credentials, which gives a file server less, never more.
 */
async function fileSource(ctx: IWebhookFunctions): Promise<FileSource | undefined> {
	try {
		return (await connect(ctx, 0)).files;
	} catch {
		return undefined;
	}
}
