import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, idLocator, requestOptionsCollection } from '../../descriptions/common';
import { locatorValue, requiredText, resultOf, withExtraFields } from '../helpers';
import type { OperationApi } from '../types';

const properties: INodeProperties[] = [
	idLocator('userId', 'User'),
	{
		displayName: 'Tag',
		name: 'tag',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'lead',
		description: 'Name of the tag to add to the user',
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
