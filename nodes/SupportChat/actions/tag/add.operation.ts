import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, idLocator, requestOptionsCollection } from '../../descriptions/common';
import { locatorValue, requiredText, resultOf, withExtraFields } from '../helpers';
import type { OperationApi } from '../types';

const properties: INodeProperties[] = [
	idLocator('userId', 'User'),
	{
		displayName: 'Tag Name or ID',
		name: 'tag',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getTags' },
		// A tag that does not exist yet is a normal value: the service creates it.
		allowArbitraryValues: true,
		required: true,
		default: '',
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		hint: 'A new tag: switch to Expression and type its name; the service creates it',
	},
	bodyFields(),
	requestOptionsCollection,
];

export const description = updateDisplayOptions({ show: { resource: ['tag'], operation: ['add'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: OperationApi) {
	const userId = locatorValue(this, 'userId', itemIndex, 'user');
	const tag = requiredText(this, 'tag', itemIndex, 'Tag');
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body = withExtraFields(this, { user_id: userId, tag }, fields, itemIndex);
	const response = await api.request({ method: 'POST', path: '/tags', body, resourceLabel: 'user' });
	return resultOf(response, body, ['tag']);
}
