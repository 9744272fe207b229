import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ListName } from '../transport/calls';
import type { PageRequest, PaginationSettings } from '../transport/pagination/styles';
import type { SupportChatClient } from '../transport/request';
import { isDataObject, isJsonObject } from '../shared/json';
import { DEFAULT_PAGINATION } from '../transport/pagination/styles';
import { PageShapeError } from '../transport/pagination/reading';
import { fetchPage } from '../transport/pagination/loop';
import { INTERACTIVE_CLIENT_SETTINGS } from '../transport/limits';
import { connect } from '../apis';
import { conversationSummary, userSummary, tagName } from '../actions/simplify';

type ToItem = (record: IDataObject) => INodeListSearchItems | undefined;

/** The token is text the editor hands back: it must be a page request as this node wrote it. */
function parseToken(token: string): PageRequest | undefined {
	let value: unknown;
	try {
		value = JSON.parse(token);
	} catch {
		return undefined;
	}
	if (!isDataObject(value) || !isDataObject(value.qs)) return undefined;
	const { path, url, qs } = value;
	if (
		(path !== undefined && typeof path !== 'string') ||
		(url !== undefined && typeof url !== 'string')
	)
		return undefined;
	return { path, url, qs };
}

/** With a filter, pages are read until this many entries match, or the list ends. */
const FILTERED_ENTRIES = 20;
/** ...but never more pages than this per call, nor for longer: the editor asks for more when the user scrolls. */
const FILTERED_PAGES_PER_CALL = 10;
const FILTERED_MS_PER_CALL = 5_000;

/** One page of the list; an answer that is no page is explained, the token masked in what it quotes. */
async function readPage(
	ctx: ILoadOptionsFunctions,
	client: SupportChatClient,
	request: PageRequest,
	settings: PaginationSettings,
) {
	try {
		return (await fetchPage(client, request, settings)).reading;
	} catch (error) {
		// The answer is quoted in the message, and a service may echo the token in it.
		if (error instanceof PageShapeError)
			throw new NodeOperationError(ctx.getNode(), client.mask.text(error.message));
		// The client's errors are NodeApiErrors already; re-wrapping hands them back unchanged.
		throw isJsonObject(error) ? new NodeApiError(ctx.getNode(), error) : error;
	}
}

/** A page's records as entries, those the filter names. */
function matches(items: unknown[], toItem: ToItem, needle: string): INodeListSearchItems[] {
	return items
		.filter(isDataObject)
		.map(toItem)
		.filter((item): item is INodeListSearchItems => item !== undefined)
		.filter((item) => needle === '' || `${item.name} ${item.value}`.toLowerCase().includes(needle));
}

/**
 * The editor's "From list" pages through the same pagination machinery as Get Many; the next request
 * travels as the pagination token. The spec documents no search parameter, so the filter is applied
 * here, and with a filter one call reads on until it has a page's worth of matches: the editor loads
 * more only when its list is scrolled, so matches on later pages would otherwise never show.
 */
function searchList(list: ListName, toItem: ToItem) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		const client = await connect(this, 0, { settings: INTERACTIVE_CLIENT_SETTINGS });
		const settings = client.wire.pagination(DEFAULT_PAGINATION);
		let request = paginationToken
			? parseToken(paginationToken)
			: client.wire.firstPage(client, list, {}, settings);
		if (!request)
			throw new NodeOperationError(this.getNode(), 'The list could not be continued; reopen it');
		const needle = filter?.trim().toLowerCase() ?? '';
		const results: INodeListSearchItems[] = [];
		const readUntil = Date.now() + FILTERED_MS_PER_CALL;
		const asked = new Set<string>();
		for (let pages = 0; request && pages < (needle === '' ? 1 : FILTERED_PAGES_PER_CALL); pages++) {
			// A service whose next page is one already read would fill the list with copies.
			const key = JSON.stringify(request);
			if (asked.has(key)) {
				throw new NodeOperationError(
					this.getNode(),
					'The service named a page already read as the next one; the list ends here',
					{
						description: 'Its pagination goes in a circle. Choose the record By ID instead.',
					},
				);
			}
			asked.add(key);
			const reading = await readPage(this, client, request, settings);
			results.push(...matches(reading.items, toItem, needle));
			request = reading.next !== undefined && reading.items.length > 0 ? reading.next : undefined;
			if (results.length >= FILTERED_ENTRIES || Date.now() >= readUntil) break;
		}
		return { results, paginationToken: request ? JSON.stringify(request) : undefined };
	};
}

/** Users, labelled "name <email>". */
export const searchUsers = searchList('users', (record) => {
	const user = userSummary(record);
	if (user.id === undefined) return undefined;
	const label =
		[user.name, user.email && `<${user.email}>`].filter(Boolean).join(' ') || user.phone || user.id;
	return { name: String(label), value: String(user.id) };
});

/** Conversations, labelled "#id · subject · user · status". */
export const searchConversations = searchList('conversations', (record) => {
	const conversation = conversationSummary(record);
	if (conversation.id === undefined) return undefined;
	const who =
		conversation.user_name ??
		conversation.user_email ??
		(conversation.user_id && `user ${conversation.user_id}`);
	const label = [`#${conversation.id}`, conversation.subject, who, conversation.status]
		.filter(Boolean)
		.join(' · ');
	return { name: label, value: String(conversation.id) };
});

/**
 * Existing tags for the Tag picker ("By Name" takes a new one). The list is small and the spec
 * documents no search parameter, so it is fetched whole (a few pages at most) and filtered here.
 */
