import type { ICredentialDataDecryptedObject, IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { SecretMask } from '../shared/secrets';
import type { Answer } from './answer';
import { AnswerDeadlineError, AnswerTooLargeError, classifyAnswer } from './answer';
import { extractErrorMessage, hintForStatus } from './errors';
import type { Api } from './api';
import type { CallName, CallResult, Calls, ListCall } from './calls';
import type { ApiResponse, ClientContext, Exchange, RequestSpec } from './exchange';
import { METHODS_THAT_READ, isSsrfRefusal } from './exchange';
import type { ClientSettings, RateLimiter } from './limits';
import { paginate } from './pagination';
import type { PaginationSettings } from './pagination/styles';
import { exchangeFollowingRedirects } from './redirects';
import type { AttemptOutcome } from './retry';
import { decideRetry, describeRetries, isSafeToRepeat, parseRetryAfter } from './retry';
import { readSuccess } from './success';
import type { Wire, WirePort } from './wire';

const MEGABYTE = 1024 * 1024;

/**
 * Asked before every request the client sends, pages and retries included, right before it goes out:
 * throws to stop (the poll trigger's budget of requests and time).
 */
export type RequestGate = (where: string) => void;

/** An attempt that failed in a way the retry rule decides on: its outcome, the error body or the network's word. */
interface Failed {
	outcome: AttemptOutcome;
	body?: unknown;
	message?: string;
}

/** What ./connect found and made for one client. */
interface ClientInit {
	ctx: ClientContext;
	api: Api;
	/** The typed Base URL as the API's wire turned it. */
	baseUrl: string;
	credentials: ICredentialDataDecryptedObject;
	settings: ClientSettings;
	limiter: RateLimiter;
	itemIndex: number;
	gate?: RequestGate;
	/** The user's pagination options, read when a list is asked for. */
	pagination: () => PaginationSettings;
}

/**
 * The one way to the service: an operation asks it for a call or a list, a poll finder for a list or a
 * read, and the API's wire, given the client as its `WirePort`, sends what they become.
 */
export class SupportChatClient implements WirePort {
	/** Masks the API token in every form: whatever reaches a message, a description or an item goes through it. */
	readonly mask: SecretMask;
	/** The API token, for a wire that sends it in the body; the credentials' `authenticate` sends it otherwise. */
	readonly token: string;
	/** The credentials' API, looked up once by ./connect: its wire, its poll finder. */
	readonly api: Api;
	/** How calls travel for that API. */
	readonly wire: Wire;

	constructor(private readonly init: ClientInit) {
		this.api = init.api;
		this.wire = init.api.wire;
		this.token = typeof init.credentials.apiToken === 'string' ? init.credentials.apiToken : '';
		this.mask = new SecretMask([this.token]);
	}

	/** A call by name: the wire of the credentials' API decides how it travels. */
	async call<K extends CallName>(name: K, args: Calls[K]): Promise<CallResult> {
		return await this.wire.call(this, name, args);
	}

	/** A whole list through the one pagination loop: up to `limit` records, all when it is undefined. */
	async list(call: ListCall): Promise<unknown[]> {
		return (await paginate(this.init.ctx, this, call, this.init.pagination(), this.init.itemIndex))
			.items;
	}

	/** One read by the API's own name for it (see `Wire.read`). */
	async read(name: string, args: IDataObject): Promise<unknown> {
		return await this.wire.read(this, name, args);
	}

	/** Input the API cannot take, found before any request: the user's to change. */
	refuse(message: string, description?: string): NodeOperationError {
		return new NodeOperationError(this.init.ctx.getNode(), this.mask.text(message), {
			itemIndex: this.init.itemIndex,
			description,
		});
	}

	/**
	 * A next-page link may be absolute or relative. It must stay on the service's own origin: the
	 * bearer token goes with every request, and a link to another host would hand it over.
	 */
	resolveUrl(spec: Pick<RequestSpec, 'path' | 'url'>, relativeTo?: string): string {
		if (spec.url === undefined) return `${this.init.baseUrl}${spec.path ?? ''}`;
		const resolved = new URL(spec.url, relativeTo ?? `${this.init.baseUrl}/`);
		const base = new URL(this.init.baseUrl);
		if (resolved.origin !== base.origin) {
			throw new NodeApiError(
				this.init.ctx.getNode(),
				{ url: resolved.origin },
				{
					message: this.mask.text(
						`The service's next-page link points to another host (${resolved.host}); the node does not send the API token there`,
					),
					description:
						'Set Options → Pagination Style to a parameter-based style (Page Number, Offset and Limit, or Cursor) so that the node builds page requests itself.',
					itemIndex: this.init.itemIndex,
				},
			);
		}
		return resolved.toString();
	}

	/**
	 * One request, with the retry rule of ./retry. Every answer is bounded (Max Response Size, and the
	 * Timeout as a deadline for the whole answer, not only for its first byte), redirects are followed
	 * only by reads and only on the service's own origin, and a 2xx counts as a success only by the rule
	 * of `successBody`.
	 */
	async request(spec: RequestSpec): Promise<ApiResponse> {
		const url = this.resolveUrl(spec);
		const where = this.mask.text(
			spec.label ?? `${spec.method} ${url.slice(this.init.baseUrl.length) || url}`,
		);
		const repeatable = spec.repeatable ?? isSafeToRepeat(spec.method);
		for (let attempt = 1; ; attempt++) {
			await this.init.limiter.wait();
			this.init.gate?.(where);
			const tried = await this.attempt(spec, url, where, attempt);
			if ('response' in tried) return tried.response;
			const decision = decideRetry(repeatable, tried.outcome, attempt, this.init.settings);
			if (decision.retry) {
				await sleep(decision.delayMs);
				continue;
			}
			throw this.failed(
				spec,
				where,
				tried,
				describeRetries(decision, attempt, spec.label ?? spec.method),
			);
		}
	}

	/** One attempt: its response, or what went wrong when that may be retried (anything else is thrown). */
	private async attempt(
		spec: RequestSpec,
		url: string,
		where: string,
		attempt: number,
	): Promise<{ response: ApiResponse } | Failed> {
		let answer: Exchange;
		try {
			answer = await this.exchange(spec, url, where);
		} catch (error) {
			return this.thrown(error, where, url);
		}
		const { status, headers } = answer;
		const classified = classifyAnswer(answer.bytes, headers['content-type']);
		if (status >= 200 && status < 300) {
			return {
				response: {
					status,
					headers,
					body: this.successBody(spec, where, status, classified),
					url: answer.url,
				},
			};
		}
		// A delete retried after a failure on the way finds nothing when its first attempt did delete:
		// gone is what was asked, so it is the result, not an error.
		if (status === 404 && attempt > 1 && spec.method === 'DELETE')
			return { response: { status, headers, body: undefined, url: answer.url } };
		return {
			outcome: {
				kind: 'status',
				status,
				retryAfterMs: parseRetryAfter(headers['retry-after'], Date.now()),
			},
			body:
				classified.kind === 'json'
					? classified.value
					: classified.kind === 'empty'
						? undefined
						: classified.text,
		};
	}

	/** An exchange that threw: explained and final, or a network failure the retry rule decides on. */
	private thrown(error: unknown, where: string, url: string): Failed {
		if (error instanceof NodeOperationError)
			throw new NodeOperationError(this.init.ctx.getNode(), error);
		// Already explained: handed on as it is.
		if (error instanceof NodeApiError && error.context.supportChat) throw error;
		if (error instanceof AnswerTooLargeError) {
			// Not retried: the same request would bring the same answer.
			throw this.error(
				undefined,
				`The service's answer to ${where} was larger than Max Response Size (${this.init.settings.maxResponseBytes / MEGABYTE} MB); stopped reading it`,
				{
					description:
						'A list page or a record is normally far smaller. Raise Options → Max Response Size (MB) if the answer really is that large, or lower Options → Pagination Page Size; otherwise the service (or a proxy) is sending something it should not.',
				},
			);
		}
		if (isSsrfRefusal(error)) {
			// Not retried: n8n refuses the address itself, every time.
			const host = new URL(url).hostname;
			throw this.error(
				undefined,
				`n8n's SSRF protection refused ${where}: ${(error as Error).message}`,
				{
					description: `${host} is a private or loopback address, which n8n does not reach while N8N_SSRF_PROTECTION_ENABLED is on. If your service really runs there, ask your n8n administrator to allow it with N8N_SSRF_ALLOWED_HOSTNAMES=${host} (or N8N_SSRF_ALLOWED_IP_RANGES with its address range) and restart n8n.`,
				},
			);
		}
		const message =
			error instanceof AnswerDeadlineError
				? `the answer did not arrive in full within Timeout (${this.init.settings.timeoutMs / 1000} s)`
				: (error as Error).message;
		return { outcome: { kind: 'network' }, message };
	}

	/** The error of a failure the retry rule gave up on. */
	private failed(spec: RequestSpec, where: string, failure: Failed, retries: string): NodeApiError {
		const { outcome } = failure;
		if (outcome.kind === 'network') {
			return this.error(
				undefined,
				`Could not reach the service for ${where}: ${failure.message ?? 'no answer'}${retries}`,
				{
					description: hintForStatus(undefined),
				},
			);
		}
		// Masked before the message is cut out of it: a token across the cut would no longer match whole.
		const maskedBody = this.mask.value(failure.body);
		const serviceMessage = extractErrorMessage(maskedBody) ?? `HTTP ${outcome.status}`;
		return this.error(
			outcome.status,
			`The service answered ${where} with ${outcome.status}: ${serviceMessage}${retries}`,
			{
				description: this.hint(spec, outcome.status, maskedBody),
				body: maskedBody,
			},
		);
	}

	/** One answer, redirects followed by the policy of ./redirects; a refused redirect is explained here. */
	private async exchange(spec: RequestSpec, url: string, where: string): Promise<Exchange> {
		const { timeoutMs, maxResponseBytes } = this.init.settings;
		const answer = await exchangeFollowingRedirects({
			ctx: this.init.ctx,
			credentials: this.init.credentials,
			spec,
			url,
			baseUrl: this.init.baseUrl,
			timeoutMs,
			maxResponseBytes,
		});
		if (!('refused' in answer)) return answer;
		const { status, refused } = answer;
		throw this.error(
			status,
			`The service answered ${where} with a redirect (${status}) ${refused.refused}`,
			{ description: refused.description },
		);
	}

	/** The API's own hint, else the wire's word that this is no API of its kind, else the status's. */
	private hint(spec: RequestSpec, status: number | undefined, body: unknown): string {
		return (
			spec.hint?.(status, body) ??
			this.wire.notThisApi(status, body) ??
			hintForStatus(status, spec.resourceLabel)
		);
	}

	/** A 2xx answer by the rule of ./success: the value handed on, or the failure it is. */
	private successBody(spec: RequestSpec, where: string, status: number, answer: Answer): unknown {
		const read = spec.read ?? METHODS_THAT_READ.has(spec.method);
		const outcome = readSuccess(answer, read, where, this.mask);
		if (outcome.ok) return outcome.value;
		const { message, description, body, hintFor, after = '' } = outcome;
		throw this.error(status, message, {
			description: description ?? `${this.hint(spec, undefined, hintFor)}${after}`,
			body,
		});
	}

	/** An API failure as the user sees it, the token masked; the wires build theirs with it too. */
	error(
		status: number | undefined,
		message: string,
		extra: { description: string; body?: unknown },
	): NodeApiError {
		const error = new NodeApiError(
			this.init.ctx.getNode(),
			{ status: status ?? null } as JsonObject,
			{
				message: this.mask.text(message),
				description: this.mask.text(extra.description),
				httpCode: status === undefined ? undefined : String(status),
				itemIndex: this.init.itemIndex,
			},
		);
		// Marks the error as already explained, so the retry loop does not mistake it for a network failure.
		error.context.supportChat = true;
		if (extra.body !== undefined) {
			const text = typeof extra.body === 'string' ? extra.body : (JSON.stringify(extra.body) ?? '');
			error.context.responseBody = this.mask.quote(text, 2000);
		}
		return error;
	}
}
