import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idInput, requestOptionsCollection, simplifyParameters } from '../../descriptions/common';
import { locatorValue, maybeSimplify, recordOf } from '../helpers';
import { userSummary } from '../simplify';
import type { OperationClient } from '../types';
import { USER_KEYS } from './fields';

const properties: INodeProperties[] = [
	...idInput('userId', 'User'),
	...simplifyParameters,
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const id = locatorValue(this, 'userId', itemIndex, 'user');
	const { answer } = await client.call('getUser', { id });
	return maybeSimplify(
		this,
		itemIndex,
		[recordOf(this, answer, itemIndex, 'user', USER_KEYS)],
		userSummary,
	);
}