export async function searchTags(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	// The editor waits on it: the pickers' short, shared settings.
	// A dropdown does not need thousands of entries: a few pages are enough.
	const client = await connect(this, 0, {
		settings: INTERACTIVE_CLIENT_SETTINGS,
		pagination: () => ({ ...DEFAULT_PAGINATION, maxPages: 20 }),
	});
	const items = await client.list({ list: 'tags', query: {}, limit: 500 });
	const names = items
		.map(tagName)
		.filter((name): name is string => typeof name === 'string' && name !== '');
	const needle = filter?.trim().toLowerCase() ?? '';
	const results = [...new Set(names)]
		.filter((name) => needle === '' || name.toLowerCase().includes(needle))
		.sort((a, b) => a.localeCompare(b))
		.map((name) => ({ name, value: name }));
	return { results };
}

/**
 * The pickers of Support Board's own lists: its agents (Assign) and its departments (Update
 * Department). Both lists are short and have no search of their own: read whole, filtered here.
 * With the REST API the wire refuses them, saying so; By ID still works there.
 */

function filtered(items: INodeListSearchItems[], filter?: string): INodeListSearchResult {
	const needle = filter?.trim().toLowerCase() ?? '';
	return {
		results: items.filter(
			(item) => needle === '' || `${item.name} ${item.value}`.toLowerCase().includes(needle),
		),
	};
}

async function answerOf(
	ctx: ILoadOptionsFunctions,
	call: 'listAgents' | 'listDepartments',
): Promise<unknown> {
	const client = await connect(ctx, 0, { settings: INTERACTIVE_CLIENT_SETTINGS });
	return (await client.call(call, {})).answer;
}

/** Agents and admins, labelled "name <email> (admin)". */
export async function searchAgents(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const rows = await answerOf(this, 'listAgents');
	const items = (Array.isArray(rows) ? rows.filter(isDataObject) : [])
		.filter((row) => row.id !== undefined && row.id !== null)
		.map((row) => {
			const name = [row.first_name, row.last_name]
				.filter((part) => typeof part === 'string' && part !== '')
				.join(' ');
			const label = [
				name || `#${String(row.id)}`,
				typeof row.email === 'string' && row.email !== '' ? `<${row.email}>` : '',
				typeof row.user_type === 'string' ? `(${row.user_type})` : '',
			]
				.filter(Boolean)
				.join(' ');
			return { name: label, value: String(row.id) };
		});
	return filtered(items, filter);
}

/**
 * Departments, by name. The product keeps them in its settings and get-departments answers them by
 * id (`{"2": {name, color, image}}`, or a list when the ids are 0, 1, 2…); with none set it answers [].
 */
export async function searchDepartments(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const answer = await answerOf(this, 'listDepartments');
	const entries = Array.isArray(answer)
		? answer.map((value, index) => [String(index), value] as const)
		: isDataObject(answer)
			? Object.entries(answer)
			: [];
	const items = entries
		.filter((entry): entry is readonly [string, IDataObject] => isDataObject(entry[1]))
		.map(([id, department]) => ({
			name:
				typeof department.name === 'string' && department.name !== '' ? department.name : `#${id}`,
			value: id,
		}));
	if (items.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Support Board has no departments', {
			description:
				'Add them in Support Board (Settings, Miscellaneous, Departments), or choose By ID and type the department ID.',
		});
	}
	return filtered(items, filter);
}
const joined = (value: unknown): string =>
	Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(', ') : '';

/**
 * One template of whatsapp-get-templates' list, as the admin area lists them (js/admin.js): Twilio's by
 * Content SID; the Cloud API's by name, approved ones only, with their languages and number's label.
 */
function templateItem(provider: unknown, row: IDataObject): INodeListSearchItems | undefined {
	if (provider === 'twilio') {
		if (typeof row.sid !== 'string' || row.sid === '') return undefined;
		const name = typeof row.friendly_name === 'string' ? row.friendly_name : row.sid;
		return { name, value: row.sid };
	}
	if (typeof row.name !== 'string' || row.name === '') return undefined;
	if (row.status !== undefined && row.status !== 'APPROVED') return undefined;
	const languages = joined(row.languages) || (typeof row.language === 'string' ? row.language : '');
	const label = typeof row.label === 'string' && row.label !== '' ? ` · ${row.label}` : '';
	return {
		name: `${row.name}${languages === '' ? '' : ` (${languages})`}${label}`,
		value: row.name,
	};
}

/**
 * WhatsApp templates (Support Board 3.8.9 or later): whatsapp-get-templates answers `[provider, list]`,
 * or Graph's error in place of the list. On 3.8.7 the wire says the function came in 3.8.9.
 */
export async function searchWhatsAppTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await connect(this, 0, { settings: INTERACTIVE_CLIENT_SETTINGS });
	const { answer } = await client.call('listWhatsAppTemplates', {});
	const [provider, list] = Array.isArray(answer) ? answer : [undefined, answer];
	if (!Array.isArray(list)) {
		const error = isDataObject(list) && isDataObject(list.error) ? list.error.message : list;
		// Graph may quote a token in its error: masked by shape before the cut.
		const said = client.mask.quote(
			typeof error === 'string' ? error : String(JSON.stringify(error)),
			300,
		);
		throw new NodeOperationError(
			this.getNode(),
			`Support Board could not list the WhatsApp templates: ${said}`,
			{ description: "Check Support Board's WhatsApp settings, or choose By Name." },
		);
	}
	const items = list
		.filter(isDataObject)
		.map((row) => templateItem(provider, row))
		.filter((item): item is INodeListSearchItems => item !== undefined);
	return filtered(items, filter);
}
