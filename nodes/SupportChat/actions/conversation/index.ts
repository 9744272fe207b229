import { describeOperations } from '../types';
import * as assign from './assign.operation';
import * as close from './close.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as search from './search.operation';

/** The conversation operations by parameter value: to add one, add it here and give it an option below. */
export const operations = { getAll, get, create, assign, close, search };

export const description = describeOperations(operations, {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['conversation'] } },
	options: [
		{ name: 'Assign', value: 'assign', description: 'Assign a conversation to an agent', action: 'Assign a conversation to an agent' },
		{ name: 'Close', value: 'close', description: 'Close (archive) a conversation', action: 'Close a conversation' },
		{ name: 'Create', value: 'create', description: 'Create a conversation', action: 'Create a conversation' },
		{ name: 'Get', value: 'get', description: 'Get a conversation', action: 'Get a conversation by ID' },
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'Get many conversations: active, pending and closed',
			action: 'Get many conversations',
		},
		{
			name: 'Search',
			value: 'search',
			description: 'Search conversations by message text, name, e-mail, subject or ID (Support Board)',
			action: 'Search conversations',
		},
	],
	default: 'getAll',
});
