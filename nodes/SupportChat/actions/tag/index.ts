import type { INodeProperties } from 'n8n-workflow';

import * as add from './add.operation';
import * as getAll from './getAll.operation';

export { add, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tag'] } },
		options: [
			{ name: 'Add to User', value: 'add', description: 'Add a tag to a user', action: 'Add a tag to a user' },
			{ name: 'Get Many', value: 'getAll', description: 'Get many tags', action: 'Get many tags' },
		],
		default: 'add',
	},
	...add.description,
	...getAll.description,
];
