import type { IDataObject } from 'n8n-workflow';

import type { CallName, CallResult, Calls, ListName } from './calls';
import type { PageRequest, PaginationSettings } from './pagination/styles';
import type { RequestSpec } from './exchange';
import type { SupportChatClient } from './request';

type BaseUrl = { ok: true; url: string } | { ok: false; message: string };

/**
 * How the calls of ./calls travel for one API. The client (./request) owns what every API shares: the
 * exchange and its bounds, redirects, retries, what a 2xx means, errors and masking. A wire owns the rest:
 * where requests go, how a call and a page are put on the wire, and what the API's answers mean.
 */
export interface Wire {
	/** The API's name as the credentials show it, for messages. */
	readonly title: string;
	/** Turns the Base URL a person typed into the address requests go to, or says what to change. */
	endpoint(typed: unknown, allowHttp: boolean): BaseUrl;
	call<K extends CallName>(client: SupportChatClient, name: K, args: Calls[K]): Promise<CallResult>;
	/** The first page of a list; `settings` are the ones `pagination` returned. */
	firstPage(client: SupportChatClient, list: ListName, query: IDataObject, settings: PaginationSettings): PageRequest;
	/** The user's pagination options, with what this API fixes put over them. */
	pagination(settings: PaginationSettings): PaginationSettings;
	/** How one page is asked for; a relative next-page link is resolved against `relativeTo`. */
	pageSpec(client: SupportChatClient, page: PageRequest, relativeTo?: string): RequestSpec;
	/** The cheapest read that proves the Base URL and the token (the credential test). */
	probe(client: SupportChatClient): Promise<void>;
	/** The hint for a refusal when the Base URL seems to point at no API of this kind, else undefined. */
	notThisApi(status: number | undefined, body: unknown): string | undefined;
}
