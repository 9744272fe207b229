import type { IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { SecretMask } from '../shared/secrets';
import type { CallName, CallResult, Calls, ListName } from './calls';
import type { ApiResponse, RequestSpec } from './types';
import type { PageRequest, PaginationSettings } from './pagination/styles';

type BaseUrl = { ok: true; url: string } | { ok: false; message: string };

/**
 * What a wire needs of the client, and no more: send one request (with the client's retries, bounds
 * and error mapping), the token for an API that sends it in the body, the mask, and the two errors a
 * wire builds (input refused before any request, an API failure).
 */
export interface WirePort {
	readonly token: string;
	readonly mask: SecretMask;
	request(spec: RequestSpec): Promise<ApiResponse>;
	/** A next-page link resolved against `relativeTo`, refused when it leaves the service's origin. */
	resolveUrl(spec: Pick<RequestSpec, 'path' | 'url'>, relativeTo?: string): string;
	refuse(message: string, description?: string): NodeOperationError;
	error(
		status: number | undefined,
		message: string,
		extra: { description: string; body?: unknown },
	): NodeApiError;
}

/**
 * What the client needs of the credentials' API: its wire. An API's row in ../apis brings more (its
 * poll finder), which the client carries for whoever connected it, unread.
 */
export interface WiredApi {
	readonly wire: Wire;
}

/**
 * How the calls of ./calls travel for one API. The client (./request) owns what every API shares: the
 * exchange and its bounds, redirects, retries, what a 2xx means, errors and masking. A wire owns the rest:
 * where requests go, how a call and a page are put on the wire, and what the API's answers mean.
 */
export interface Wire {
	/** Turns the Base URL a person typed into the address requests go to, or says what to change. */
	endpoint(typed: unknown, allowHttp: boolean): BaseUrl;
	call<K extends CallName>(port: WirePort, name: K, args: Calls[K]): Promise<CallResult>;
	/**
	 * One read the API names itself, for a poll finder: REST, a GET of a path with `args` as its query;
	 * Support Board, the function named, as a read (retried, its envelope taken off).
	 */
	read(port: WirePort, name: string, args: IDataObject): Promise<unknown>;
	/** The first page of a list; `settings` are the ones `pagination` returned. */
	firstPage(
		port: WirePort,
		list: ListName,
		query: IDataObject,
		settings: PaginationSettings,
	): PageRequest;
	/** The user's pagination options, with what this API fixes put over them. */
	pagination(settings: PaginationSettings): PaginationSettings;
	/** How one page is asked for; a relative next-page link is resolved against `relativeTo`. */
	pageSpec(port: WirePort, page: PageRequest, relativeTo?: string): RequestSpec;
	/** The cheapest read that proves the Base URL and the token (the credential test). */
	probe(port: WirePort): Promise<void>;
	/** The hint for a refusal when the Base URL seems to point at no API of this kind, else undefined. */
	notThisApi(status: number | undefined, body: unknown): string | undefined;
	/**
	 * Whether a page past the end of a list may be answered with a 404 that says it does not exist
	 * (REST services such as Django REST Framework); Support Board answers an empty list there, so a
	 * 404 from it is never the end of a list.
	 */
	readonly pastTheEndMayBe404: boolean;
}
