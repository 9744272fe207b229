import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idInput, requestOptionsCollection } from '../../descriptions/common';
import { locatorValue, resultOf, tagList } from '../helpers';
import type { OperationClient } from '../types';
import { CONVERSATION_KEYS } from './get.operation';

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	{
		displayName: 'Tags',
		name: 'tags',
		type: 'string',
		default: '',
		placeholder: 'e.g. vip, billing',
		description: 'Comma-separated tag names. Empty with Replace removes every tag.',
	},
	{
		displayName: 'Mode',
		name: 'tagsMode',
		type: 'options',
		default: 'add',
		options: [
			{
				name: 'Add',
				value: 'add',
				description: 'Keep the tags the conversation has, and add these',
			},
			{
				name: 'Replace',
				value: 'replace',
				description: 'The conversation has exactly these tags afterwards',
			},
		],
	},
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['updateTags'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const id = locatorValue(this, 'conversationId', itemIndex, 'conversation');
	const tags = tagList(this.getNodeParameter('tags', itemIndex, ''));
	const add = this.getNodeParameter('tagsMode', itemIndex, 'add') !== 'replace';
	const { answer } = await client.call('updateConversationTags', { conversationId: id, tags, add });
	return resultOf(answer, { id, tags, mode: add ? 'add' : 'replace' }, CONVERSATION_KEYS);
}
