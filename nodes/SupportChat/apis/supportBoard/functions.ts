import type { IDataObject, NodeOperationError } from 'n8n-workflow';

import { isDataObject } from '../../shared/json';
import type { RequestSpec } from '../../transport/types';
import type { WirePort } from '../../transport/wire';
import { codeHint } from './product';

/** How a call of Support Board's Web API travels: one function, its arguments and the token in a POST. */

interface Traits {
	read: boolean;
	repeatable: boolean;
	resourceLabel?: string;
	/** The answer reaches no item nor message (see `RequestSpec.forNodeOnly`). */
	forNodeOnly?: boolean;
	/** The call's own hint for a refusal, before the product's codes (./product). */
	hint?: (status: number | undefined, body: unknown) => string | undefined;
}

/** One function call as it travels: a POST of a JSON body with the function, the token and the arguments. */
function spec(port: WirePort, name: string, args: IDataObject, traits: Traits): RequestSpec {
	return {
		method: 'POST',
		path: '',
		body: { ...args, function: name, token: port.token },
		label: name,
		read: traits.read,
		repeatable: traits.repeatable,
		resourceLabel: traits.resourceLabel,
		forNodeOnly: traits.forNodeOnly,
		hint: (status, body) => traits.hint?.(status, body) ?? codeHint(status, body, name),
	};
}

/** The product's answer without its envelope; an answer without one is no Support Board's. */
async function invoke(
	port: WirePort,
	name: string,
	args: IDataObject,
	traits: Traits,
): Promise<unknown> {
	const { status, body } = await port.request(spec(port, name, args, traits));
	if (isDataObject(body) && body.success === true && Object.hasOwn(body, 'response'))
		return body.response;
	throw port.error(
		status,
		`The answer to ${name} is not Support Board's ({"success": true, "response": …})`,
		{
			// A code in the text the product dies with is its refusal, not a sign of the wrong address.
			description: `${codeHint(status, body, name) ?? "Check that the Base URL is your Support Board's address."}${traits.repeatable ? '' : ' Support Board may or may not have done it: check before running again.'}`,
			body,
		},
	);
}

/**
 * The functions by what repeating them does. Reads, and update-user and delete-user (the same fields
 * set again, a deleted user deleted again, answered `true`), are retried after a failure on the way; a
 * write that adds something (a user, a conversation, a message, the note the product posts on every
 * assignment) is never repeated.
 */
export const fn = {
	spec,
	read: (port: WirePort, name: string, args: IDataObject) =>
		invoke(port, name, args, { read: true, repeatable: true }),
	repeatable: (port: WirePort, name: string, args: IDataObject) =>
		invoke(port, name, args, { read: false, repeatable: true, resourceLabel: 'user' }),
	write: (port: WirePort, name: string, args: IDataObject, resourceLabel = 'user') =>
		invoke(port, name, args, { read: false, repeatable: false, resourceLabel }),
	/** A function the user named, repeated only when `traits` say so (./anyFunction). */
	named: (port: WirePort, name: string, args: IDataObject, traits: Traits) =>
		invoke(port, name, args, traits),
};

/** A read the product answered `false`: it has no such record. */
export function notFound(port: WirePort, answer: unknown, label: string, id: string): unknown {
	if (answer !== false && answer !== null) return answer;
	throw port.error(404, `Support Board has no ${label} with ID ${id}`, {
		description: `Check the ${label} ID. Support Board answers a read of a missing ${label} with false.`,
	});
}

/** What the product cannot do, or input it cannot take: refused before any request. */
export function unsupported(port: WirePort, message: string): NodeOperationError {
	return port.refuse(message);
}
