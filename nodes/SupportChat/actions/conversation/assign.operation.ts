import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, idInput, requestOptionsCollection } from '../../descriptions/common';
import { filledByModel } from '../../descriptions/tool';
import { extraFields, locatorValue, requiredText, resultOf } from '../helpers';
import type { OperationClient } from '../types';
import { CONVERSATION_KEYS } from './get.operation';

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	...filledByModel(
		{
			displayName: 'Assignee',
			name: 'assignee',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 7',
			description: 'ID of the agent (or team) to assign the conversation to',
		},
		'assignee',
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
	const assignee = requiredText(this, 'assignee', itemIndex, 'Assignee');
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const field = typeof fields.assigneeField === 'string' && fields.assigneeField.trim() !== '' ? fields.assigneeField.trim() : 'agent_id';
	const { answer, sent } = await client.call('assignConversation', {
		id,
		assignee,
		assigneeField: field,
		extra: extraFields(this, fields, itemIndex),
	});
	return resultOf(answer, { id, assigned: true, ...sent }, CONVERSATION_KEYS);
}
