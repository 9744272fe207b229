import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	requestOptionsCollection,
	returnAllAndLimit,
	simplifyParameters,
} from '../../descriptions/common';
import { filledByModel } from '../../descriptions/tool';
import { maybeSimplify, readLimit, requiredText, firstRecords } from '../helpers';
import { conversationSummary } from '../simplify';
import type { OperationClient } from '../types';

const properties: INodeProperties[] = [
	...filledByModel(
		{
			displayName: 'Search Text',
			name: 'searchText',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. refund',
			description:
				"What to look for: Support Board matches the messages' text and attachments, the senders' names and e-mails, the subject and tags, and a number as a conversation, department or agent ID. Each conversation comes once, through a message that matches, newest first.",
		},
		'conversationSearch',
	),
	...returnAllAndLimit,
	...simplifyParameters,
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['search'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const search = requiredText(this, 'searchText', itemIndex, 'Search Text');
	const { answer } = await client.call('searchConversations', { search });
	return maybeSimplify(
		this,
		itemIndex,
		firstRecords(answer, readLimit(this, itemIndex)),
		conversationSummary,
	);
}
