import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	requestOptionsCollection,
	simplifyParameters,
	sortedByName,
} from '../../descriptions/common';
import { requestOptions } from '../../descriptions/options';
import { filledByModel } from '../../descriptions/tool';
import { maybeSimplify, requiredText } from '../helpers';
import { userSummary } from '../simplify';
import type { OperationClient } from '../types';
import { itemCollection } from '../../shared/parameters';

const errorIfNotFound: INodeProperties = {
	displayName: 'Error If Not Found',
	name: 'errorIfNotFound',
	type: 'boolean',
	default: false,
	description:
		'Whether to fail when no user has this email or phone; otherwise that input item gives no output item',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Find By',
		name: 'findBy',
		type: 'options',
		default: 'email',
		options: [
			{ name: 'Email', value: 'email' },
			{ name: 'Phone', value: 'phone' },
		],
	},
	...filledByModel(
		{
			displayName: 'Value',
			name: 'findValue',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. name@email.com',
			description:
				'The email (any case) or the phone number, as stored. Support Board also tries a phone that has a + with 00 in its place, and one without + with a + in front; when one starting with 00 finds no user, the node asks once more with + in place of the 00.',
		},
		'findValue',
	),
	...simplifyParameters,
	{ ...requestOptionsCollection, options: sortedByName([errorIfNotFound, ...requestOptions]) },
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['find'] } },
	properties,
);

/** The one user with this e-mail or phone; none is no item, or an error when the option asks for one. */
export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const by = requiredText(this, 'findBy', itemIndex, 'Find By');
	if (by !== 'email' && by !== 'phone') {
		throw new NodeOperationError(this.getNode(), `Find By must be email or phone, not "${by}"`, {
			itemIndex,
		});
	}
	const value = requiredText(this, 'findValue', itemIndex, 'Value');
	const { answer } = await client.call('findUser', { by, value });
	if (answer === null || answer === undefined) {
		const options = itemCollection(this, 'options', itemIndex);
		if (options.errorIfNotFound !== true) return [];
		throw new NodeOperationError(this.getNode(), `No user has the ${by} "${value}"`, {
			itemIndex,
			description:
				'Check the value, or turn off Error If Not Found under Options to go on without an item.',
		});
	}
	return maybeSimplify(this, itemIndex, [answer as IDataObject], userSummary);
}
