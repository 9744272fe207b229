import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, requestOptionsCollection } from '../../descriptions/common';
import { extraFields, resultOf, userFields } from '../helpers';
import type { OperationClient } from '../types';
import { USER_KEYS, userProperties } from './fields';
import { itemCollection } from '../../shared/parameters';

const properties: INodeProperties[] = [
	bodyFields(userProperties, {
		displayName: 'Fields',
		name: 'additionalFields',
		description: 'The service requires none of these in general; yours may require some',
	}),
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const fields = itemCollection(this, 'additionalFields', itemIndex);
	const user = userFields(this, fields, itemIndex);
	const extra = extraFields(this, fields, itemIndex);
	if (Object.keys(user).length === 0 && Object.keys(extra).length === 0) {
		throw new NodeOperationError(this.getNode(), 'No user fields given', {
			itemIndex,
			description: 'Add at least a name, an email or a phone under Fields.',
		});
	}
	const { answer, sent } = await client.call('createUser', { fields: user, extra });
	return resultOf(answer, sent, USER_KEYS);
}
