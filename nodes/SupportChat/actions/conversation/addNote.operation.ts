import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idInput, requestOptionsCollection } from '../../descriptions/common';
import { locatorValue, parameterText, requiredText } from '../helpers';
import type { OperationClient } from '../types';
import { itemCollection } from '../../shared/parameters';

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	{
		displayName: 'Note',
		name: 'note',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		description: 'Text of the note: agents see it beside the conversation, the user never does',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Author ID',
				name: 'authorId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3',
				description:
					'ID of the agent who writes the note. Default: the admin, when Support Board has one (with several, set it).',
			},
			{
				displayName: 'Author Name',
				name: 'authorName',
				type: 'string',
				default: '',
				description: "Name shown on the note. Default: the author's first and last name.",
			},
		],
	},
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['addNote'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const conversationId = locatorValue(this, 'conversationId', itemIndex, 'conversation');
	const note = requiredText(this, 'note', itemIndex, 'Note');
	const fields = itemCollection(this, 'additionalFields', itemIndex);
	const authorId = parameterText(fields.authorId);
	const authorName = parameterText(fields.authorName);
	const { answer } = await client.call('addNote', {
		conversationId,
		note,
		authorId: authorId === '' ? undefined : authorId,
		authorName: authorName === '' ? undefined : authorName,
	});
	return answer as IDataObject;
}
