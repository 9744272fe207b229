import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { router } from './actions/router';
import { properties, subtitle } from './actions/versionDescription';
import { credentialTest, listSearch } from './methods';

export class SupportChat implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Support Chat',
		name: 'supportChat',
		icon: { light: 'file:supportChat.svg', dark: 'file:supportChat.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle,
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
				testedBy: 'supportChatApiTest',
			},
		],
		properties,
	};

	methods = { listSearch, credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, this.continueOnFail());
	}
}
