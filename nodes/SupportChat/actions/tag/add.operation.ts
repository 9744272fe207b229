import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, idInput, requestOptionsCollection } from '../../descriptions/common';
import { filledByModel } from '../../descriptions/tool';
import { extraFields, locatorValue, resultOf } from '../helpers';
import type { OperationClient } from '../types';
import { itemCollection } from '../../shared/parameters';

const properties: INodeProperties[] = [
	...idInput('userId', 'User'),
	...filledByModel(
		{
			displayName: 'Tag',
			name: 'tag',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			required: true,
			description:
				'The tag to add to the user. A tag the service does not have yet is created by it.',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					placeholder: 'Select a tag...',
					typeOptions: { searchListMethod: 'searchTags', searchable: true },
				},
				{
					displayName: 'By Name',
					name: 'name',
					type: 'string',
					placeholder: 'e.g. lead',
				},
			],
		},
		'tag',
		'name',
	),
	bodyFields(),
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['add'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const userId = locatorValue(this, 'userId', itemIndex, 'user');
	const tag = locatorValue(this, 'tag', itemIndex, 'tag');
	const fields = itemCollection(this, 'additionalFields', itemIndex);
	const { answer, sent } = await client.call('addTag', {
		userId,
		tag,
		extra: extraFields(this, fields, itemIndex),
	});
	return resultOf(answer, sent, ['tag']);
}
