import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bodyFields, idInput, requestOptionsCollection } from '../../descriptions/common';
import { filledByModel } from '../../descriptions/tool';
import { extraFields, locatorValue, parameterText, requiredText, resultOf } from '../helpers';
import type { OperationClient } from '../types';
import { attachmentFields, attachmentUrls, binaryFiles } from '../../files/send';
import { itemCollection } from '../../shared/parameters';

const properties: INodeProperties[] = [
	...idInput('conversationId', 'Conversation'),
	...filledByModel(
		{
			displayName: 'Message',
			name: 'message',
			type: 'string',
			typeOptions: { rows: 4 },
			required: true,
			default: '',
			description: 'Text of the message',
		},
		'message',
	),
	{
		displayName: 'Send As',
		name: 'messageType',
		type: 'options',
		default: 'agent',
		description:
			'Who the message is sent as, sent as type. Agent is what chat services of this kind take; an expression can give any other value your service accepts.',
		options: [
			{ name: 'Agent', value: 'agent', description: 'A message from the service side' },
			{
				name: 'Bot',
				value: 'bot',
				description: 'An automated message, if your service supports it',
			},
			{
				name: 'User',
				value: 'user',
				description: 'A message on behalf of the visitor, if your service supports it',
			},
		],
	},
	bodyFields([
		{
			displayName: 'Sender ID',
			name: 'senderId',
			type: 'string',
			default: '',
			description:
				'ID of the user who writes the message, where Send As does not say enough: sent as sender_id to a REST service; with Support Board, the message is written by this user (an agent, say) instead of the admin whose token it is',
		},
		...attachmentFields,
	]),
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['message'], operation: ['send'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const conversationId = locatorValue(this, 'conversationId', itemIndex, 'conversation');
	const message = requiredText(this, 'message', itemIndex, 'Message');
	const type = requiredText(this, 'messageType', itemIndex, 'Send As');
	const fields = itemCollection(this, 'additionalFields', itemIndex);
	const senderId = parameterText(fields.senderId);
	// Files are read only when some are named: a plain send runs none of files/.
	const withFiles = (fields.binaryAttachments ?? '') !== '' || fields.attachmentUrls !== undefined;
	const { answer, sent } = await client.call('sendMessage', {
		conversationId,
		message,
		type,
		senderId: senderId === '' ? undefined : senderId,
		extra: extraFields(this, fields, itemIndex),
		files: withFiles ? await binaryFiles(this, itemIndex, fields) : [],
		attachmentUrls: withFiles ? attachmentUrls(this, itemIndex, fields) : [],
		deliver: fields.deliverToChannel !== false,
	});
	return resultOf(answer, sent, ['message']);
}
