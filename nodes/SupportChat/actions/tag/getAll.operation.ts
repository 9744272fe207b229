import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listFilters, listOptionsCollection, returnAllAndLimit } from '../../descriptions/common';
import { listQuery, readLimit, toRecord } from '../helpers';
import type { OperationClient } from '../types';

const properties: INodeProperties[] = [...returnAllAndLimit, listFilters(), listOptionsCollection];

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const tags = await client.list({
		list: 'tags',
		query: listQuery(this, itemIndex),
		limit: readLimit(this, itemIndex),
	});
	// Some services list tags as plain names.
	return tags.map((tag) => toRecord(tag, 'name'));
}
