import type { INodeProperties } from 'n8n-workflow';

/**
 * The Options collection's entries: how requests are made (every operation) and how lists are paged
 * (list operations and the poll trigger). The defaults are literals, as n8n's editor and linter read
 * them; they match DEFAULT_CLIENT_SETTINGS and DEFAULT_PAGINATION in ../transport (a unit test checks).
 */

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
			"How many pages to fetch at once: when the service tells how many pages there are (page numbers with a page count, or offsets with a total), or, with page numbers of a known size and no count (Support Board's lists, or a Pagination Page Size), the pages after a full one, read ahead until a short page ends the list. The request rate ceiling still applies.",
	},
	{
		displayName: 'Pagination Cursor Parameter',
		name: 'cursorParam',
		type: 'string',
		default: '',
		placeholder: 'cursor',
		description:
			'REST only (Support Board sets its own pages). Query parameter that carries the cursor (cursor and has-more styles). Empty: the usual name for the cursor found, e.g. cursor for next_cursor, starting_after for has_more.',
	},
	{
		displayName: 'Pagination First Page',
		name: 'firstPage',
		type: 'number',
		default: 1,
		description:
			'REST only (Support Board sets its own pages). Number of the first page, for services that count pages from 0.',
	},
	{
		displayName: 'Pagination Items Path',
		name: 'itemsPath',
		type: 'string',
		default: '',
		placeholder: 'response.users',
		description:
			'REST only (Support Board sets its own pages). Dot path to the list of records in each page. Empty: found automatically.',
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
			'REST only (Support Board sets its own pages). Dot path to the next-page link, the next cursor or the has-more flag in each page. Empty: found automatically.',
	},
	{
		displayName: 'Pagination Offset Parameter',
		name: 'offsetParam',
		type: 'string',
		default: 'offset',
		description:
			'REST only (Support Board sets its own pages). Query parameter that carries the offset (offset style).',
	},
	{
		displayName: 'Pagination Page Parameter',
		name: 'pageParam',
		type: 'string',
		default: 'page',
		description:
			'REST only (Support Board sets its own pages). Query parameter that carries the page number (page style and automatic detection).',
	},
	{
		displayName: 'Pagination Page Size',
		name: 'pageSize',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description:
			"REST only (Support Board sets its own pages). Records to ask for per page, sent in the page size parameter. 0: the service's default.",
	},
	{
		displayName: 'Pagination Page Size Parameter',
		name: 'limitParam',
		type: 'string',
		default: 'limit',
		description:
			'REST only (Support Board sets its own pages). Query parameter that carries the page size, e.g. limit or per_page.',
	},
	{
		displayName: 'Pagination Style',
		name: 'paginationStyle',
		type: 'options',
		default: 'auto',
		description:
			'REST only (Support Board sets its own pages). How the service splits lists into pages.',
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
			{
				name: 'Next-Page URL',
				value: 'nextUrl',
				description: 'Each page links to the next one (body or Link header)',
			},
			{
				name: 'No Pagination',
				value: 'none',
				description: 'One request; the answer holds the whole list',
			},
			{
				name: 'Offset and Limit',
				value: 'offset',
				description: 'The node sends an offset that grows by the records received',
			},
			{
				name: 'Page Number',
				value: 'page',
				description: 'The node sends a page number that grows by one',
			},
		],
	},
];

/**
 * The collection of optional body fields of a write operation, always ending in Extra Body Fields.
 * Options are sorted by display name, as n8n's editor conventions want.
 */
