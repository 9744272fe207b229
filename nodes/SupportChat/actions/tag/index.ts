import { describeOperations } from '../types';
import * as add from './add.operation';
import * as getAll from './getAll.operation';

/** The tag operations by parameter value: to add one, add it here and give it an option below. */
export const operations = { add, getAll };

export const description = describeOperations(operations, {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['tag'] } },
	options: [
		{
			name: 'Add to User',
			value: 'add',
			description: 'Add a tag to a user',
			action: 'Add a tag to a user',
		},
		{ name: 'Get Many', value: 'getAll', description: 'Get many tags', action: 'Get many tags' },
	],
	default: 'add',
});
