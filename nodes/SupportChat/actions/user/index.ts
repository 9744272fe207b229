import { describeOperations } from '../types';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as find from './find.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getConversations from './getConversations.operation';
import * as search from './search.operation';
import * as update from './update.operation';

/** The user operations by parameter value: to add one, add it here and give it an option below. */
export const operations = {
	getAll,
	get,
	create,
	update,
	delete: del,
	find,
	search,
	getConversations,
};

export const description = describeOperations(operations, {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['user'] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			description: 'Create a user profile',
			action: 'Create a user',
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete a user',
			action: 'Delete a user by ID',
		},
		{
			name: 'Find by Email or Phone',
			value: 'find',
			description: 'Find the user with an email address or phone number (Support Board)',
			action: 'Find a user by email or phone',
		},
		{ name: 'Get', value: 'get', description: 'Get a user', action: 'Get a user by ID' },
		{
			name: 'Get Conversations',
			value: 'getConversations',
			description: "Get a user's conversations, each with its latest message (Support Board)",
			action: 'Get conversations of a user',
		},
		{ name: 'Get Many', value: 'getAll', description: 'Get many users', action: 'Get many users' },
		{
			name: 'Search',
			value: 'search',
			description: 'Search users by name, email or details (Support Board)',
			action: 'Search users',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Update a user',
			action: 'Update a user by ID',
		},
	],
	default: 'getAll',
});
