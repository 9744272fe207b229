import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, requestOptionsCollection } from '../../descriptions/common';
import { resultOf, userBody } from '../helpers';
import type { OperationApi } from '../types';
import { USER_KEYS, userFields } from './fields';

const properties: INodeProperties[] = [
	bodyFields(userFields, {
		displayName: 'Fields',
		name: 'additionalFields',
		description: 'The service requires none of these in general; yours may require some',
	}),
	requestOptionsCollection,
];

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: OperationApi) {
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body = userBody(this, fields, itemIndex);
	if (Object.keys(body).length === 0) {
		throw new NodeOperationError(this.getNode(), 'No user fields given', {
			itemIndex,
			description: 'Add at least a name, an email or a phone under Fields.',
		});
	}
	const response = await api.request({ method: 'POST', path: '/users', body, resourceLabel: 'user' });
	return resultOf(response, body, USER_KEYS);
}
