import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, idInput, requestOptionsCollection } from '../../descriptions/common';
import { filledByModel } from '../../descriptions/tool';
import { extraFields, locatorValue, resultOf } from '../helpers';
import type { OperationClient } from '../types';
import { CONVERSATION_KEYS } from './get.operation';
import { itemCollection } from '../../shared/parameters';

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	// Once a plain string: a saved "7" still runs (n8n's engine hands a string back as it is, and its
	// editor shows it in the resource locator's legacy mode), and `{ mode: 'id', value }` is the form now.
	...filledByModel(
		{
			displayName: 'Assignee',
			name: 'assignee',
			type: 'resourceLocator',
			required: true,
			default: { mode: 'id', value: '' },
			description: 'The agent (or team) to assign the conversation to',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					placeholder: 'Select an agent...',
					typeOptions: { searchListMethod: 'searchAgents', searchable: true },
				},
				{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 7' },
			],
		},
		'assignee',
		'id',
	),
	bodyFields([
		{
			displayName: 'Assignee Field Name',
			name: 'assigneeField',
			type: 'string',
			default: 'agent_id',
			description:
				'REST only. Body field that carries the assignee. Services name it differently: agent_id is common, some use assignee_id or assignee. Support Board always takes agent_id, and refuses another name here.',
		},
	]),
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['assign'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const id = locatorValue(this, 'conversationId', itemIndex, 'conversation');
	const assignee = locatorValue(this, 'assignee', itemIndex, 'assignee');
	const fields = itemCollection(this, 'additionalFields', itemIndex);
	const field =
		typeof fields.assigneeField === 'string' && fields.assigneeField.trim() !== ''
			? fields.assigneeField.trim()
			: 'agent_id';
	const { answer, sent } = await client.call('assignConversation', {
		id,
		assignee,
		assigneeField: field,
		extra: extraFields(this, fields, itemIndex),
	});
	return resultOf(answer, { id, assigned: true, ...sent }, CONVERSATION_KEYS);
}
