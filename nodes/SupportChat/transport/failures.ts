import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { maskUrlsIn } from '../shared/quotedUrls';
import type { SecretMask } from '../shared/secrets';
import { cut } from '../shared/text';
import { AnswerDeadlineError, AnswerTooLargeError } from './exchange';
import { UNREACHABLE_HINT, extractErrorMessage, hintForStatus, isSsrfRefusal } from './errors';
import type { ClientSettings } from './limits';
import type { Refused } from './redirects';
import type { AttemptOutcome } from './retry';
import type { Success } from './success';
import type { RequestSpec } from './types';
import type { Wire } from './wire';
import { thrownField } from '../shared/json';

/**
 * How the client explains what went wrong, from values: an exchange that threw, a redirect refused, a
 * 2xx that says it failed, a failure the retry rule gave up on. Each becomes the API error the user
 * sees, the token masked in its message, description and body; nothing here calls the client.
 */

const MEGABYTE = 1024 * 1024;

/** An attempt that failed in a way the retry rule decides on: its outcome, the error body or the network's word. */
export interface Failed {
	outcome: AttemptOutcome;
	body?: unknown;
	message?: string;
}

/** What every explanation needs: the node, the mask, the item, the bounds it quotes, the API's wire. */
export interface Explainer {
	node: INode;
	mask: SecretMask;
	itemIndex: number;
	settings: ClientSettings;
	wire: Pick<Wire, 'notThisApi'>;
}

/** The API's own hint, else the wire's word that this is no API of its kind, else the status's. */
function hintFor(
	explainer: Explainer,
	spec: RequestSpec,
	status: number | undefined,
	body: unknown,
): string {
	return (
		spec.hint?.(status, body) ??
		explainer.wire.notThisApi(status, body) ??
		hintForStatus(status, spec.resourceLabel)
	);
}

/**
 * Text for an error: the secrets masked (./shared/secrets), then every URL it quotes (the service's, a
 * channel's, another consumer's) by the one rule for URLs (./shared/quotedUrls).
 */
export const maskedForError = (mask: SecretMask, text: string) => maskUrlsIn(mask.text(text));

/** An API failure as the user sees it, the token masked. */
export function apiError(
	explainer: Explainer,
	status: number | undefined,
	message: string,
	extra: { description: string; body?: unknown },
): NodeApiError {
	const error = new NodeApiError(
		explainer.node,
		{ status: status ?? null },
		{
			message: maskedForError(explainer.mask, message),
			description: maskedForError(explainer.mask, extra.description),
			httpCode: status === undefined ? undefined : String(status),
			itemIndex: explainer.itemIndex,
		},
	);
	if (extra.body !== undefined) {
		const text = typeof extra.body === 'string' ? extra.body : (JSON.stringify(extra.body) ?? '');
		error.context.responseBody = cut(maskedForError(explainer.mask, text), 2000);
	}
	return error;
}

/** A redirect the policy of ./redirects refused, with the status it came with. */
export function refusedError(
	explainer: Explainer,
	where: string,
	status: number,
	{ refused, description }: Refused,
): NodeApiError {
	return apiError(
		explainer,
		status,
		`The service answered ${where} with a redirect (${status}) ${refused}`,
		{
			description,
		},
	);
}

/** A 2xx that is a failure by the rule of ./success. */
export function unsuccessfulError(
	explainer: Explainer,
	spec: RequestSpec,
	status: number,
	failure: Extract<Success, { ok: false }>,
): NodeApiError {
	const { message, description, body, hintFor: about, after = '' } = failure;
	return apiError(explainer, status, message, {
		description: description ?? `${hintFor(explainer, spec, status, about)}${after}`,
		body,
	});
}

/**
 * What an exchange threw (n8n's helper, or the reading of the answer): the error that ends the request,
 * or a network failure the retry rule decides on.
 */
export function explainThrown(
	explainer: Explainer,
	error: unknown,
	where: string,
	url: string,
): NodeApiError | NodeOperationError | Failed {
	if (error instanceof NodeOperationError) return new NodeOperationError(explainer.node, error);
	if (error instanceof AnswerTooLargeError) {
		// Not retried: the same request would bring the same answer.
		return apiError(
			explainer,
			undefined,
			`The service's answer to ${where} was larger than Max Response Size (${explainer.settings.maxResponseBytes / MEGABYTE} MB); stopped reading it`,
			{
				description:
					'A list page or a record is normally far smaller. Raise Options → Max Response Size (MB) if the answer really is that large, or lower Options → Pagination Page Size; otherwise the service (or a proxy) is sending something it should not.',
			},
		);
	}
	if (isSsrfRefusal(error)) {
		// Not retried: n8n refuses the address itself, every time.
		const host = new URL(url).hostname;
		return apiError(
			explainer,
			undefined,
			`n8n's SSRF protection refused ${where}: ${String(thrownField(error, 'message'))}`,
			{
				description: `${host} is a private or loopback address, which n8n does not reach while N8N_SSRF_PROTECTION_ENABLED is on. If your service really runs there, ask your n8n administrator to allow it with N8N_SSRF_ALLOWED_HOSTNAMES=${host} (or N8N_SSRF_ALLOWED_IP_RANGES with its address range) and restart n8n.`,
			},
		);
	}
	const message =
		error instanceof AnswerDeadlineError
			? `the answer did not arrive in full within Timeout (${explainer.settings.timeoutMs / 1000} s)`
			: String(thrownField(error, 'message'));
	return { outcome: { kind: 'network' }, message };
}

/** The error of a failure the retry rule gave up on. */
export function failedError(
	explainer: Explainer,
	spec: RequestSpec,
	where: string,
	failure: Failed,
	retries: string,
): NodeApiError {
	const { outcome } = failure;
	if (outcome.kind === 'network') {
		return apiError(
			explainer,
			undefined,
			`Could not reach the service for ${where}: ${failure.message ?? 'no answer'}${retries}`,
			{ description: UNREACHABLE_HINT },
		);
	}
	// Masked before the message is cut out of it: a token across the cut would no longer match whole.
	const maskedBody = explainer.mask.value(failure.body);
	const serviceMessage = extractErrorMessage(maskedBody) ?? `HTTP ${outcome.status}`;
	return apiError(
		explainer,
		outcome.status,
		`The service answered ${where} with ${outcome.status}: ${serviceMessage}${retries}`,
		{
			description: hintFor(explainer, spec, outcome.status, maskedBody),
			body: maskedBody,
		},
	);
}
