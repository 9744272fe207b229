import type { INodeProperties } from 'n8n-workflow';

import { paginationOptions, requestOptions } from './options';
import { filledByModel } from './tool';

/** A resource locator for a user or a conversation; `{ __rl: true, mode: 'id', value }` is the stable saved form. */
function idLocator(
	name: 'userId' | 'conversationId',
	label: 'User' | 'Conversation',
): INodeProperties {
	return {
		displayName: label,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: `The ${label.toLowerCase()} to act on`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${label.toLowerCase()}...`,
				typeOptions: {
					searchListMethod: label === 'User' ? 'searchUsers' : 'searchConversations',
					searchable: true,
				},
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: label === 'User' ? 'e.g. 42' : 'e.g. 1001',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\S+$', errorMessage: 'The ID cannot contain spaces' },
					},
				],
			},
		],
	};
}

/** The user or conversation locator; in the node's tool type the model gives the ID (see ./tool). */
export function idInput(
	name: 'userId' | 'conversationId',
	label: 'User' | 'Conversation',
): INodeProperties[] {
	return filledByModel(idLocator(name, label), name, 'id');
}

export const returnAllParameter = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
} satisfies INodeProperties;

export const limitParameter = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
} satisfies INodeProperties;

/** Return All and Limit of a list operation; the operation reads them with `readLimit` (../actions/helpers). */
export const returnAllAndLimit: INodeProperties[] = [returnAllParameter, limitParameter];

/**
 * Simplify: off by default in workflows (the spec does not list the record's fields, so nothing is
 * dropped unless asked), on by default when an AI Agent uses the node as a tool, where every field
 * costs context. n8n shows one or the other by the `@tool` display condition.
 */
export const simplifyParameters: INodeProperties[] = [
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: 'Whether to return only the fields people use instead of the raw record',
		displayOptions: { hide: { '@tool': [true] } },
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return only the fields people use instead of the raw record',
		displayOptions: { show: { '@tool': [true] } },
	},
];

/** Query parameters the spec does not document, for services that filter lists by them. */
const extraQueryParameters: INodeProperties = {
	displayName: 'Extra Query Parameters',
	name: 'queryParameters',
	type: 'fixedCollection',
	placeholder: 'Add Parameter',
	default: {},
	typeOptions: { multipleValues: true },
	description: 'Query parameters to send with every page request, e.g. created_after or search',
	options: [
		{
			displayName: 'Parameter',
			name: 'parameter',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
};

/** The Filters collection of a list operation: its own filters plus Extra Query Parameters. */
export function listFilters(filters: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: sortedByName([...filters, extraQueryParameters]),
	};
}

/** Fields the spec does not document can still be sent: the node never stands between a user and the service. */
const extraBodyFields: INodeProperties = {
	displayName: 'Extra Body Fields',
	name: 'extraFields',
	type: 'fixedCollection',
	placeholder: 'Add Field',
	default: {},
	typeOptions: { multipleValues: true },
	description:
		'Fields to add to the request body as they are, for fields your service expects that the node does not list. An expression may give any JSON value.',
	options: [
		{
			displayName: 'Field',
			name: 'field',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					description: 'Name of the field in the JSON body, e.g. department_id',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
				},
			],
		},
	],
};

export function bodyFields(
	options: INodeProperties[] = [],
	overrides: Pick<INodeProperties, 'displayName' | 'name'> & Partial<INodeProperties> = {
		displayName: 'Additional Fields',
		name: 'additionalFields',
	},
): INodeProperties {
	return {
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		...overrides,
		options: sortedByName([...options, extraBodyFields]),
	};
}

export function sortedByName(properties: INodeProperties[]): INodeProperties[] {
	return [...properties].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** Request options of single-record operations. */
export const requestOptionsCollection: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: requestOptions,
};

/** Request options plus pagination overrides, for list operations. */
export const listOptionsCollection: INodeProperties = {
	...requestOptionsCollection,
	options: sortedByName([...requestOptions, ...paginationOptions]),
};
