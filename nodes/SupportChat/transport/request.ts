import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { SecretMask } from '../shared/secrets';
import { normalizeBaseUrl } from './baseUrl';
import { extractErrorMessage, failureInBody, hintForStatus, redact } from './errors';
import type { Outcome, RetryDecision, RetrySettings } from './retry';
import { decideRetry, parseRetryAfter } from './retry';

export const CREDENTIALS_TYPE = 'supportChatApi';

export type SupportChatContext = IExecuteFunctions | ILoadOptionsFunctions;

export interface ClientSettings extends RetrySettings {
	/** Client-side ceiling on request rate, as the spec recommends (§8); 0 means none. */
	requestsPerSecond: number;
	timeoutMs: number;
}

export const DEFAULT_CLIENT_SETTINGS: ClientSettings = {
	maxAttempts: 4,
	baseDelayMs: 500,
	maxDelayMs: 60_000,
	requestsPerSecond: 0,
	timeoutMs: 60_000,
};

export interface RequestSpec {
	method: IHttpRequestMethods;
	/** Path under the base URL, e.g. `/users/42`. */
	path?: string;
	/** Absolute or relative URL given by the service itself (a next-page link). */
	url?: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** Names the record in a 404 hint ("The user was not found"). */
	resourceLabel?: string;
}

export interface ApiResponse {
	status: number;
	headers: Record<string, string>;
	body: unknown;
	url: string;
}

/**
 * Spaces requests evenly so that no more than `requestsPerSecond` start in any second. One limiter
 * is shared by all items and all pages of an execution, so concurrent page fetches respect it too.
 */
export class RateLimiter {
	private nextSlot = 0;

	constructor(private readonly requestsPerSecond: number) {}

	async wait(): Promise<void> {
		if (!(this.requestsPerSecond > 0)) return;
		const now = Date.now();
		const slot = Math.max(now, this.nextSlot);
		this.nextSlot = slot + 1000 / this.requestsPerSecond;
		if (slot > now) await sleep(slot - now);
	}
}

interface FullResponse {
	body: unknown;
	headers: Record<string, unknown>;
	statusCode: number;
}

function flattenHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
	const flat: Record<string, string> = {};
	if (!headers) return flat;
	const source =
		typeof (headers as { toJSON?: () => Record<string, unknown> }).toJSON === 'function'
			? (headers as { toJSON: () => Record<string, unknown> }).toJSON()
			: headers;
	for (const [key, value] of Object.entries(source)) {
		if (value === undefined || value === null) continue;
		flat[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return flat;
}

type ParsedBody = { ok: true; value: unknown } | { ok: false; text: string };

/** The body is fetched as text so that a broken JSON answer is seen as such, not passed on as a string. */
function parseBody(raw: unknown, contentType: string | undefined): ParsedBody {
	if (raw === undefined || raw === null) return { ok: true, value: undefined };
	if (typeof raw !== 'string') {
		return { ok: true, value: Buffer.isBuffer(raw) ? raw.toString('utf8') : raw };
	}
	const text = raw.trim();
	if (text === '') return { ok: true, value: undefined };
	const looksJson = /^[[{"]/.test(text) || /json/i.test(contentType ?? '');
	if (!looksJson) return { ok: true, value: raw };
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return /json/i.test(contentType ?? '') ? { ok: false, text } : { ok: true, value: raw };
	}
}

function describeRetries(decision: RetryDecision, attempts: number, method: IHttpRequestMethods): string {
	if (decision.retry) return '';
	switch (decision.reason) {
		case 'attempts-exhausted':
			return ` (gave up after ${attempts} attempts)`;
		case 'unsafe-method':
			return ` (${method} not retried: the service may already have done it, and repeating could do it twice)`;
		case 'wait-too-long':
			return ` (the service asked to wait ${Math.ceil((decision.waitMs ?? 0) / 1000)} s, longer than "Max Retry Wait")`;
		default:
			return '';
	}
}

/**
 * The only code that talks HTTP to the service. It normalises the base URL, sends every request
 * through n8n's own authenticated request helper, applies the retry rule of ./retry and the rate
 * limit, parses bodies, and turns every failure into a NodeApiError that says what to change.
 */
export class SupportChatClient {
	/** Masks the API token in every form: whatever reaches a message, a description or an item goes through it. */
	readonly mask: SecretMask;

	private constructor(
		private readonly ctx: SupportChatContext,
		readonly baseUrl: string,
		private readonly credentials: ICredentialDataDecryptedObject,
		private readonly token: string | undefined,
		private readonly settings: ClientSettings,
		private readonly limiter: RateLimiter,
		private readonly itemIndex: number,
	) {
		this.mask = new SecretMask([token]);
	}

	static async connect(
		ctx: SupportChatContext,
		itemIndex: number,
		settings: ClientSettings = DEFAULT_CLIENT_SETTINGS,
		limiter: RateLimiter = new RateLimiter(settings.requestsPerSecond),
	): Promise<SupportChatClient> {
		const credentials = await ctx.getCredentials(CREDENTIALS_TYPE, itemIndex);
		const base = normalizeBaseUrl(credentials.baseUrl, credentials.allowHttp === true);
		if (!base.ok) throw new NodeOperationError(ctx.getNode(), base.message, { itemIndex });
		const token = typeof credentials.apiToken === 'string' ? credentials.apiToken : undefined;
		return new SupportChatClient(ctx, base.url, credentials, token, settings, limiter, itemIndex);
	}

	/**
	 * A next-page link may be absolute or relative. It must stay on the service's own origin: the
	 * bearer token goes with every request, and a link to another host would hand it over.
	 */
	resolveUrl(spec: Pick<RequestSpec, 'path' | 'url'>, relativeTo?: string): string {
		if (spec.url === undefined) return `${this.baseUrl}${spec.path ?? ''}`;
		const resolved = new URL(spec.url, relativeTo ?? `${this.baseUrl}/`);
		const base = new URL(this.baseUrl);
		if (resolved.origin !== base.origin) {
			throw new NodeApiError(
				this.ctx.getNode(),
				{ url: resolved.origin },
				{
					message: `The service's next-page link points to another host (${resolved.host}); the node does not send the API token there`,
					description:
						'Set Options > Pagination > Style to a parameter-based style (page, offset or cursor) so that the node builds page requests itself.',
					itemIndex: this.itemIndex,
				},
			);
		}
		return resolved.toString();
	}

	async request(spec: RequestSpec): Promise<ApiResponse> {
		const url = this.resolveUrl(spec);
		const where = `${spec.method} ${url.slice(this.baseUrl.length) || url}`;
		for (let attempt = 1; ; attempt++) {
			await this.limiter.wait();
			let outcome: Outcome;
			let errorBody: unknown;
			let networkMessage: string | undefined;
			try {
				const raw = (await this.ctx.helpers.httpRequestWithAuthentication.call(
					this.ctx,
					CREDENTIALS_TYPE,
					{
						method: spec.method,
						url,
						qs: spec.qs,
						body: spec.body,
						json: true,
						encoding: 'text',
						returnFullResponse: true,
						ignoreHttpStatusErrors: true,
						timeout: this.settings.timeoutMs,
					},
					// The credentials read once by connect(): without them n8n decrypts them again for
					// every request, which is most of a page's cost on a long list.
					{ credentialsDecrypted: { id: '', name: '', type: CREDENTIALS_TYPE, data: this.credentials } },
				)) as FullResponse;
				const headers = flattenHeaders(raw.headers);
				const parsed = parseBody(raw.body, headers['content-type']);
				const status = raw.statusCode;
				if (status >= 200 && status < 300) {
					if (!parsed.ok) {
						throw this.error(status, `The service answered ${where} with malformed JSON`, {
							description: `The answer began with: ${redact(parsed.text.slice(0, 120), this.token)}. The service may be overloaded or a proxy may have altered the answer; try again, or check the Base URL.`,
							body: parsed.text,
						});
					}
					const failure = failureInBody(parsed.value);
					if (failure !== undefined) {
						throw this.error(status, `The service reported a failure for ${where}: ${failure}`, {
							description: hintForStatus(undefined, spec.resourceLabel),
							body: parsed.value,
						});
					}
					return { status, headers, body: parsed.value, url };
				}
				errorBody = parsed.ok ? parsed.value : parsed.text;
				outcome = {
					kind: 'status',
					status,
					retryAfterMs: parseRetryAfter(headers['retry-after'], Date.now()),
				};
			} catch (error) {
				if (error instanceof NodeOperationError) throw new NodeOperationError(this.ctx.getNode(), error);
				if (error instanceof NodeApiError && error.context.supportChat) {
					// Re-wrapping hands back the same error: it is already explained.
					throw new NodeApiError(this.ctx.getNode(), error as unknown as JsonObject);
				}
				outcome = { kind: 'network' };
				networkMessage = (error as Error).message;
			}

			const decision = decideRetry(spec.method, outcome, attempt, this.settings);
			if (decision.retry) {
				await sleep(decision.delayMs);
				continue;
			}
			const retries = describeRetries(decision, attempt, spec.method);
			if (outcome.kind === 'network') {
				throw this.error(undefined, `Could not reach the service for ${where}: ${networkMessage ?? 'no answer'}${retries}`, {
					description: hintForStatus(undefined),
				});
			}
			const serviceMessage = extractErrorMessage(errorBody) ?? `HTTP ${outcome.status}`;
			throw this.error(outcome.status, `The service answered ${where} with ${outcome.status}: ${serviceMessage}${retries}`, {
				description: hintForStatus(outcome.status, spec.resourceLabel),
				body: errorBody,
			});
		}
	}

	private error(
		status: number | undefined,
		message: string,
		extra: { description: string; body?: unknown },
	): NodeApiError {
		const error = new NodeApiError(
			this.ctx.getNode(),
			{ status: status ?? null } as JsonObject,
			{
				message: redact(message, this.token),
				description: redact(extra.description, this.token),
				httpCode: status === undefined ? undefined : String(status),
				itemIndex: this.itemIndex,
			},
		);
		// Marks the error as already explained, so the retry loop does not mistake it for a network failure.
		error.context.supportChat = true;
		if (extra.body !== undefined) {
			error.context.responseBody = redact(
				typeof extra.body === 'string' ? extra.body.slice(0, 2000) : JSON.stringify(extra.body).slice(0, 2000),
				this.token,
			);
		}
		return error;
	}
}
