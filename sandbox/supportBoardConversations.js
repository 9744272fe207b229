// @ts-check
'use strict';

const { pad, productId } = require('./supportBoardRecords');
const { empty, isNumeric, post, sqlTime } = require('./supportBoardPhp');
const { error, fatal, ok, refused } = require('./supportBoardResult');

/**
 * The conversation and message functions of the Web API, as messages.php answers them through api.php
 * (the caller is the admin owning the token, so the agent's view applies).
 * @typedef {import('./supportBoardResult').CallContext} CallContext
 * @typedef {import('./supportBoardResult').Outcome} Outcome
 * @typedef {import('./supportBoardRecords').SupportBoardData} SupportBoardData
 * @typedef {import('./store').Store} Store
 * @typedef {import('./store').User} User
 * @typedef {import('./store').Conversation} Conversation
 * @typedef {import('./store').Message} Message
 */

const PAGE = 100;
const STATUS_CODES = [0, 1, 2, 3, 4];

/** PHP's `in_array($v, [0, 1, 2, 3, 4])`: '3' matches, 'x' does not. @param {unknown} v */
const validStatus = (v) =>
	(typeof v === 'number' || (typeof v === 'string' && isNumeric(v))) &&
	STATUS_CODES.includes(Number(v));

/**
 * Writes a message row. `payload` is the JSON text of an event message (empty text, written by the
 * product when an agent assigns or archives), '' for a message.
 * @param {{ store: Store, data: SupportBoardData }} ctx
 * @param {Conversation} c
 * @param {User} sender
 * @param {string} text
 * @param {string} [payload]
 */
function writeMessage(ctx, c, sender, text, payload = '') {
	const type = ['agent', 'admin', 'bot'].includes(ctx.data.userType(sender)) ? 'agent' : 'user';
	const m = /** @type {Message & Record<string, unknown>} */ (ctx.store.pushMessage(c, text, type));
	m.user_id = sender.id;
	m.payload = payload;
	m.attachments = '';
	if (payload === '') ctx.store.emit('messageCreated', { message: m, conversation: c }, 'api');
	return m;
}

/**
 * @param {{ store: Store }} ctx
 * @param {Conversation} c
 * @param {number} code
 */
function setStatus(ctx, c, code) {
	const wasClosed = c.status === 'closed';
	const at = ctx.store.timestamp();
	c.status_code = code;
	c.status = code >= 3 ? 'closed' : code === 2 ? 'pending' : 'active';
	c.closed_at = code >= 3 ? (c.closed_at ?? at) : null;
	c.updated_at = at;
	if (code === 3 && !wasClosed) ctx.store.emit('conversationClosed', { conversation: c }, 'api');
}

/** The latest message of each conversation, in one pass. @param {Store} store */
function latestByConversation(store) {
	/** @type {Map<string, Message>} */
	const latest = new Map();
	for (const m of store.state.messages) latest.set(m.conversation_id, m);
	return latest;
}

/** @param {string} text */
function decodePayload(text) {
	try {
		return text === '' ? null : JSON.parse(text);
	} catch {
		return null;
	}
}

/**
 * A row of get-conversations / get-new-conversations: the conversation seen through one message.
 * @param {SupportBoardData} data
 * @param {Conversation} c
 * @param {Message} m
 */
function listRow(data, c, m) {
	const msg = data.messageRow(m, c);
	const d = data.conversationDetails(c, { agentView: false });
	return {
		message: msg.message,
		message_id: msg.id,
		attachments: msg.attachments,
		payload: /** @type {unknown} */ (msg.payload),
		message_status_code: msg.status_code,
		last_update_time: msg.creation_time,
		message_user_id: msg.user_id,
		message_first_name: msg.first_name,
		message_last_name: msg.last_name,
		message_profile_image: msg.profile_image,
		message_user_type: msg.user_type,
		conversation_id: d.id,
		conversation_user_id: d.user_id,
		conversation_status_code: d.status_code,
		conversation_creation_time: d.creation_time,
		department: d.department,
		agent_id: d.agent_id,
		title: d.title,
		source: d.source,
		extra: null,
		tags: d.tags,
		conversation_first_name: d.first_name,
		conversation_last_name: d.last_name,
		conversation_profile_image: d.profile_image,
		conversation_user_type: d.user_type,
	};
}

