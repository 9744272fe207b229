import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, requestOptionsCollection } from '../../descriptions/common';
import { extraFields, parameterText, resultOf } from '../helpers';
import type { ConversationFields } from '../../transport/calls';
import type { OperationClient } from '../types';
import { CONVERSATION_KEYS } from './get.operation';
import { itemCollection } from '../../shared/parameters';

/** The spec does not show this payload (§4); these are the fields chat services commonly take. */
const properties: INodeProperties[] = [
	bodyFields(
		[
			{
				displayName: 'First Message',
				name: 'message',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'Text of the opening message, sent as message',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'active',
				options: [
					{ name: 'Active', value: 'active' },
					{ name: 'Pending', value: 'pending' },
				],
			},
			{
				displayName: 'Subject',
				name: 'subject',
				type: 'string',
				default: '',
			},
			{
				displayName: 'User ID',
				name: 'user_id',
				type: 'string',
				default: '',
				description: 'ID of the user the conversation is with, sent as user_id',
			},
		],
		{
			displayName: 'Fields',
			name: 'additionalFields',
			description:
				'Fields of the new conversation. Services differ in what they take here: add what your service expects, with Extra Body Fields for the rest',
		},
	),
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const fields = itemCollection(this, 'additionalFields', itemIndex);
	const conversation: ConversationFields = {};
	for (const key of ['user_id', 'message', 'subject', 'status'] as const) {
		const value = parameterText(fields[key]);
		if (value !== '') conversation[key] = value;
	}
	const { answer, sent } = await client.call('createConversation', {
		fields: conversation,
		extra: extraFields(this, fields, itemIndex),
	});
	return resultOf(answer, sent, CONVERSATION_KEYS);
}
