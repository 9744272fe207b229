import type { INodeProperties } from 'n8n-workflow';

import * as conversation from './conversation';
import * as message from './message';
import * as tag from './tag';
import { onFailedCallProperty } from './toolMode';
import { selectorOf } from './types';
import * as user from './user';
import * as webApi from './webApi';

/**
 * Every resource by its parameter value, each with its operation table and its description. The router
 * dispatches through this table; the selector below must offer exactly its keys.
 */
export const resources = { user, conversation, message, tag, webApi };

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
		{ name: 'Web API', value: 'webApi' },
	],
	default: 'user',
});

/** The resource selector and every resource's operations, in the order the editor shows them. */
export const properties: INodeProperties[] = [
	resourceSelector,
	...Object.values(resources).flatMap((resource) => resource.description),
	onFailedCallProperty,
];

/**
 * The canvas subtitle: resource and operation by the names the editor's drop-downs show ("User: Get
 * Many", "Tag: Add to User"), never their values ("getAll: user"). Built from the selectors above; looked up in a list of
 * pairs so that no value reaches an object's built-ins.
 */
const subtitleNames = resourceSelector.options.flatMap((resource) => {
	const operation = properties.find(
		(property) =>
			property.name === 'operation' &&
			property.displayOptions?.show?.resource?.includes(resource.value),
	);
	return (operation?.options ?? []).map((option) => [
		`${String(resource.value)}/${'value' in option ? String(option.value) : 'undefined'}`,
		`${resource.name}: ${option.name}`,
	]);
});
export const subtitle = `={{ (${JSON.stringify(subtitleNames)}.find((pair) => pair[0] === $parameter["resource"] + "/" + $parameter["operation"]) || [0, $parameter["operation"] + ": " + $parameter["resource"]])[1] }}`;
