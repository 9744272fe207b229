import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, idInput, requestOptionsCollection } from '../../descriptions/common';
import { extraFields, locatorValue, resultOf, userFields } from '../helpers';
import type { OperationClient } from '../types';
import { USER_KEYS, userProperties } from './fields';
import { itemCollection } from '../../shared/parameters';

const properties: INodeProperties[] = [
	...idInput('userId', 'User'),
	bodyFields(userProperties, {
		displayName: 'Update Fields',
		name: 'updateFields',
		description:
			'Fields to change. Some services replace the whole record on update: if fields you did not send are cleared, send them too.',
	}),
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const id = locatorValue(this, 'userId', itemIndex, 'user');
	const fields = itemCollection(this, 'updateFields', itemIndex);
	const user = userFields(this, fields, itemIndex);
	const extra = extraFields(this, fields, itemIndex);
	if (Object.keys(user).length === 0 && Object.keys(extra).length === 0) {
		throw new NodeOperationError(this.getNode(), 'No fields to update', {
			itemIndex,
			description: 'Add at least one field under Update Fields.',
		});
	}
	const { answer, sent } = await client.call('updateUser', { id, fields: user, extra });
	return resultOf(answer, { id, ...sent }, USER_KEYS);
}
