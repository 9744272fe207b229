import { describeOperations } from '../types';
import * as call from './call.operation';

/** The Web API operations by parameter value: to add one, add it here and give it an option below. */
export const operations = { call };

export const description = describeOperations(operations, {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['webApi'] } },
	options: [
		{
			name: 'Call a Function',
			value: 'call',
			description: "Call any function of Support Board's Web API by name, with JSON arguments",
			action: 'Call a function by name',
		},
	],
	default: 'call',
});
