import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	listFilters,
	listOptionsCollection,
	returnAllAndLimit,
	simplifyParameters,
} from '../../descriptions/common';
import { listQuery, maybeSimplify, readLimit, toRecord } from '../helpers';
import { userSummary } from '../simplify';
import type { OperationClient } from '../types';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	...simplifyParameters,
	listFilters(),
	listOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const users = await client.list({
		list: 'users',
		query: listQuery(this, itemIndex),
		limit: readLimit(this, itemIndex),
	});
	return maybeSimplify(
		this,
		itemIndex,
		users.map((user) => toRecord(user)),
		userSummary,
	);
}
