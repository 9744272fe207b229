import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { maskUrlsIn } from '../shared/quotedUrls';
import type { SecretMask } from '../shared/secrets';
import { cut } from '../shared/text';
import { AnswerDeadlineError, AnswerTooLargeError } from './answer';
import { UNREACHABLE_HINT, extractErrorMessage } from './errors';
import type { RequestSpec } from './exchange';
import { isSsrfRefusal } from './exchange';
import type { ClientSettings } from './limits';
import type { AttemptOutcome } from './retry';

/**
 * How the client explains what went wrong: an exchange that threw, a failure the retry rule gave up on,
 * and the API error every explanation becomes, the token masked in its message, description and body.
 */

const MEGABYTE = 1024 * 1024;

/** An attempt that failed in a way the retry rule decides on: its outcome, the error body or the network's word. */
export interface Failed {
	outcome: AttemptOutcome;
	body?: unknown;
	message?: string;
}

/** What an explanation needs of the client. */
export interface Explaining {
	node: INode;
	mask: SecretMask;
	itemIndex: number;
	settings: ClientSettings;
	/** The API's own hint, else the wire's word that this is no API of its kind, else the status's. */
	hint(spec: RequestSpec, status: number | undefined, body: unknown): string;
}

/**
 * Text for an error: the secrets masked (./shared/secrets), then every URL it quotes (the service's, a
 * channel's, another consumer's) by the one rule for URLs (./shared/quotedUrls).
 */
export const maskedForError = (mask: SecretMask, text: string) => maskUrlsIn(mask.text(text));

/** An API failure as the user sees it, the token masked. */
export function apiError(
	client: Explaining,
	status: number | undefined,
	message: string,
	extra: { description: string; body?: unknown },
): NodeApiError {
	const error = new NodeApiError(client.node, { status: status ?? null } as JsonObject, {
		message: maskedForError(client.mask, message),
		description: maskedForError(client.mask, extra.description),
		httpCode: status === undefined ? undefined : String(status),
		itemIndex: client.itemIndex,
	});
	// Marks the error as already explained, so the retry loop does not mistake it for a network failure.
	error.context.supportChat = true;
	if (extra.body !== undefined) {
		const text = typeof extra.body === 'string' ? extra.body : (JSON.stringify(extra.body) ?? '');
		error.context.responseBody = cut(maskedForError(client.mask, text), 2000);
	}
	return error;
}

/** An exchange that threw: explained and final, or a network failure the retry rule decides on. */
export function explainThrown(
	client: Explaining,
	error: unknown,
	where: string,
	url: string,
): Failed {
	if (error instanceof NodeOperationError) throw new NodeOperationError(client.node, error);
	// Already explained: handed on as it is.
	if (error instanceof NodeApiError && error.context.supportChat) throw error;
	if (error instanceof AnswerTooLargeError) {
		// Not retried: the same request would bring the same answer.
		throw apiError(
			client,
			undefined,
			`The service's answer to ${where} was larger than Max Response Size (${client.settings.maxResponseBytes / MEGABYTE} MB); stopped reading it`,
			{
				description:
					'A list page or a record is normally far smaller. Raise Options → Max Response Size (MB) if the answer really is that large, or lower Options → Pagination Page Size; otherwise the service (or a proxy) is sending something it should not.',
			},
		);
	}
	if (isSsrfRefusal(error)) {
		// Not retried: n8n refuses the address itself, every time.
		const host = new URL(url).hostname;
		throw apiError(
			client,
			undefined,
			`n8n's SSRF protection refused ${where}: ${(error as Error).message}`,
			{
				description: `${host} is a private or loopback address, which n8n does not reach while N8N_SSRF_PROTECTION_ENABLED is on. If your service really runs there, ask your n8n administrator to allow it with N8N_SSRF_ALLOWED_HOSTNAMES=${host} (or N8N_SSRF_ALLOWED_IP_RANGES with its address range) and restart n8n.`,
			},
		);
	}
	const message =
		error instanceof AnswerDeadlineError
			? `the answer did not arrive in full within Timeout (${client.settings.timeoutMs / 1000} s)`
			: (error as Error).message;
	return { outcome: { kind: 'network' }, message };
}

/** The error of a failure the retry rule gave up on. */
export function failedError(
	client: Explaining,
	spec: RequestSpec,
	where: string,
	failure: Failed,
	retries: string,
): NodeApiError {
	const { outcome } = failure;
	if (outcome.kind === 'network') {
		return apiError(
			client,
			undefined,
			`Could not reach the service for ${where}: ${failure.message ?? 'no answer'}${retries}`,
			{ description: UNREACHABLE_HINT },
		);
	}
	// Masked before the message is cut out of it: a token across the cut would no longer match whole.
	const maskedBody = client.mask.value(failure.body);
	const serviceMessage = extractErrorMessage(maskedBody) ?? `HTTP ${outcome.status}`;
	return apiError(
		client,
		outcome.status,
		`The service answered ${where} with ${outcome.status}: ${serviceMessage}${retries}`,
		{
			description: client.hint(spec, outcome.status, maskedBody),
			body: maskedBody,
		},
	);
}
