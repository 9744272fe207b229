import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DOWNLOAD_ATTACHMENTS_PATH, attachmentOptions } from '../../files/downloadOptions';
import {
	idInput,
	requestOptionsCollection,
	simplifyParameters,
	sortedByName,
} from '../../descriptions/common';
import { requestOptions } from '../../descriptions/options';
import { attachmentsOf } from '../../files/parse';
import { fieldOf, isDataObject } from '../../shared/json';
import { CONVERSATION_MESSAGE_KEYS } from '../../shared/vocabulary/messages';
import { withAttachments } from '../../files/runs';
import { locatorValue, maybeSimplify, recordOf } from '../helpers';
import { conversationSummary } from '../simplify';
import type { OperationClient } from '../types';

export const CONVERSATION_KEYS = ['conversation', 'chat'];

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	...simplifyParameters,
	{
		...requestOptionsCollection,
		options: sortedByName([...attachmentOptions, ...requestOptions]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const id = locatorValue(this, 'conversationId', itemIndex, 'conversation');
	const { answer } = await client.call('getConversation', { id });
	const record = recordOf(this, answer, itemIndex, 'conversation', CONVERSATION_KEYS);
	const records = maybeSimplify(this, itemIndex, [record], conversationSummary);
	// Download Attachments is read first: with it off, none of files/ runs.
	if (this.getNodeParameter(DOWNLOAD_ATTACHMENTS_PATH, itemIndex, false) !== true) return records;
	// The files of all the conversation's messages, in the order the service lists the messages.
	return await withAttachments(this, itemIndex, client, records, () => [
		messagesOf(record).flatMap((message) => attachmentsOf(message)),
	]);
}

function messagesOf(record: IDataObject): IDataObject[] {
	for (const key of CONVERSATION_MESSAGE_KEYS) {
		const messages = fieldOf(record, key);
		if (Array.isArray(messages)) return messages.filter(isDataObject);
	}
	return [];
}
