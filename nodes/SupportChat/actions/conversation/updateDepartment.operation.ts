import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, idInput, requestOptionsCollection } from '../../descriptions/common';
import { extraFields, locatorValue, resultOf } from '../helpers';
import type { OperationClient } from '../types';
import { CONVERSATION_KEYS } from './get.operation';
import { itemCollection } from '../../shared/parameters';

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	{
		displayName: 'Department',
		name: 'department',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The department to move the conversation to; -1 takes it out of any department',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a department...',
				typeOptions: { searchListMethod: 'searchDepartments', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 2',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^-?\\d+$', errorMessage: 'A department ID is a number' },
					},
				],
			},
		],
	},
	bodyFields(),
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['updateDepartment'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const id = locatorValue(this, 'conversationId', itemIndex, 'conversation');
	const department = locatorValue(this, 'department', itemIndex, 'department');
	const fields = itemCollection(this, 'additionalFields', itemIndex);
	const { answer } = await client.call('updateConversationDepartment', {
		conversationId: id,
		department,
		extra: extraFields(this, fields, itemIndex),
	});
	return resultOf(answer, { id, department }, CONVERSATION_KEYS);
}
