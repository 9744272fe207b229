import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { SecretMask, credentialSecrets } from '../shared/secrets';
import { classifyAnswer, exchange } from './exchange';
import type { CallName, CallResult, Calls, ListCall } from './calls';
import type { Connection, Exchanged } from './exchange';
import type { Explainer, Failed } from './failures';
import {
	apiError,
	explainThrown,
	failedError,
	maskedForError,
	refusedError,
	unsuccessfulError,
} from './failures';
import type { ClientSettings, RateLimiter } from './limits';
import { paginate } from './pagination/loop';
import type { PaginationSettings } from './pagination/styles';
import { decideRetry, describeRetries, isSafeToRepeat, parseRetryAfter } from './retry';
import { isGoneAnswer, readSuccess } from './success';
import type { ApiResponse, RequestSpec } from './types';
import { CREDENTIALS_TYPE, METHODS_THAT_READ } from './types';
import type { Wire, WiredApi, WirePort } from './wire';

/**
 * Asked before every request the client sends, pages and retries included, right before it goes out:
 * throws to stop (the poll trigger's budget of requests and time).
 */
export type RequestGate = (where: string) => void;

/** What ../apis/connect found and made for one client: what its exchanges share (./exchange), and the rest. */
interface ClientInit<A extends WiredApi> extends Connection {
	api: A;
	settings: ClientSettings;
	/** Requests per Second's limiter, shared by an execution's clients; none without a ceiling. */
	limiter?: RateLimiter;
	itemIndex: number;
	gate?: RequestGate;
	/** The user's pagination options, read when a list is asked for. */
	pagination: () => PaginationSettings;
}

/**
 * The Base URL's origin as a download of the service's own files reaches it (../files): the one place
 * the credentials go with a file. Built only when the files feature asks for it.
 */
export interface FileHome {
	baseUrl: string;
	allowHttp: boolean;
	mask(text: string): string;
	sendWithCredentials(options: IHttpRequestOptions): Promise<unknown>;
}

/**
 * The one way to the service: an operation asks it for a call or a list, a poll finder for a list or a
 * read, and the API's wire, given the client as its `WirePort`, sends what they become.
 */
export class SupportChatClient<A extends WiredApi = WiredApi> implements WirePort {
	/** Masks the credentials' secrets and channel tokens: whatever reaches a user goes through it. */
	readonly mask: SecretMask;
	/** The API token, for a wire that sends it in the body; the credentials' `authenticate` sends it otherwise. */
	readonly token: string;
	/** The credentials' API, looked up once by ../apis/connect: its wire, and what else its row brings. */
	readonly api: A;
	/** How calls travel for that API. */
	readonly wire: Wire;

	constructor(private readonly init: ClientInit<A>) {
		this.api = init.api;
		this.wire = init.api.wire;
		this.token = typeof init.credentials.apiToken === 'string' ? init.credentials.apiToken : '';
		this.mask = new SecretMask(credentialSecrets(init.credentials));
	}

	/** Where the service's own files are, for Download Attachments (../files): asked for, never built ahead. */
	fileHome(): FileHome {
		const { ctx, credentials, baseUrl } = this.init;
		return {
			baseUrl,
			allowHttp: credentials.allowHttp === true,
			mask: (text) => this.mask.text(text),
			sendWithCredentials: async (options) =>
				await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIALS_TYPE, options, {
					credentialsDecrypted: { id: '', name: '', type: CREDENTIALS_TYPE, data: credentials },
				}),
		};
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
		return new NodeOperationError(this.init.ctx.getNode(), maskedForError(this.mask, message), {
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
	 * of ./success.
	 */
	async request(spec: RequestSpec): Promise<ApiResponse> {
		const url = this.resolveUrl(spec);
		const where = this.mask.text(
			spec.label ?? `${spec.method} ${url.slice(this.init.baseUrl.length) || url}`,
		);
		for (let attempt = 1; ; attempt++) {
			await this.init.limiter?.wait();
			this.init.gate?.(where);
			const tried = await this.attempt(spec, url, where, attempt);
			if ('response' in tried) return tried.response;
			// The retry rule is asked only once an attempt failed.
			const repeatable = spec.repeatable ?? isSafeToRepeat(spec.method);
			const decision = decideRetry(repeatable, tried.outcome, attempt, this.init.settings);
			if (decision.retry) {
				await sleep(decision.delayMs);
				continue;
			}
			const retries = describeRetries(decision, attempt, spec.label ?? spec.method);
			throw failedError(this.explainer(), spec, where, tried, retries);
		}
	}

	/**
	 * One attempt: its response, or what went wrong when that may be retried (anything else is thrown).
	 * Only what the exchange throws is explained where it is caught; every other failure is a value.
	 */
	private async attempt(
		spec: RequestSpec,
		url: string,
		where: string,
		attempt: number,
	): Promise<{ response: ApiResponse } | Failed> {
		let answer: Exchanged;
		try {
			answer = await exchange(this.init, spec, url);
		} catch (error) {
			const explained = explainThrown(this.explainer(), error, where, url);
			if (explained instanceof Error) throw explained;
			return explained;
		}
		if ('refused' in answer)
			throw refusedError(this.explainer(), where, answer.status, answer.refused);
		const { status, headers } = answer;
		const classified = classifyAnswer(answer.bytes, headers['content-type']);
		if (status >= 200 && status < 300) {
			const read = spec.read ?? METHODS_THAT_READ.has(spec.method);
			const outcome = readSuccess(classified, read, where, this.mask, spec.forNodeOnly === true);
			if (!outcome.ok) throw unsuccessfulError(this.explainer(), spec, status, outcome);
			return { response: { status, headers, body: outcome.value, url: answer.url } };
		}
		// A 404 that is the result, not an error (see isGoneAnswer).
		if (isGoneAnswer(spec, status, attempt, classified.kind))
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

	/** An API failure as the user sees it, the token masked; the wires build theirs with it too. */
	error(
		status: number | undefined,
		message: string,
		extra: { description: string; body?: unknown },
	): NodeApiError {
		return apiError(this.explainer(), status, message, extra);
	}

	/** What the explanations of ./failures are given: values, no way back into this client. */
	private explainer(): Explainer {
		return {
			node: this.init.ctx.getNode(),
			mask: this.mask,
			itemIndex: this.init.itemIndex,
			settings: this.init.settings,
			wire: this.wire,
		};
	}
}
