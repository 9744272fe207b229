import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INode,
} from 'n8n-workflow';

import type { Answer } from './answer';

export interface RequestSpec {
	method: IHttpRequestMethods;
	/** Path under the base URL, e.g. `/users/42`. */
	path?: string;
	/** Absolute or relative URL given by the service itself (a next-page link). */
	url?: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** A body sent as these bytes with this Content-Type (a multipart upload) instead of `body` as JSON. */
	upload?: { bytes: Buffer; contentType: string };
	/** Names the record in a 404 hint ("The user was not found"); a list has none. */
	resourceLabel?: string;
	/** Whether the answer must hold a record or a list; by default, whether the method reads. */
	read?: boolean;
	/** Whether repeating the request has no second effect; by default, by the method (./retry). */
	repeatable?: boolean;
	/** How messages name the request; by default its method and path. */
	label?: string;
	/** The hint for a refusal, where the API has a better one than the status gives. */
	hint?: (status: number | undefined, body: unknown) => string | undefined;
	/**
	 * A 404 in JSON is an answer, handed back with no body, not a failure: a page the node guessed at
	 * that the service says does not exist.
	 */
	absentIsAnswer?: boolean;
	/**
	 * The answer is read by the node alone and reaches no item nor message (the settings row the
	 * self-set-up trigger writes back whole): it is handed on as received, secrets and all, since a
	 * masked copy written back would replace them. A failure it reports is masked as ever.
	 */
	forNodeOnly?: boolean;
}

export interface ApiResponse {
	status: number;
	headers: Record<string, string>;
	body: unknown;
	url: string;
}

/** Methods that read: their answer must hold a record or a list, and they follow a same-origin redirect. */
export const METHODS_THAT_READ: ReadonlySet<IHttpRequestMethods> = new Set(['GET', 'HEAD']);

export const CREDENTIALS_TYPE = 'supportChatApi';

/**
 * The part of n8n's context the client uses. An execution or a list lookup is one; the credential test,
 * whose context has only the legacy `request` helper, builds one in ./credentialTest.
 */
export interface ClientContext {
	getNode(): INode;
	getCredentials(type: string, itemIndex?: number): Promise<ICredentialDataDecryptedObject>;
	helpers: {
		httpRequestWithAuthentication(
			credentialsType: string,
			requestOptions: IHttpRequestOptions,
			additionalCredentialOptions?: IAdditionalCredentialOptions,
		): Promise<unknown>;
	};
}

interface FullResponse {
	body: unknown;
	headers: Record<string, unknown>;
	statusCode: number;
}

/** What one HTTP exchange answered, before its body is read. */
interface Sent {
	status: number;
	headers: Record<string, string>;
	body: unknown;
}

/**
 * One request through n8n's helper, as the client sends every one: the body as a stream (read under the
 * client's own bounds), every status handed back, redirects never followed by the helper (it would carry
 * the token wherever a Location points), and the credentials read once by connect(): without them n8n
 * decrypts them again for every request, which is most of a page's cost on a long list.
 */
export async function send(
	ctx: ClientContext,
	credentials: ICredentialDataDecryptedObject,
	spec: RequestSpec,
	url: string,
	{ first, timeoutMs }: { first: boolean; timeoutMs: number },
): Promise<Sent> {
	const raw = (await ctx.helpers.httpRequestWithAuthentication.call(
		ctx,
		CREDENTIALS_TYPE,
		{
			method: spec.method,
			url,
			// A redirect's Location is a whole URL: the query is not sent again.
			qs: first ? spec.qs : undefined,
			body: spec.upload?.bytes ?? spec.body,
			json: spec.upload === undefined,
			headers: spec.upload === undefined ? undefined : { 'content-type': spec.upload.contentType },
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
			timeout: timeoutMs,
		},
		{ credentialsDecrypted: { id: '', name: '', type: CREDENTIALS_TYPE, data: credentials } },
	)) as FullResponse;
	return { status: raw.statusCode, headers: flattenHeaders(raw.headers), body: raw.body };
}

export interface Exchange {
	status: number;
	headers: Record<string, string>;
	bytes: Buffer;
	url: string;
}

export function flattenHeaders(
	headers: Record<string, unknown> | undefined,
): Record<string, string> {
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

/** Lets go of a body the node will not read (a redirect's), so its connection is not held open. */
export function discard(body: unknown): void {
	const stream = body as { destroy?: () => void } | null | undefined;
	if (stream && typeof stream.destroy === 'function') stream.destroy();
}

const SSRF_REFUSALS: ReadonlySet<unknown> = new Set([
	'SsrfBlockedIpError',
	'SsrfBlockedHostnameError',
]);

/**
 * n8n 2.x's SSRF protection refuses an address before any request (@n8n/backend-network's
 * SsrfBlockedIpError, SsrfBlockedHostnameError, handed over as the cause of a NodeApiError); told by
 * name, since a community package cannot import n8n's classes.
 */
export function isSsrfRefusal(error: unknown): boolean {
	const named = (value: unknown) =>
		typeof value === 'object' &&
		value !== null &&
		SSRF_REFUSALS.has((value as { name?: unknown }).name);
	return named(error) || (error instanceof Error && named(error.cause));
}
