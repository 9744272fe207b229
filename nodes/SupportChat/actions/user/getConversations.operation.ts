import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	idInput,
	requestOptionsCollection,
	returnAllAndLimit,
	simplifyParameters,
} from '../../descriptions/common';
import { locatorValue, maybeSimplify, readLimit, firstRecords } from '../helpers';
import { conversationSummary } from '../simplify';
import type { OperationClient } from '../types';

const properties: INodeProperties[] = [
	...idInput('userId', 'User'),
	...returnAllAndLimit,
	...simplifyParameters,
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['getConversations'] } },
	properties,
);

/** The user's conversations, each with its latest message, the most recently active first. */
export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const userId = locatorValue(this, 'userId', itemIndex, 'user');
	const { answer } = await client.call('getUserConversations', { userId });
	return maybeSimplify(
		this,
		itemIndex,
		firstRecords(answer, readLimit(this, itemIndex)),
		conversationSummary,
	);
}
