import { describeOperations } from '../types';
import * as getAll from './getAll.operation';
import * as send from './send.operation';
import * as sendTemplate from './sendTemplate.operation';

/** The message operations by parameter value: to add one, add it here and give it an option below. */
export const operations = { send, getAll, sendTemplate };

export const description = describeOperations(operations, {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['message'] } },
	options: [
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'Get many messages of a conversation, oldest first (Support Board)',
			action: 'Get many messages of a conversation to read its history',
		},
		{
			name: 'Send',
			value: 'send',
			description: 'Send a message into a conversation',
			action: 'Send a message to a conversation',
		},
		{
			name: 'Send Template',
			value: 'sendTemplate',
			description:
				'Send an approved WhatsApp template to a WhatsApp conversation or a phone number (Support Board)',
			action: 'Send a template message',
		},
	],
	default: 'send',
});
