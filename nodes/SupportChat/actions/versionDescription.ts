import type { INodeProperties } from 'n8n-workflow';

import * as conversation from './conversation';
import * as message from './message';
import * as tag from './tag';
import { selectorOf } from './types';
import * as user from './user';

/**
 * Every resource by its parameter value, each with its operation table and its description. The router
 * dispatches through this table; the selector below must offer exactly its keys.
 */
export const resources = { user, conversation, message, tag };

const resourceSelector = selectorOf(resources, {
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
});

/** The resource selector and every resource's operations, in the order the editor shows them. */
export const properties: INodeProperties[] = [
	resourceSelector,
	...Object.values(resources).flatMap((resource) => resource.description),
];
