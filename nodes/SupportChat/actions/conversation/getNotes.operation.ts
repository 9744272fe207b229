import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idInput, requestOptionsCollection } from '../../descriptions/common';
import { locatorValue, toRecord } from '../helpers';
import type { OperationClient } from '../types';

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['getNotes'] } },
	properties,
);

/** One item a note; a conversation without notes gives none. */
export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const conversationId = locatorValue(this, 'conversationId', itemIndex, 'conversation');
	const { answer } = await client.call('getNotes', { conversationId });
	return (Array.isArray(answer) ? answer : []).map((note) => toRecord(note));
}
