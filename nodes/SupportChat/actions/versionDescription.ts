import type { INodeProperties } from 'n8n-workflow';

import * as conversation from './conversation';
import * as message from './message';
import * as tag from './tag';
import * as user from './user';

/** The resource selector and every resource's operations, in the order the editor shows them. */
export const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Conversation', value: 'conversation' },
			{ name: 'Message', value: 'message' },
			{ name: 'Tag', value: 'tag' },
			{ name: 'User', value: 'user' },
		],
		default: 'user',
	},
	...user.description,
	...conversation.description,
	...message.description,
	...tag.description,
];
