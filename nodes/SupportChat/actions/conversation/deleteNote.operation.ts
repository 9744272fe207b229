import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idInput, requestOptionsCollection } from '../../descriptions/common';
import { locatorValue, requiredText } from '../helpers';
import type { OperationClient } from '../types';

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	{
		displayName: 'Note ID',
		name: 'noteId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 65679',
		description: 'ID of the note, as Add Note and Get Notes give it',
	},
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['deleteNote'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const conversationId = locatorValue(this, 'conversationId', itemIndex, 'conversation');
	const noteId = requiredText(this, 'noteId', itemIndex, 'Note ID');
	const { answer } = await client.call('deleteNote', { conversationId, noteId });
	return answer as IDataObject;
}
