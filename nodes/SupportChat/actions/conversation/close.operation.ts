import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, idInput, requestOptionsCollection } from '../../descriptions/common';
import { extraFields, locatorValue, resultOf } from '../helpers';
import type { OperationClient } from '../types';
import { CONVERSATION_KEYS } from './get.operation';
import { itemCollection } from '../../shared/parameters';

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	bodyFields(),
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['close'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const id = locatorValue(this, 'conversationId', itemIndex, 'conversation');
	const fields = itemCollection(this, 'additionalFields', itemIndex);
	const { answer } = await client.call('closeConversation', {
		id,
		extra: extraFields(this, fields, itemIndex),
	});
	return resultOf(answer, { id, closed: true }, CONVERSATION_KEYS);
}