/** @param {CallContext} ctx @returns {Outcome} */
function getConversations(ctx) {
	const { data, store, params } = ctx;
	const status = post(params, 'status_code', 0);
	const agent = post(params, 'agent_id', false);
	const source = post(params, 'source', false);
	const latest = latestByConversation(store);
	/** @type {{ c: Conversation, m: Message }[]} */
	const picked = [];
	for (const c of store.state.conversations) {
		const m = latest.get(c.id);
		const owner = c.user_id ? data.user(productId(c.user_id)) : undefined;
		if (!m || !owner) continue;
		const code = data.statusCode(c);
		if (status !== 'all' && (empty(status) ? code === 3 || code === 4 : code !== Number(status)))
			continue;
		// Archived conversations of visitors are left out of the archive.
		if (Number(status) === 3 && data.userType(owner) === 'visitor') continue;
		if (agent && data.agentId(c) !== `u_${pad(Number(agent))}`) continue;
		if (
			source !== false &&
			(source === '' || source === 'chat' ? (c.source ?? '') !== '' : c.source !== source)
		)
			continue;
		picked.push({ c, m });
	}
	const waiting = (/** @type {Conversation} */ c) => (data.statusCode(c) === 2 ? 1 : 0);
	picked.sort(
		(a, b) => waiting(b.c) - waiting(a.c) || Number(productId(b.m.id)) - Number(productId(a.m.id)),
	);
	const page = Number(post(params, 'pagination', 0));
	const start = (Number.isInteger(page) && page > 0 ? page : 0) * PAGE;
	return ok(
		picked.slice(start, start + PAGE).map(({ c, m }) => {
			const row = listRow(data, c, m);
			const payload = String(row.payload);
			if (m.message === '' && row.attachments === '' && !payload.includes('preview')) {
				// An event message (assigned, archived) is shown through the latest message with text; the
				// sender's names stay those of the event message, as in the product.
				const text = [...store.state.messages]
					.reverse()
					.find((x) => x.conversation_id === c.id && x.message !== '');
				if (text) {
					const t = data.messageRow(text, c);
					return {
						...row,
						message: t.message,
						attachments: t.attachments,
						message_id: t.id,
						message_user_id: t.user_id,
						message_status_code: t.status_code,
						payload: decodePayload(t.payload),
					};
				}
				return row;
			}
			return { ...row, payload: decodePayload(payload) };
		}),
	);
}

/** @param {CallContext} ctx @returns {Outcome} */
function getNewConversations(ctx) {
	const { data, store } = ctx;
	const since = ctx.params.datetime;
	const byId = isNumeric(since);
	const latest = latestByConversation(store);
	const rows = [];
	for (const c of store.state.conversations) {
		const m = latest.get(c.id);
		if (!m || !c.user_id || !data.user(productId(c.user_id))) continue;
		if (byId ? Number(productId(m.id)) <= Number(since) : sqlTime(m.created_at) <= String(since))
			continue;
		rows.push(listRow(data, c, m));
	}
	return ok(rows.sort((a, b) => Number(b.message_id) - Number(a.message_id)));
}

/** @param {CallContext} ctx @returns {Outcome} */
function getConversation(ctx) {
	const id = ctx.params.conversation_id;
	if (!isNumeric(id)) return fatal('conversation_id is not numeric');
	const c = ctx.data.conversation(id);
	return ok(
		c && c.user_id && ctx.data.user(productId(c.user_id))
			? ctx.data.conversationObject(c, { agentView: true })
			: false,
	);
}

/** @param {CallContext} ctx @returns {Outcome} */
function newConversation(ctx) {
	const { data, store, params } = ctx;
	if (!isNumeric(params.user_id)) return fatal('user_id is not numeric');
	const user = data.user(params.user_id);
	if (!user) return fatal('no such user: the foreign key refuses the conversation');
	const given = post(params, 'status_code', false);
	if (given !== false && given !== '' && given !== -1 && !isNumeric(given))
		return fatal('status_code is no number');
	const code = given === false || given === '' || Number(given) === -1 ? 2 : Number(given);
	const title = String(post(params, 'title', '') || '');
	const agent = post(params, 'agent_id', -1);
	const agentUser = isNumeric(agent) && Number(agent) > 0 ? data.user(agent) : undefined;
	if (isNumeric(agent) && Number(agent) > 0 && !agentUser)
		return fatal('no such agent: the foreign key refuses the conversation');
	const tags = post(params, 'tags', false);
	const department = post(params, 'department', -1);
	const { conversation: c } = store.createConversation(
		{
			user_id: user.id,
			status: code >= 3 ? 'closed' : code === 2 ? 'pending' : 'active',
			subject: title.charAt(0).toUpperCase() + title.slice(1),
			status_code: code,
			source: String(post(params, 'source', '') || ''),
			extra: String(post(params, 'extra', '') || ''),
			department: isNumeric(department) && Number(department) !== -1 ? String(department) : null,
			sb_tags: tags ? (Array.isArray(tags) ? tags.join(',') : String(tags)).slice(0, 255) : null,
		},
		'api',
	);
	if (agentUser) c.assignee_id = agentUser.id;
	const answer = data.conversationObject(c, { agentView: true });
	ctx.fire('new-conversation-created', answer);
	return ok(answer);
}

