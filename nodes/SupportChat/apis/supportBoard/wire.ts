import type { IDataObject } from 'n8n-workflow';

import { isDataObject } from '../../shared/json';
import { parseServiceUrl } from '../../transport/baseUrl';
import type { CallName, CallResult, Calls, ListName } from '../../transport/calls';
import type { PageRequest, PaginationSettings } from '../../transport/pagination/styles';
import type { Wire, WirePort } from '../../transport/wire';
import { ANY_FUNCTION_CALLS } from './anyFunction';
import { LIFE_CALLS } from './conversationLife';
import { FIND_CALLS } from './find';
import { SEND_CALLS } from './sendMessage';
import { SETTINGS_CALLS } from './settings';
import { fn, notFound, unsupported } from './functions';
import { windowOf } from './replyWindow';
import {
	SB_LISTS,
	SUPPORT_BOARD_PAGE_SIZE,
	TAGS_UNSUPPORTED,
	codeHint,
	conversationStatus,
} from './product';

/**
 * Support Board's Web API (board.support docs › API › Web API; its include/api.php): one endpoint,
 * `POST {install}/include/api.php`, with the function's name, the admin token and the arguments in a
 * JSON body, answering `{"success": true, "response": …}`. Learned from the product's public source
 * (3.8.7) and checked against a running copy; see ./functions and ./product for how each function travels and what it answers.
 */

const ENDPOINT = '/include/api.php';

/** The install folder, the SaaS or cloud `/script`, `…/include`, `…/include/api` or the full `…/include/api.php`. */
function endpointPath(path: string): string {
	const lower = path.toLowerCase();
	if (lower.endsWith(ENDPOINT)) return path;
	if (lower.endsWith('/include/api')) return `${path}.php`;
	if (lower.endsWith('/include')) return `${path}/api.php`;
	return `${path}${ENDPOINT}`;
}

/** A user's name as Support Board keeps it: the first word as first name, the rest as last name. */
function splitName(name: string | undefined): IDataObject {
	if (name === undefined) return {};
	const space = name.indexOf(' ');
	return space === -1
		? { first_name: name, last_name: '' }
		: { first_name: name.slice(0, space), last_name: name.slice(space + 1).trim() };
}

type Args = Calls[keyof Calls];

/** The user fields as add-user and update-user read them; the phone is one of the user's extra fields. */
function userArgs(
	port: WirePort,
	fields: Calls['createUser']['fields'],
	extraKey: 'extra' | 'settings_extra',
): IDataObject {
	if (fields.tags !== undefined && fields.tags.length > 0)
		throw unsupported(port, TAGS_UNSUPPORTED);
	const args: IDataObject = { ...splitName(fields.name) };
	if (fields.email !== undefined) args.email = fields.email;
	if (fields.phone !== undefined) args[extraKey] = { phone: [fields.phone, 'Phone'] };
	return args;
}

type Implementation<K extends CallName> = (port: WirePort, args: Calls[K]) => Promise<CallResult>;

/** The argument update-conversation-agent takes the agent in; Assignee Field Name cannot rename it. */
const SUPPORT_BOARD_ASSIGNEE = 'agent_id';

const ASSIGNEE_FIELD_REFUSED = (field: string) =>
	`Support Board takes the assignee as ${SUPPORT_BOARD_ASSIGNEE}, whatever Assignee Field Name says ("${field}"): that option is for the REST API only. Remove Assignee Field Name under Additional Fields (or set it to ${SUPPORT_BOARD_ASSIGNEE})`;

/** `true` answers a write that has nothing more to say: the operation then reports what was sent. */
const done = (answer: unknown): unknown => (answer === true ? {} : answer);

