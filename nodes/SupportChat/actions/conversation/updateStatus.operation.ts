import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, idInput, requestOptionsCollection } from '../../descriptions/common';
import { extraFields, locatorValue, requiredText, resultOf } from '../helpers';
import type { OperationClient } from '../types';
import { CONVERSATION_KEYS } from './get.operation';
import { itemCollection } from '../../shared/parameters';

/** The Status options: their values are public API (saved workflows store them), never a product's code. */
const STATUS_OPTIONS = [
	{
		name: 'Active',
		value: 'active',
		description: 'Open, in the inbox (reopens an archived conversation)',
	},
	{ name: 'Pending', value: 'pending', description: 'Waiting for an agent to answer' },
	{
		name: 'Waiting for User',
		value: 'waitingForUser',
		description: 'Answered, waiting for the user',
	},
];

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		default: 'active',
		description: 'The state to put the conversation in. To archive it, use Close.',
		options: STATUS_OPTIONS,
	},
	bodyFields(),
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['updateStatus'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const id = locatorValue(this, 'conversationId', itemIndex, 'conversation');
	const status = requiredText(this, 'status', itemIndex, 'Status');
	const fields = itemCollection(this, 'additionalFields', itemIndex);
	const { answer, sent } = await client.call('updateConversationStatus', {
		conversationId: id,
		status,
		extra: extraFields(this, fields, itemIndex),
	});
	return resultOf(answer, { id, status, ...sent }, CONVERSATION_KEYS);
}
