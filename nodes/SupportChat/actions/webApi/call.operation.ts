import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { sortedByName } from '../../descriptions/common';
import { requestOptions } from '../../descriptions/options';
import { filledByModel } from '../../descriptions/tool';
import { isDataObject } from '../../shared/json';
import { parameterText } from '../helpers';
import { runsAsTool } from '../toolMode';
import type { OperationClient } from '../types';
import { itemCollection } from '../../shared/parameters';
import { neverCalled } from '../../apis/supportBoard/forwardsToken';

/**
 * The rules of Web API → Call a Function, as plain functions: what a function name may be, what the
 * arguments must be, and which functions an allowlist lets through. Each answers the problem in
 * words (for a NodeOperationError, and for a model reading a tool's answer), or nothing when all is well.
 */

/** The longest name the node sends; Support Board 3.8.7's longest function name has 38 characters. */
const MAX_FUNCTION_NAME_LENGTH = 64;

/** A Support Board function name: lower-case letters, digits and hyphens (get-user, update-conversation-agent). */
const FUNCTION_NAME = /^[a-z0-9-]+$/;

/** Keys of the request body that the node sets itself: the function's name and the admin token. */
const KEYS_THE_NODE_SETS: ReadonlySet<string> = new Set(['function', 'token']);

export function functionNameProblem(name: string): string | undefined {
	if (name === '') return 'Function Name is empty';
	if (name.length > MAX_FUNCTION_NAME_LENGTH) {
		return `Function Name is longer than ${MAX_FUNCTION_NAME_LENGTH} characters, which no Support Board function is`;
	}
	if (!FUNCTION_NAME.test(name)) {
		return `"${name}" is not a Support Board function name: it has only lower-case letters, digits and hyphens (e.g. get-user)`;
	}
	return undefined;
}

/**
 * A function the node never calls, whatever Allowed Functions says: its product code would hand the
 * admin token to an outside service, or publish the product's secrets
 * (apis/supportBoard/forwardsToken, the one home).
 */
export function tokenForwardProblem(name: string): string | undefined {
	const why = neverCalled(name);
	return why === undefined ? undefined : `${name} was not called: ${why}`;
}

/**
 * The Arguments parameter as an object: a JSON object as text (the editor's JSON field, a model's
 * answer) or an object (an expression's value); empty text is no arguments.
 */
export function parseArguments(value: unknown): { args: IDataObject } | { problem: string } {
	if (value === undefined || value === null) return { args: {} };
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return { args: {} };
		try {
			parsed = JSON.parse(value);
		} catch {
			return { problem: 'Arguments is not valid JSON: write a JSON object, e.g. {"user_id": 12}' };
		}
	}
	if (!isDataObject(parsed)) {
		const got = Array.isArray(parsed) ? 'a list' : parsed === null ? 'null' : `a ${typeof parsed}`;
		return { problem: `Arguments must be a JSON object of argument names and values, not ${got}` };
	}
	const taken = Object.keys(parsed).filter((key) => KEYS_THE_NODE_SETS.has(key));
	if (taken.length > 0) {
		return {
			problem: `Arguments may not hold ${taken.join(' or ')}: the node sends the function from Function Name and the token from the credentials`,
		};
	}
	return { args: parsed };
}

/** "get-user, get-conversations" (or a list, from an expression) → ["get-user", "get-conversations"]. */
export function functionList(value: unknown): string[] {
	const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
	return parts.map((part) => String(part).trim()).filter((part) => part !== '');
}

/**
 * Whether the allowlist lets `name` through. Set, it applies in a workflow and in a tool alike; empty,
 * a workflow calls any function its author names, and a tool (whose function the model names) none.
 */
export function allowlistProblem(
	name: string,
	allowed: readonly string[],
	asTool: boolean,
): string | undefined {
	if (allowed.length === 0) {
		return asTool
			? `This tool may call no Support Board function: its Allowed Functions list is empty, so ${name} was not called. The workflow's author lists the functions the tool may call under Allowed Functions`
			: undefined;
	}
	if (allowed.includes(name)) return undefined;
	return `${name} is not among the Allowed Functions (${allowed.join(', ')}), so it was not called: call one of these`;
}

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