/** @param {CallContext} ctx @returns {Outcome} */
function updateConversationAgent(ctx) {
	const { data, store, params } = ctx;
	if (!isNumeric(params.conversation_id)) return fatal('conversation_id is not numeric');
	const agent = params.agent_id;
	const agentUser = empty(agent) ? undefined : data.user(agent);
	if (!empty(agent) && (!agentUser || !['agent', 'admin'].includes(data.userType(agentUser))))
		return error('not-an-agent');
	const c = data.conversation(params.conversation_id);
	if (!c)
		return agentUser
			? fatal('no such conversation: the foreign key refuses the event message')
			: ok(true);
	c.assignee_id = agentUser ? agentUser.id : null;
	setStatus(ctx, c, 2);
	if (agentUser) {
		const names = (/** @type {User} */ u) => `${data.names(u).first} ${data.names(u).last}`.trim();
		writeMessage(
			ctx,
			c,
			data.admin,
			'',
			JSON.stringify({
				event: `conversation-agent-update-${productId(agentUser.id)}`,
				agent_name: names(data.admin),
				agent_name_assigned: names(agentUser),
			}),
		);
		store.emit('conversationAssigned', { conversation: c, assignee_id: agentUser.id }, 'api');
	}
	return ok(true);
}

/** @param {CallContext} ctx @returns {Outcome} */
function updateConversationStatus(ctx) {
	const { data, store, params } = ctx;
	const id = params.conversation_id;
	if (empty(id) || !isNumeric(id)) return ok(false);
	const status = params.status_code;
	const c = data.conversation(id);
	/** @type {Outcome} */
	let outcome;
	if (validStatus(status)) {
		const code = Number(status);
		if (!c && code >= 3)
			return fatal('no such conversation: the foreign key refuses the event message');
		if (c) {
			setStatus(ctx, c, code);
			if (code >= 3)
				writeMessage(
					ctx,
					c,
					data.admin,
					'',
					JSON.stringify({
						event: `conversation-status-update-${code}`,
						agent_name: `${data.names(data.admin).first} ${data.names(data.admin).last}`.trim(),
					}),
				);
		}
		outcome = ok(true);
	} else if (Number(status) === 5) {
		// 5 empties the trash.
		const trash = store.state.conversations.filter((x) => data.statusCode(x) === 4);
		for (const x of trash)
			store.state.conversations.splice(store.state.conversations.indexOf(x), 1);
		store.conversationIndex.clear();
		store.state.conversations.forEach((x, i) => store.conversationIndex.set(x.id, i));
		outcome = ok(trash.length > 0);
	} else {
		outcome = refused('invalid-status-code');
	}
	// Fired whatever happened, with the values as the caller sent them.
	ctx.fire('conversation-status-updated', { conversation_id: id, status_code: status });
	return outcome;
}

/** @param {CallContext} ctx @returns {Outcome} */
function getNewMessages(ctx) {
	const { data, params } = ctx;
	if (!isNumeric(params.conversation_id) || !isNumeric(params.user_id))
		return fatal('an id is not numeric');
	const c = data.conversation(params.conversation_id);
	if (!c || c.user_id !== data.user(params.user_id)?.id) return ok([]);
	const since = String(params.datetime);
	// `$last_id ? … : false`: 0, "0" and '' are no last_id to PHP, so from 0 only the time selects.
	const lastId = post(params, 'last_id', false);
	const byId = !empty(lastId) && isNumeric(lastId);
	return ok(
		data
			.messagesOf(c)
			.filter(
				(m) => sqlTime(m.created_at) > since || (byId && Number(productId(m.id)) > Number(lastId)),
			)
			.map((m) => data.messageRow(m, c)),
	);
}

/** @type {Record<string, (ctx: CallContext) => Outcome>} */
const CONVERSATION_FUNCTIONS = {
	'get-conversations': getConversations,
	'get-new-conversations': getNewConversations,
	'get-conversation': getConversation,
	'new-conversation': newConversation,
	'update-conversation-agent': updateConversationAgent,
	'update-conversation-status': updateConversationStatus,
	'get-new-messages': getNewMessages,
};

module.exports = { CONVERSATION_FUNCTIONS, writeMessage, setStatus, validStatus, listRow };
