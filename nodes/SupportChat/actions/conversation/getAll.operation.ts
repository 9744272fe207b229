import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	listFilters,
	listOptionsCollection,
	returnAllAndLimit,
	simplifyParameters,
} from '../../descriptions/common';
import { listQuery, maybeSimplify, readLimit, toRecord } from '../helpers';
import { conversationSummary } from '../simplify';
import type { OperationClient } from '../types';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	...simplifyParameters,
	listFilters([
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'active',
			description:
				'Only conversations in this state, sent as the status query parameter. Not every service filters lists: if yours ignores it, all states come back.',
			options: [
				{ name: 'Active', value: 'active' },
				{ name: 'Closed', value: 'closed' },
				{ name: 'Pending', value: 'pending' },
			],
		},
	]),
	listOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const conversations = await client.list({
		list: 'conversations',
		query: listQuery(this, itemIndex, ['status']),
		limit: readLimit(this, itemIndex),
	});
	return maybeSimplify(
		this,
		itemIndex,
		conversations.map((c) => toRecord(c)),
		conversationSummary,
	);
}
