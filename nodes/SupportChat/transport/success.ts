import { isDataObject } from '../shared/json';
import type { SecretMask } from '../shared/secrets';
import { holdsSecretField, maskSecretFields } from '../shared/secrets';
import type { Answer } from './exchange';
import { clipText, extractErrorMessage } from './errors';
import type { RequestSpec } from './types';

/**
 * A 2xx answer's meaning: the value to hand on, or a failure. A failure without a description takes
 * the API's hint for `hintFor` (the body that said it failed), followed by `after`.
 */
export type Success =
	| { ok: true; value: unknown }
	| {
			ok: false;
			message: string;
			description?: string;
			body?: unknown;
			hintFor?: unknown;
			after?: string;
	  };

/** What to check when a read came back without a record; both places that find none say it (actions/helpers.ts). */
export const NO_RECORD =
	'The node does not make up a record from an answer without one. Check the Base URL and the ID; if your service answers reads this way, it is not one the node can read.';

/**
 * The one rule for what a 2xx answer means (docs/errors-and-limits.md › What counts as a success):
 * - an HTML page is a failure, whatever the status: a proxy, a login or a maintenance page answered;
 * - text that claims JSON but does not parse is a failure;
 * - a body that says it failed (`success: false`, `status: "error"`…) or is `false` is a failure;
 * - a read needs JSON: an empty body, `null`, a bare value or plain text is a failure;
 * - a write may answer nothing (204, an empty 200, `null`): the result is undefined, and the
 *   operation says what it did; plain text is handed on as it is.
 * Whatever is handed on has the credentials' secrets and the channels' tokens masked in every string,
 * and secret fields masked by name; only an answer `forNodeOnly` (see RequestSpec) is handed on as it came.
 */
export function readSuccess(
	answer: Answer,
	read: boolean,
	where: string,
	mask: SecretMask,
	forNodeOnly = false,
): Success {
	const notDone = read
		? ''
		: ' The service may or may not have done it: check before running again.';
	const noRecord = (what: string): Success => ({
		ok: false,
		message: `The service answered ${where} with ${what}, where a read needs a record or a list`,
		description: NO_RECORD,
	});
	switch (answer.kind) {
		case 'html': {
			// Masked before the page's words are cut out of it.
			const page = extractErrorMessage(mask.text(answer.text));
			return {
				ok: false,
				message: `The service answered ${where} with an HTML page instead of JSON${page ? ` ("${page}")` : ''}`,
				description: `A proxy, a login page or a maintenance page answered in place of the API. Check that the Base URL points at the API, and that nothing between n8n and the service asks for a login.${notDone}`,
				body: answer.text,
			};
		}
		case 'malformed':
			return {
				ok: false,
				message: `The service answered ${where} with malformed JSON`,
				description: `The answer began with: ${mask.quote(answer.text, 120)}. The service may be overloaded or a proxy may have altered the answer; try again, or check the Base URL.${notDone}`,
				body: answer.text,
			};
		case 'empty':
			return read ? noRecord('an empty body') : { ok: true, value: undefined };
		case 'text':
			return read
				? noRecord(`text instead of JSON ("${clipText(mask.text(answer.text))}")`)
				: { ok: true, value: mask.text(answer.text) };
		case 'json':
			if (forNodeOnly && isForNode(answer.value)) return { ok: true, value: answer.value };
			return readJson(answer.value, answer.text, read, where, mask, noRecord, notDone);
	}
}

/**
 * A 404 that is the result, not an error: for a delete retried after a failure on the way, when its
 * first attempt did delete (gone is what was asked); and, in JSON, for a page the node guessed at
 * (`absentIsAnswer`): the API says it does not exist. An HTML 404 is a proxy's or a server's, not the API's.
 */
export function isGoneAnswer(
	spec: RequestSpec,
	status: number,
	attempt: number,
	kind: Answer['kind'],
): boolean {
	if (status !== 404) return false;
	return (
		(attempt > 1 && spec.method === 'DELETE') || (spec.absentIsAnswer === true && kind === 'json')
	);
}

const FAILURE_STATUS = new Set(['error', 'fail', 'failed', 'failure']);
/** The flags that said it failed; the message is looked for in the rest. */
const STATUS_FLAGS = new Set(['success', 'ok', 'status']);

/**
 * Some services answer 200 and say in the body that the call failed. Returns the failure's message
 * when the body says so, undefined for a normal body.
 */
export function failureInBody(body: unknown): string | undefined {
	if (!isDataObject(body)) return undefined;
	const status = typeof body.status === 'string' ? body.status.toLowerCase() : undefined;
	const saysFailed =
		body.success === false ||
		body.ok === false ||
		(status !== undefined && FAILURE_STATUS.has(status)) ||
		(body.error !== undefined &&
			body.error !== null &&
			body.error !== false &&
			body.error !== '' &&
			!('data' in body) &&
			!('id' in body) &&
			!('response' in body && body.success === true));
	if (!saysFailed) return undefined;
	const rest = Object.fromEntries(Object.entries(body).filter(([key]) => !STATUS_FLAGS.has(key)));
	return extractErrorMessage(rest) ?? 'the service reported a failure without a message';
}

/** An answer that the node reads alone and that is neither a failure nor empty: handed on unmasked. */
const isForNode = (value: unknown) =>
	typeof value === 'object' && value !== null && failureInBody(value) === undefined;

function readJson(
	value: unknown,
	text: string,
	read: boolean,
	where: string,
	mask: SecretMask,
	noRecord: (what: string) => Success,
	notDone: string,
): Success {
	if (value === null) return read ? noRecord('null') : { ok: true, value: undefined };
	if (value === false)
		return {
			ok: false,
			message: `The service answered ${where} with false`,
			hintFor: value,
			after: notDone,
		};
	if (read && typeof value !== 'object')
		return noRecord(`a bare value (${clipText(mask.text(String(value)))})`);
	const tokenMasked = mask.mayBeInJson(text) ? mask.value(value) : value;
	// Before the failure test: a body that says it failed is quoted in the error, which is execution data too.
	const masked = holdsSecretField(tokenMasked) ? maskSecretFields(tokenMasked) : tokenMasked;
	const failure = failureInBody(masked);
	if (failure !== undefined)
		return {
			ok: false,
			message: `The service reported a failure for ${where}: ${failure}`,
			body: masked,
			hintFor: masked,
		};
	return { ok: true, value: masked };
}
