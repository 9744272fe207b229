import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	requestOptionsCollection,
	returnAllAndLimit,
	simplifyParameters,
} from '../../descriptions/common';
import { filledByModel } from '../../descriptions/tool';
import { maybeSimplify, readLimit, requiredText, firstRecords } from '../helpers';
import { userSummary } from '../simplify';
import type { OperationClient } from '../types';

const properties: INodeProperties[] = [
	...filledByModel(
		{
			displayName: 'Search Text',
			name: 'searchText',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. Ada',
			description:
				"What to look for: Support Board matches each word in first and last names, and the first word in the e-mail and the user's details (phone, company, …). Every user type but bots.",
		},
		'userSearch',
	),
	...returnAllAndLimit,
	...simplifyParameters,
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['search'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const search = requiredText(this, 'searchText', itemIndex, 'Search Text');
	const { answer } = await client.call('searchUsers', { search });
	return maybeSimplify(
		this,
		itemIndex,
		firstRecords(answer, readLimit(this, itemIndex)),
		userSummary,
	);
}
