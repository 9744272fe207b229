import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as conversation from './conversation';
import * as message from './message';
import * as tag from './tag';
import * as user from './user';

export const versionDescription: INodeTypeDescription = {
	displayName: 'Support Chat',
	name: 'supportChat',
	icon: { light: 'file:supportChat.svg', dark: 'file:supportChat.dark.svg' },
	group: ['transform'],
	version: 1,
	subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
	description: 'Manage users, conversations, messages and tags of your chat service',
	defaults: {
		name: 'Support Chat',
	},
	usableAsTool: true,
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	credentials: [
		{
			name: 'supportChatApi',
			required: true,
		},
	],
	properties: [
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
	],
};
