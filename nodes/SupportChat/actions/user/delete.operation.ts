import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idInput, requestOptionsCollection } from '../../descriptions/common';
import { locatorValue } from '../helpers';
import type { OperationClient } from '../types';

const properties: INodeProperties[] = [...idInput('userId', 'User'), requestOptionsCollection];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const id = locatorValue(this, 'userId', itemIndex, 'user');
	const { answer } = await client.call('deleteUser', { id });
	return answer === undefined ? { id, deleted: true, noResponseBody: true } : { id, deleted: true };
}
