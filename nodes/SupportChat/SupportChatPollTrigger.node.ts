import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialTest } from './methods';
import { pollProperties } from './poll/description';
import { poll } from './poll/poll';

export class SupportChatPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Support Chat Poll Trigger',
		name: 'supportChatPollTrigger',
		icon: { light: 'file:supportChat.svg', dark: 'file:supportChat.dark.svg' },
		group: ['trigger'],
		version: 1,
		description:
			'Starts the workflow when polling the chat service finds new users, conversations, messages or closed conversations',
		subtitle: '={{ "Every " + ($parameter["pollTimes"]?.item?.[0]?.mode ?? "minute") }}',
		defaults: {
			name: 'Support Chat Poll Trigger',
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'supportChatApi', required: true, testedBy: 'supportChatApiTest' }],
		properties: pollProperties,
	};

	methods = { credentialTest };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await poll(this);
	}
}
