import type { CallResult, Calls } from '../../transport/calls';
import type { WirePort } from '../../transport/wire';
import { isDataObject } from '../../shared/json';
import { maskReadSetting } from '../../shared/secrets';
import { fn } from './functions';

/**
 * Web API → Call a Function: any function of the Web API, by the name the user gave, with the user's
 * arguments. The operation has checked the name and the arguments; the client bounds, masks and maps
 * errors as for every call. Nothing is known about what the function does, so it is repeated after a
 * failure on the way only when the user says it is safe (Safe to Repeat): a read of the product's is
 * as harmless to repeat as `get-user`, but `send-message` would post twice, and the node cannot tell
 * them apart by their names. It is not taken as a read either, so an empty or bare answer is handed on.
 */

/** What the product's refusals mean when the user named the function and wrote its arguments. */
function hintFor(name: string) {
	return (_status: number | undefined, body: unknown): string | undefined => {
		const code =
			isDataObject(body) && typeof body.response === 'string' ? body.response : undefined;
		if (code === 'function-not-found') {
			return `This Support Board has no Web API function named ${name}: check Function Name against the functions of its Web API (board.support/docs, API, Web API).`;
		}
		if (code === 'missing-argument')
			return `Add the argument the message names to Arguments, as a key of the JSON object.`;
		return undefined;
	};
}

export const ANY_FUNCTION_CALLS = {
	async callFunction(
		port: WirePort,
		{ name, args, repeatable }: Calls['callFunction'],
	): Promise<CallResult> {
		const answer = await fn.named(port, name, args, {
			read: false,
			repeatable,
			hint: hintFor(name),
		});
		return { answer: maskReadSetting(name, args, answer), sent: { ...args, function: name } };
	},
};
