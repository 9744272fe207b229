import { describeOperations } from '../types';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

/** The user operations by parameter value: to add one, add it here and give it an option below. */
export const operations = { getAll, get, create, update, delete: del };

export const description = describeOperations(operations, {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['user'] } },
	options: [
		{ name: 'Create', value: 'create', description: 'Create a user profile', action: 'Create a user' },
		{ name: 'Delete', value: 'delete', description: 'Delete a user', action: 'Delete a user by ID' },
		{ name: 'Get', value: 'get', description: 'Get a user', action: 'Get a user by ID' },
		{ name: 'Get Many', value: 'getAll', description: 'Get many users', action: 'Get many users' },
		{ name: 'Update', value: 'update', description: 'Update a user', action: 'Update a user by ID' },
	],
	default: 'getAll',
});
