import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DOWNLOAD_ATTACHMENTS_PATH, attachmentOptions } from '../../files/downloadOptions';
import {
	idInput,
	requestOptionsCollection,
	returnAllAndLimit,
	simplifyParameters,
	sortedByName,
} from '../../descriptions/common';
import { requestOptions } from '../../descriptions/options';
import { attachmentsOf } from '../../files/parse';
import { withAttachments } from '../../files/runs';
import { locatorValue, maybeSimplify, readLimit, toRecord } from '../helpers';
import { messageSummary } from '../simplify';
import type { OperationClient } from '../types';

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	...returnAllAndLimit,
	{
		displayName:
			'Support Board answers all messages of a conversation at once: Limit keeps the latest ones, still oldest first. Not offered by the REST API.',
		name: 'limitNotice',
		type: 'notice',
		default: '',
	},
	...simplifyParameters,
	{
		...requestOptionsCollection,
		options: sortedByName([...attachmentOptions, ...requestOptions]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['message'], operation: ['getAll'] } },
	properties,
);

/**
 * A conversation's history, oldest first. The product answers the whole conversation in one call
 * (get-conversation; no function of its Web API pages messages), so Limit saves no request: it keeps
 * the latest messages, which are what a reply needs, in the order they were written.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const conversationId = locatorValue(this, 'conversationId', itemIndex, 'conversation');
	const { answer } = await client.call('getMessages', { conversationId });
	const messages = (Array.isArray(answer) ? answer : []).map((message) => toRecord(message));
	const limit = readLimit(this, itemIndex);
	const kept =
		limit === undefined || messages.length <= limit
			? messages
			: messages.slice(messages.length - limit);
	const records = maybeSimplify(this, itemIndex, kept, messageSummary);
	// Download Attachments is read first: with it off, none of files/ runs.
	if (this.getNodeParameter(DOWNLOAD_ATTACHMENTS_PATH, itemIndex, false) !== true) return records;
	return await withAttachments(this, itemIndex, client, records, () => kept.map(attachmentsOf));
}
