import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, idInput, requestOptionsCollection } from '../../descriptions/common';
import { locatorValue, pathId, resultOf, userBody } from '../helpers';
import type { OperationApi } from '../types';
import { USER_KEYS, userFields } from './fields';

const properties: INodeProperties[] = [
	...idInput('userId', 'User'),
	bodyFields(userFields, {
		displayName: 'Update Fields',
		name: 'updateFields',
		description:
			'Fields to change. Some services replace the whole record on update: if fields you did not send are cleared, send them too.',
	}),
	requestOptionsCollection,
];

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: OperationApi) {
	const id = locatorValue(this, 'userId', itemIndex, 'user');
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body = userBody(this, fields, itemIndex);
	if (Object.keys(body).length === 0) {
		throw new NodeOperationError(this.getNode(), 'No fields to update', {
			itemIndex,
			description: 'Add at least one field under Update Fields.',
		});
	}
	const response = await api.request({ method: 'PUT', path: `/users/${pathId(id)}`, body, resourceLabel: 'user' });
	return resultOf(response, { id, ...body }, USER_KEYS);
}
