import type { IDataObject } from 'n8n-workflow';

import { isDataObject } from '../../shared/json';
import { normalizeBaseUrl } from '../../transport/baseUrl';
import type { Calls, CallName, CallResult, ListName } from '../../transport/calls';
import type { PageRequest } from '../../transport/pagination/styles';
import type { RequestSpec } from '../../transport/types';
import type { Wire, WirePort } from '../../transport/wire';
import type { RestRefusal } from './refusals';
import { REST_REFUSALS, refusedInput } from './refusals';

const id = encodeURIComponent;

/** A request of the REST API, and what it sends (the body, or nothing). */
type Route<K extends CallName> = (args: Calls[K]) => RequestSpec & { body?: IDataObject };

/** Every call as the service description's REST paths (§4) put it, or refused where they have none (./refusals). */
const ROUTES: { [K in CallName]: Route<K> | RestRefusal } = {
	getUser: (a) => ({ method: 'GET', path: `/users/${id(a.id)}`, resourceLabel: 'user' }),
	createUser: (a) => ({
		method: 'POST',
		path: '/users',
		body: { ...a.fields, ...a.extra },
		resourceLabel: 'user',
	}),
	updateUser: (a) => ({
		method: 'PUT',
		path: `/users/${id(a.id)}`,
		body: { ...a.fields, ...a.extra },
		resourceLabel: 'user',
	}),
	deleteUser: (a) => ({ method: 'DELETE', path: `/users/${id(a.id)}`, resourceLabel: 'user' }),
	getConversation: (a) => ({
		method: 'GET',
		path: `/conversations/${id(a.id)}`,
		resourceLabel: 'conversation',
	}),
	createConversation: (a) => ({
		method: 'POST',
		path: '/conversations',
		body: { ...a.fields, ...a.extra },
		resourceLabel: 'conversation',
	}),
	assignConversation: (a) => ({
		method: 'POST',
		path: `/conversations/${id(a.id)}/assign`,
		body: { [a.assigneeField]: a.assignee, ...a.extra },
		resourceLabel: 'conversation',
	}),
	closeConversation: (a) => ({
		method: 'POST',
		path: `/conversations/${id(a.id)}/close`,
		body: { ...a.extra },
		resourceLabel: 'conversation',
	}),
	sendMessage: (a) => ({
		method: 'POST',
		path: '/messages',
		body: {
			conversation_id: a.conversationId,
			message: a.message,
			type: a.type,
			...(a.senderId === undefined ? {} : { sender_id: a.senderId }),
			...a.extra,
		},
		resourceLabel: 'conversation',
	}),
	addTag: (a) => ({
		method: 'POST',
		path: '/tags',
		body: { user_id: a.userId, tag: a.tag, ...a.extra },
		resourceLabel: 'user',
	}),
	...REST_REFUSALS,
};

const LIST_PATHS: Readonly<Record<ListName, string>> = {
	users: '/users',
	conversations: '/conversations',
	tags: '/tags',
};

/** Where REST mode meets Support Board: the hint that names the credentials' other API. */
const SUPPORT_BOARD_HINT =
	"This looks like Support Board's Web API: choose Support Board Web API under API in the Support Chat API credentials, with your Support Board's address as Base URL.";

/** Support Board's error codes: lower-case words joined by hyphens (missing-function-name, invalid-token). */
const ERROR_CODE = /^[a-z]+(?:-[a-z]+)+$/;

/**
 * Whether a typed Base URL or an error body is Support Board's: an address ending in api.php, or its
 * error envelope `{"status":"error","response":"<code>"}`.
 */
function looksLikeSupportBoard(value: unknown): boolean {
	if (typeof value === 'string') {
		let path = value.trim().split(/[?#]/, 1)[0].toLowerCase();
		while (path.endsWith('/')) path = path.slice(0, -1);
		return path.endsWith('/api.php');
	}
	if (!isDataObject(value) || value.status !== 'error') return false;
	const code = value.response;
	return typeof code === 'string' && code.length <= 64 && ERROR_CODE.test(code);
}

export const restWire: Wire = {
	endpoint: (typed, allowHttp) => {
		if (typeof typed === 'string' && looksLikeSupportBoard(typed))
			return { ok: false, message: SUPPORT_BOARD_HINT };
		return normalizeBaseUrl(typed, allowHttp);
	},

	async call(port: WirePort, name, args): Promise<CallResult> {
		const route = ROUTES[name];
		if ('refuse' in route) throw port.refuse(route.refuse);
		const refused = refusedInput(name, args);
		if (refused !== undefined) throw port.refuse(refused);
		const spec = (route as Route<typeof name>)(args);
		const answer = (await port.request(spec)).body;
		return { answer, sent: isDataObject(spec.body) ? spec.body : {} };
	},

	read: async (port, path, query) => (await port.request({ method: 'GET', path, qs: query })).body,

	firstPage(_port, list, query, settings): PageRequest {
		const qs: IDataObject = { ...query };
		if (settings.pageSize > 0) qs[settings.limitParam] = settings.pageSize;
		if (settings.style === 'page' && settings.firstPage !== 1)
			qs[settings.pageParam] = settings.firstPage;
		return { path: LIST_PATHS[list], qs };
	},

	pagination: (settings) => settings,

	pageSpec: (port, page, relativeTo) => ({
		method: 'GET',
		path: page.path,
		url: page.url === undefined ? undefined : port.resolveUrl({ url: page.url }, relativeTo),
		qs: page.qs,
	}),

	async probe(port) {
		await port.request({ method: 'GET', path: LIST_PATHS.tags });
	},

	/** A refusal in Support Board's words: the REST paths are not there, its Web API is. */
	notThisApi: (_status, body) => (looksLikeSupportBoard(body) ? SUPPORT_BOARD_HINT : undefined),

	pastTheEndMayBe404: true,
};
