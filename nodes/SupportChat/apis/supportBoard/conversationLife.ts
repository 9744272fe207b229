import type { IDataObject } from 'n8n-workflow';

import { isDataObject } from '../../shared/json';
import type { CallName, CallResult, Calls } from '../../transport/calls';
import type { WirePort } from '../../transport/wire';
import { fn, notFound, unsupported } from './functions';

/**
 * Notes, department, status and tags of a conversation, and the pickers' reads, as the Web API of
 * Support Board 3.8.7 takes them (messages.php, settings.php, users.php) and answers them on the test
 * bed; update-tags as 3.8.9 adds it.
 */

type LifeCall =
	| 'addNote'
	| 'getNotes'
	| 'deleteNote'
	| 'updateConversationDepartment'
	| 'updateConversationStatus'
	| 'updateConversationTags'
	| 'listDepartments'
	| 'listAgents';

type Implementation<K extends CallName> = (port: WirePort, args: Calls[K]) => Promise<CallResult>;

/**
 * The Status options of Update Status in the product's codes (messages.php, admin.js): 0 live (the
 * inbox; "restore"), 1 answered by an agent and waiting for the user ("mark as read"), 2 waiting for an
 * agent ("mark as unread"). 3 (archived) is Close; 4 (trash) is not offered.
 */
export const STATUS_CODES: Readonly<Record<string, number>> = {
	active: 0,
	waitingForUser: 1,
	pending: 2,
};

/** get-users answers 100 rows a page; a team has rarely more agents than these pages hold. */
const AGENT_PAGES = 10;

/** A user's name as the product shows it: first and last name joined. */
const nameOf = (user: IDataObject) =>
	[user.first_name, user.last_name]
		.filter((part) => typeof part === 'string' && part !== '')
		.join(' ');

/** Every agent and admin, a page (100) at a time: `user_types` is the product's filter of get-users. */
async function agents(port: WirePort): Promise<IDataObject[]> {
	const rows: IDataObject[] = [];
	for (let page = 0; page < AGENT_PAGES; page++) {
		const answer = await fn.read(port, 'get-users', {
			user_types: ['agent', 'admin'],
			pagination: page,
		});
		const list = Array.isArray(answer) ? answer.filter(isDataObject) : [];
		rows.push(...list);
		if (list.length < 100) break;
	}
	return rows;
}

/**
 * The note's author: the id given, else the install's admin (the Web API names no caller, and answers
 * tokens masked, so with several admins the id must be given); the name given, else the author's.
 */
async function author(
	port: WirePort,
	id: string | undefined,
	name: string | undefined,
): Promise<{ user_id: string; name: string }> {
	if (id === undefined) {
		const admins = await fn.read(port, 'get-users', { user_types: ['admin'] });
		const rows = Array.isArray(admins) ? admins.filter(isDataObject) : [];
		if (rows.length !== 1) {
			throw unsupported(
				port,
				`Support Board has ${rows.length} admins, so the note's author is not known: set Author ID under Additional Fields`,
			);
		}
		return { user_id: String(rows[0].id), name: name ?? nameOf(rows[0]) };
	}
	if (name !== undefined) return { user_id: id, name };
	const user = notFound(
		port,
		await fn.read(port, 'get-user', { user_id: id }),
		'user',
		id,
	) as IDataObject;
	return { user_id: id, name: nameOf(user) };
}

/** add-note writes a note for any id, a conversation's or not: the conversation is read first. */
async function conversationExists(port: WirePort, id: string): Promise<void> {
	notFound(
		port,
		await fn.read(port, 'get-user-from-conversation', { conversation_id: id }),
		'conversation',
		id,
	);
}

export const LIFE_CALLS: { [K in LifeCall]: Implementation<K> } = {
	async addNote(port, { conversationId, note, authorId, authorName }) {
		await conversationExists(port, conversationId);
		const sent = {
			conversation_id: conversationId,
			...(await author(port, authorId, authorName)),
			message: note,
		};
		const id = await fn.write(port, 'add-note', sent, 'conversation');
		return { answer: { id, ...sent }, sent };
	},
	async getNotes(port, { conversationId }) {
		const sent = { conversation_id: conversationId };
		const notes = await fn.read(port, 'get-notes', sent);
		const list = Array.isArray(notes) ? notes.filter(isDataObject) : [];
		return { answer: list.map((note) => ({ ...note, conversation_id: conversationId })), sent };
	},
	async deleteNote(port, { conversationId, noteId }) {
		const sent = { conversation_id: conversationId, note_id: noteId };
		// true, or null when it was the conversation's last note (the product then deletes the setting).
		const done = await fn.write(port, 'delete-note', sent, 'conversation');
		if (done === false) {
			throw port.error(
				404,
				`Support Board has no note ${noteId} in conversation ${conversationId}`,
				{
					description:
						'Check both IDs: Get Notes lists the notes of a conversation. Support Board answers false for a note it does not have.',
				},
			);
		}
		return { answer: { ...sent, deleted: true }, sent };
	},
	async updateConversationDepartment(port, { conversationId, department, extra }) {
		const sent = { conversation_id: conversationId, department, ...extra };
		const done = await fn.write(port, 'update-conversation-department', sent, 'conversation');
		return { answer: done === true ? {} : done, sent };
	},
	async updateConversationStatus(port, { conversationId, status, extra }) {
		if (!Object.hasOwn(STATUS_CODES, status)) {
			throw unsupported(
				port,
				`Support Board has no status "${status}" to set: choose Active, Pending or Waiting for User under Status (Close archives)`,
			);
		}
		// The product answers true for a conversation it does not have: read it first.
		await conversationExists(port, conversationId);
		const sent = { conversation_id: conversationId, status_code: STATUS_CODES[status], ...extra };
		const done = await fn.write(port, 'update-conversation-status', sent, 'conversation');
		return { answer: done === true ? {} : done, sent };
	},
	async updateConversationTags(port, { conversationId, tags, add }) {
		const sent = { conversation_id: conversationId, tags, add };
		const done = await fn.write(port, 'update-tags', sent, 'conversation');
		return { answer: done === true ? {} : done, sent };
	},
	async listDepartments(port) {
		return { answer: await fn.read(port, 'get-departments', {}), sent: {} };
	},
	async listAgents(port) {
		return { answer: await agents(port), sent: { user_types: ['agent', 'admin'] } };
	},
};
