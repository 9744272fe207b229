import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { sortedByName } from '../../descriptions/common';
import { requestOptions } from '../../descriptions/options';
import { filledByModel } from '../../descriptions/tool';
import { isDataObject } from '../../shared/json';
import { parameterText } from '../helpers';
import { runsAsTool } from '../toolMode';
import type { OperationClient } from '../types';
import {
	allowlistProblem,
	functionList,
	functionNameProblem,
	parseArguments,
	tokenForwardProblem,
} from './checks';
import { itemCollection } from '../../shared/parameters';

const safeToRepeat: INodeProperties = {
	displayName: 'Safe to Repeat',
	name: 'safeToRepeat',
	type: 'boolean',
	default: false,
	description:
		'Whether calling this function twice does nothing twice (a read such as get-user, or update-user with the same fields). Only then is it retried after a server error, a network failure or a timeout; otherwise the node cannot know whether the first call was done, and does not repeat it. A 429 is retried either way.',
};

const properties: INodeProperties[] = [
	...filledByModel(
		{
			displayName: 'Function Name',
			name: 'functionName',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. get-user',
			description:
				"The Web API function to call, as Support Board's Web API documentation names it: lower-case letters, digits and hyphens",
		},
		'functionName',
	),
	...filledByModel(
		{
			displayName: 'Arguments',
			name: 'functionArguments',
			type: 'json',
			default: '{}',
			description:
				'The function\'s arguments as a JSON object, e.g. {"user_id": 12}. The node sends the function and the token itself, so neither may be here.',
		},
		'functionArguments',
	),
	{
		displayName: 'Allowed Functions',
		name: 'allowedFunctions',
		type: 'string',
		default: '',
		placeholder: 'e.g. get-user, get-conversations',
		description:
			"Comma-separated names of the functions this node may call. As an AI Agent's tool it calls only these, and none while the list is empty; in a workflow an empty list allows any function.",
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: sortedByName([safeToRepeat, ...requestOptions]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webApi'], operation: ['call'] } },
	properties,
);

/**
 * The items of an answer: an object is one item; a list of objects one item each (none for an empty
 * list); anything else (true, an id, text, a list of values) one item `{ response }`.
 */
function itemsOf(answer: unknown): IDataObject | IDataObject[] {
	if (isDataObject(answer)) return answer;
	if (Array.isArray(answer) && answer.every(isDataObject)) return answer;
	return { response: answer as IDataObject[string] };
}

/** One function call, its name, arguments and allowlist checked before any request. */
export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const refuse = (message: string, description?: string) =>
		new NodeOperationError(this.getNode(), message, { itemIndex, description });
	const name = parameterText(this.getNodeParameter('functionName', itemIndex, ''));
	const nameProblem = functionNameProblem(name);
	if (nameProblem !== undefined) throw refuse(nameProblem);
	const forwards = tokenForwardProblem(name);
	if (forwards !== undefined) throw refuse(forwards);
	const allowed = functionList(this.getNodeParameter('allowedFunctions', itemIndex, ''));
	const badEntry = allowed.find((entry) => functionNameProblem(entry) !== undefined);
	if (badEntry !== undefined) throw refuse(`Allowed Functions: ${functionNameProblem(badEntry)}`);
	const notAllowed = allowlistProblem(name, allowed, runsAsTool(this.getNode()));
	if (notAllowed !== undefined) throw refuse(notAllowed);
	const parsed = parseArguments(this.getNodeParameter('functionArguments', itemIndex, '{}'));
	if ('problem' in parsed) throw refuse(parsed.problem);
	const options = itemCollection(this, 'options', itemIndex);
	const { answer } = await client.call('callFunction', {
		name,
		args: parsed.args,
		repeatable: options.safeToRepeat === true,
	});
	return itemsOf(answer);
}
