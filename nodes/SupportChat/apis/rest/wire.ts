import type { IDataObject } from 'n8n-workflow';

import { isDataObject } from '../../shared/json';
import { normalizeBaseUrl } from '../../transport/baseUrl';
import type { Calls, CallName, CallResult, ListName } from '../../transport/calls';
import type { PageRequest } from '../../transport/pagination/styles';
import type { RequestSpec } from '../../transport/types';
import type { Wire, WirePort } from '../../transport/wire';

/**
 * The calls the service description's REST paths (§4) have no request for: the REST wire refuses them
 * before any request, naming the Support Board function that does it and what to use instead.
 */
export type RestRefusal = { refuse: string };

const HTTP_REQUEST =
	"send the request your service documents with n8n's HTTP Request node, using these credentials";

const onlySupportBoard = (what: string, fn: string, instead = HTTP_REQUEST): RestRefusal => ({
	// All in the message: a continue-on-fail item and an AI Agent's tool see the message only.
	refuse: `The service description has no REST path to ${what}: it exists only in Support Board's Web API (${fn}). For Support Board, choose Support Board Web API in the Support Chat API credentials; with the REST API, ${instead}.`,
});

const REST_REFUSALS = {
	getMessages: onlySupportBoard(
		"list a conversation's messages",
		'get-conversation',
		'use Conversation → Get: the conversation record carries whatever messages your service includes',
	),
	findUser: onlySupportBoard(
		'find a user by e-mail or phone',
		'get-user-by',
		'use User → Get Many with an Extra Query Parameter your service filters by (email, say), or a Filter node after it',
	),
	searchUsers: onlySupportBoard(
		'search users',
		'search-users',
		'use User → Get Many with an Extra Query Parameter your service searches by (search, say), or a Filter node after it',
	),
	searchConversations: onlySupportBoard(
		'search conversations',
		'search-conversations',
		'use Conversation → Get Many with an Extra Query Parameter your service searches by (search, say), or a Filter node after it',
	),
	getUserConversations: onlySupportBoard(
		"list a user's conversations",
		'get-user-conversations',
		'use Conversation → Get Many with an Extra Query Parameter user_id if your service filters by it, or a Filter node on user_id after it',
	),
	addNote: onlySupportBoard('add a note', 'add-note'),
	getNotes: onlySupportBoard('get the notes of a conversation', 'get-notes'),
	deleteNote: onlySupportBoard('delete a note', 'delete-note'),
	updateConversationDepartment: onlySupportBoard(
		"update a conversation's department",
		'update-conversation-department',
	),
	updateConversationStatus: onlySupportBoard(
		"update a conversation's status",
		'update-conversation-status',
	),
	updateConversationTags: onlySupportBoard("update a conversation's tags", 'update-tags'),
	listDepartments: onlySupportBoard(
		'list departments',
		'get-departments',
		'type the department ID',
	),
	listAgents: onlySupportBoard('list agents', 'get-users', 'type the agent ID'),
	callFunction: onlySupportBoard('call a function by name', 'any function you name'),
	sendWhatsAppTemplate: onlySupportBoard(
		'send a WhatsApp template',
		'whatsapp-send-template, with its WhatsApp app',
		"send the template with your WhatsApp provider's own API (Meta's Cloud API, say) through n8n's WhatsApp Business Cloud or HTTP Request node",
	),
	listWhatsAppTemplates: onlySupportBoard(
		'list WhatsApp templates',
		'whatsapp-get-templates, Support Board 3.8.9 or later',
		"choose By Name and type the template's name",
	),
	readServiceSettings: onlySupportBoard(
		"read the service's settings",
		'get-settings',
		"turn off Set Up Webhook in Support Board and paste the trigger's Production URL into your service's dashboard",
	),
	saveServiceSettings: onlySupportBoard(
		"write the service's settings",
		'save-settings',
		"turn off Set Up Webhook in Support Board and paste the trigger's Production URL into your service's dashboard",
	),
} satisfies Partial<Record<CallName, RestRefusal>>;

const NO_ATTACHMENTS = (what: string) =>
	`The service description has no ${what} (§4 sends a message as conversation_id, message, type and sender_id). Support Board's Web API takes attachments; with the REST API, if your service takes files by their address, send them as the Extra Body Field it documents (Additional Fields → Extra Body Fields).`;

/**
 * Inputs of a call the REST paths have no field for, refused before any request: the message's
 * attachments (files from the item's binary data have no upload request either).
 */
export function refusedInput<K extends CallName>(name: K, args: Calls[K]): string | undefined {
	if (name !== 'sendMessage') return undefined;
	const { files, attachmentUrls } = args as Calls['sendMessage'];
	if (files.length > 0)
		return NO_ATTACHMENTS('request to upload a file, nor a field for attachments');
	if (attachmentUrls.length > 0) return NO_ATTACHMENTS("field for a message's attachments");
	return undefined;
}

const id = encodeURIComponent;

/** A request of the REST API, and what it sends (the body, or nothing). */
type Route<K extends CallName> = (args: Calls[K]) => RequestSpec & { body?: IDataObject };

/** Every call as the service description's REST paths (§4) put it, or refused where they have none (above). */
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
