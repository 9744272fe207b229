import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Api } from './types';
import { rest } from './rest';
import { supportBoard } from './supportBoard';
import type { ClientContext } from '../transport/types';
import { CREDENTIALS_TYPE } from '../transport/types';
import type { ClientSettings } from '../transport/limits';
import { DEFAULT_CLIENT_SETTINGS, RateLimiter } from '../transport/limits';
import { DEFAULT_PAGINATION } from '../transport/pagination/styles';
import type { PaginationSettings } from '../transport/pagination/styles';
import type { RequestGate } from '../transport/request';
import { SupportChatClient } from '../transport/request';

/**
 * The APIs by the value of the credentials' API option (`api`), each looked up once per client (by
 * `connect`): every difference between them lives in its row, never in an `if` elsewhere.
 */
const APIS: Readonly<Record<string, Api>> = { rest, supportBoard };

/** The credentials' API; credentials saved before the API could be chosen have none: they are REST. */
function apiOf(credentials: ICredentialDataDecryptedObject): Api {
	const chosen = credentials.api;
	return typeof chosen === 'string' && Object.hasOwn(APIS, chosen) ? APIS[chosen] : rest;
}

interface ConnectOptions {
	settings?: ClientSettings;
	/**
	 * One limiter shared by the clients of an execution, so the ceiling holds across items; null when
	 * the execution has none. Without it, the client has one only when its settings set a ceiling.
	 */
	limiter?: RateLimiter | null;
	gate?: RequestGate;
	/** The user's pagination options for `list`, read when a list is asked for; the defaults without. */
	pagination?: () => PaginationSettings;
}

/**
 * The client for the credentials of `itemIndex`: the credentials read once, their API looked up once in
 * the table of APIs (APIS, above), and the Base URL turned by that API's wire into where requests go (or
 * refused, before any). The client carries the whole row, so the poll trigger finds its finder there.
 */
export async function connect(
	ctx: ClientContext,
	itemIndex: number,
	options: ConnectOptions = {},
): Promise<SupportChatClient<Api>> {
	const {
		settings = DEFAULT_CLIENT_SETTINGS,
		gate,
		pagination = () => DEFAULT_PAGINATION,
		// Requests per Second is read first: without a ceiling, no limiter runs.
		limiter = settings.requestsPerSecond > 0 ? new RateLimiter(settings.requestsPerSecond) : null,
	} = options;
	const credentials = await ctx.getCredentials(CREDENTIALS_TYPE, itemIndex);
	const api = apiOf(credentials);
	const base = api.wire.endpoint(credentials.baseUrl, credentials.allowHttp === true);
	if (!base.ok) throw new NodeOperationError(ctx.getNode(), base.message, { itemIndex });
	return new SupportChatClient({
		ctx,
		api,
		baseUrl: base.url,
		credentials,
		settings,
		limiter: limiter ?? undefined,
		itemIndex,
		gate,
		pagination,
	});
}
