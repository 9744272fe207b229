import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idInput, requestOptionsCollection, simplifyParameters } from '../../descriptions/common';
import { locatorValue, maybeSimplify, recordOf } from '../helpers';
import { conversationSummary } from '../simplify';
import type { OperationClient } from '../types';

export const CONVERSATION_KEYS = ['conversation', 'chat'];

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	...simplifyParameters,
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const id = locatorValue(this, 'conversationId', itemIndex, 'conversation');
	const { answer } = await client.call('getConversation', { id });
	return maybeSimplify(
		this,
		itemIndex,
		[recordOf(this, answer, itemIndex, 'conversation', CONVERSATION_KEYS)],
		conversationSummary,
	);
}