const CALLS: { [K in CallName]: Implementation<K> } = {
	async getUser(port, { id }) {
		const sent = { user_id: id };
		return { answer: notFound(port, await fn.read(port, 'get-user', sent), 'user', id), sent };
	},
	async createUser(port, { fields, extra }) {
		const sent = { ...userArgs(port, fields, 'extra'), ...extra };
		const id = await fn.write(port, 'add-user', sent);
		return { answer: isDataObject(id) ? id : { id, ...sent }, sent };
	},
	async updateUser(port, { id, fields, extra }) {
		const sent = { user_id: id, ...userArgs(port, fields, 'settings_extra'), ...extra };
		return { answer: done(await fn.repeatable(port, 'update-user', sent)), sent };
	},
	async deleteUser(port, { id }) {
		const sent = { user_id: id };
		return { answer: done(await fn.repeatable(port, 'delete-user', sent)), sent };
	},
	async getConversation(port, { id }) {
		const sent = { conversation_id: id };
		const answer = notFound(
			port,
			await fn.read(port, 'get-conversation', sent),
			'conversation',
			id,
		);
		// A WhatsApp, Messenger or Instagram conversation says when its reply window ends, for an IF node.
		const replyWindow = windowOf(answer, Date.now());
		if (replyWindow === undefined || !isDataObject(answer)) return { answer, sent };
		return { answer: { ...answer, replyWindow }, sent };
	},
	async createConversation(port, { fields, extra }) {
		if (fields.user_id === undefined) {
			throw unsupported(
				port,
				'Support Board opens a conversation with a user: set User ID under Fields',
			);
		}
		const sent: IDataObject = {
			user_id: fields.user_id,
			title: fields.subject ?? '',
			...conversationStatus(fields.status),
			...extra,
		};
		const conversation = await fn.write(port, 'new-conversation', sent);
		if (fields.message === undefined) return { answer: conversation, sent };
		// The product opens a conversation empty: the first message is the user's, sent into it.
		const conversationId =
			isDataObject(conversation) && isDataObject(conversation.details)
				? conversation.details.id
				: undefined;
		const message = await fn.write(
			port,
			'send-message',
			{
				user_id: fields.user_id,
				conversation_id: conversationId as string,
				message: fields.message,
			},
			'conversation',
		);
		return {
			answer: { ...(conversation as IDataObject), first_message: message as IDataObject },
			sent: { ...sent, message: fields.message },
		};
	},
	async assignConversation(port, { id, assignee, assigneeField, extra }) {
		if (assigneeField !== SUPPORT_BOARD_ASSIGNEE)
			throw unsupported(port, ASSIGNEE_FIELD_REFUSED(assigneeField));
		const sent = { conversation_id: id, agent_id: assignee, ...extra };
		return {
			answer: done(await fn.write(port, 'update-conversation-agent', sent, 'conversation')),
			sent,
		};
	},
	async closeConversation(port, { id, extra }) {
		const sent = { conversation_id: id, status_code: 3, ...extra };
		return {
			answer: done(await fn.write(port, 'update-conversation-status', sent, 'conversation')),
			sent,
		};
	},
	addTag: async (port) => {
		throw unsupported(port, TAGS_UNSUPPORTED);
	},
	...SEND_CALLS,
	...LIFE_CALLS,
	...FIND_CALLS,
	...ANY_FUNCTION_CALLS,
	...SETTINGS_CALLS,
};

export const supportBoardWire: Wire = {
	endpoint(typed, allowHttp) {
		const parsed = parseServiceUrl(typed, allowHttp, 'https://example.com/supportboard');
		if (!parsed.ok) return parsed;
		return { ok: true, url: `${parsed.origin}${endpointPath(parsed.path)}` };
	},

	call: (port, name, args) =>
		(CALLS[name] as (c: WirePort, a: Args) => Promise<CallResult>)(port, args),

	read: async (port, name, args) => await fn.read(port, name, args),

	firstPage(port, list: ListName, query: IDataObject): PageRequest {
		if (list === 'tags') throw unsupported(port, TAGS_UNSUPPORTED);
		return { qs: { ...SB_LISTS[list].args(query), pagination: 0 } };
	},

	/** The product's pages are known: an index from 0, 100 rows each, the rows under `response`. */
	pagination: (settings: PaginationSettings) => ({
		...settings,
		style: 'page',
		itemsPath: 'response',
		pageParam: 'pagination',
		firstPage: 0,
		pageSize: SUPPORT_BOARD_PAGE_SIZE,
		limitParam: '',
	}),

	pageSpec: (port, page) =>
		fn.spec(port, String(page.qs.function), page.qs, { read: true, repeatable: true }),

	async probe(port) {
		await fn.read(port, 'count-users', {});
	},

	notThisApi: (status, body) => codeHint(status, body),

	pastTheEndMayBe404: false,
};
