import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { filledByModel } from './tool';

// Defaults are literals because n8n's editor and linter read them statically; they match
// DEFAULT_CLIENT_SETTINGS and DEFAULT_PAGINATION in ../transport (a unit test checks).

/** A resource locator for a user or a conversation; `{ __rl: true, mode: 'id', value }` is the stable saved form. */
export function idLocator(name: 'userId' | 'conversationId', label: 'User' | 'Conversation'): INodeProperties {
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
export function idInput(name: 'userId' | 'conversationId', label: 'User' | 'Conversation'): INodeProperties[] {
	return filledByModel(idLocator(name, label), name, 'id');
}

const returnAllParameter = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
} satisfies INodeProperties;

const limitParameter = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
} satisfies INodeProperties;

/** Return All and Limit of a list operation; the operation reads them with `readLimit`. */
export const returnAllAndLimit: INodeProperties[] = [returnAllParameter, limitParameter];

/** The limit a list operation passes to `api.list`: undefined with Return All, else Limit. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (ctx.getNodeParameter(returnAllParameter.name, itemIndex, returnAllParameter.default)) return undefined;
	return ctx.getNodeParameter(limitParameter.name, itemIndex, limitParameter.default) as number;
}

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
export const extraQueryParameters: INodeProperties = {
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
export const extraBodyFields: INodeProperties = {
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

export const requestOptions: INodeProperties[] = [
	{
		displayName: 'Max Attempts',
		name: 'maxAttempts',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 10 },
		default: 4,
		// n8n's linter reads descriptions as literals: the rule is written out, and a unit test holds it to RETRY_RULE.
		description:
			'How many times a request may be tried in all. A 429 is retried on any request. Server errors, network failures and timeouts are retried only where repeating does nothing twice: reads, updates and deletes (with Support Board, its reads, update-user and delete-user), never creations, messages, tags, assignments or closings. A delete retried after its first attempt went through finds nothing, which counts as deleted.',
	},
	{
		displayName: 'Max Retry Wait (Seconds)',
		name: 'maxRetryWait',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 600 },
		default: 60,
		description:
			'Longest wait before a retry. If the service asks (Retry-After) to wait longer, the node fails at once with that figure instead of waiting.',
	},
	{
		displayName: 'Max Response Size (MB)',
		name: 'maxResponseSize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1024 },
		default: 32,
		description:
			'Largest answer the node reads from the service, counted after decompression. A larger answer fails the request instead of filling the memory of n8n.',
	},
	{
		displayName: 'Requests per Second',
		name: 'requestsPerSecond',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		description:
			'Ceiling on the request rate of this node across all items and pages, to stay clear of throttling. 0 means no ceiling.',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 60,
		description:
			'How long one answer of the service may take in all, from sending the request to its last byte. A slower answer counts as a network failure, retried as Max Attempts says.',
	},
];

export const paginationOptions: INodeProperties[] = [
	{
		displayName: 'Pagination Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 8 },
		default: 1,
		description:
			'How many pages to fetch at once when the service tells how many pages there are (page numbers with a page count, or offsets with a total). The request rate ceiling still applies.',
	},
	{
		displayName: 'Pagination Cursor Parameter',
		name: 'cursorParam',
		type: 'string',
		default: '',
		placeholder: 'cursor',
		description:
			'Query parameter that carries the cursor (cursor and has-more styles). Empty: the usual name for the cursor found, e.g. cursor for next_cursor, starting_after for has_more.',
	},
	{
		displayName: 'Pagination First Page',
		name: 'firstPage',
		type: 'number',
		default: 1,
		description: 'Number of the first page, for services that count pages from 0',
	},
	{
		displayName: 'Pagination Items Path',
		name: 'itemsPath',
		type: 'string',
		default: '',
		placeholder: 'response.users',
		description: 'Dot path to the list of records in each page. Empty: found automatically.',
	},
	{
		displayName: 'Pagination Max Pages',
		name: 'maxPages',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 10000,
		description:
			'Safety stop. If the service still points to more pages after this many, the node fails with an error instead of looping or silently returning part of the list.',
	},
	{
		displayName: 'Pagination Next Path',
		name: 'nextPath',
		type: 'string',
		default: '',
		placeholder: 'meta.next_cursor',
		description:
			'Dot path to the next-page link, the next cursor or the has-more flag in each page. Empty: found automatically.',
	},
	{
		displayName: 'Pagination Offset Parameter',
		name: 'offsetParam',
		type: 'string',
		default: 'offset',
		description: 'Query parameter that carries the offset (offset style)',
	},
	{
		displayName: 'Pagination Page Parameter',
		name: 'pageParam',
		type: 'string',
		default: 'page',
		description: 'Query parameter that carries the page number (page style and automatic detection)',
	},
	{
		displayName: 'Pagination Page Size',
		name: 'pageSize',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: "Records to ask for per page, sent in the page size parameter. 0: the service's default.",
	},
	{
		displayName: 'Pagination Page Size Parameter',
		name: 'limitParam',
		type: 'string',
		default: 'limit',
		description: 'Query parameter that carries the page size, e.g. limit or per_page',
	},
	{
		displayName: 'Pagination Style',
		name: 'paginationStyle',
		type: 'options',
		default: 'auto',
		description: 'How the service splits lists into pages',
		options: [
			{
				name: 'Automatic',
				value: 'auto',
				description:
					'Detect from each answer: Link header, next-page URL, cursor, has-more flag, page numbers or offsets',
			},
			{ name: 'Cursor', value: 'cursor', description: 'Each page gives a cursor for the next one' },
			{
				name: 'Has-More Flag',
				value: 'hasMore',
				description: 'Each page says whether more follow; the next starts after the last record ID',
			},
			{ name: 'Next-Page URL', value: 'nextUrl', description: 'Each page links to the next one (body or Link header)' },
			{ name: 'No Pagination', value: 'none', description: 'One request; the answer holds the whole list' },
			{ name: 'Offset and Limit', value: 'offset', description: 'The node sends an offset that grows by the records received' },
			{ name: 'Page Number', value: 'page', description: 'The node sends a page number that grows by one' },
		],
	},
];

/**
 * The collection of optional body fields of a write operation, always ending in Extra Body Fields.
 * Options are sorted by display name, as n8n's editor conventions want.
 */
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
