// @ts-check
'use strict';

const { productId } = require('./supportBoardRecords');
const { isNumeric, post } = require('./supportBoardPhp');
const { fatal, ok } = require('./supportBoardResult');
const { listRow } = require('./supportBoardConversations');

/**
 * search-conversations and get-user-conversations, as messages.php answers them through api.php for an
 * admin (no routing or department filter applies). Both answer whole lists: no `pagination`.
 * MySQL's LIKE is imitated as a case-insensitive substring (its `%` and `_` wildcards are not).
 * @typedef {import('./supportBoardResult').CallContext} CallContext
 * @typedef {import('./supportBoardResult').Outcome} Outcome
 * @typedef {import('./store').Conversation} Conversation
 * @typedef {import('./store').Message} Message
 */

/** @param {unknown} v @param {string} w */
const like = (v, w) => typeof v === 'string' && v.toLowerCase().includes(w);

/**
 * Whether one message row of the search's join matches: the message's text and attachments, its
 * sender's names and e-mail, the conversation's title and tags, and a number as the conversation's id,
 * department or agent.
 * @param {CallContext} ctx @param {Conversation} c @param {Message} m @param {string} search @param {string} first
 */
function matches(ctx, c, m, search, first) {
	const row = ctx.data.messageRow(m, c);
	const sender = ctx.data.user(row.user_id);
	if (!sender) return false;
	const d = ctx.data.conversationDetails(c, { agentView: false });
	if (
		like(row.message, search) ||
		like(row.attachments, search) ||
		like(d.title, search) ||
		like(d.tags, search)
	)
		return true;
	const names = ctx.data.names(sender);
	if (like(names.first, first) || like(names.last, first) || like(sender.email, search))
		return true;
	if (!isNumeric(search)) return false;
	const n = Math.trunc(Number(search));
	return (
		Number(d.id) === n ||
		Number(d.department) === n ||
		(d.agent_id !== null && Number(d.agent_id) === n)
	);
}

/** @param {CallContext} ctx @returns {Outcome} */
function searchConversations(ctx) {
	const { data, store } = ctx;
	const search = String(ctx.params.search).toLowerCase().trim();
	const words = search.split(' ');
	const first = words.length < 4 && words[0].length > 2 ? words[0] : search;
	/** @type {{ c: Conversation, m: Message }[]} */
	const picked = [];
	for (const c of store.state.conversations) {
		// GROUP BY conversation_id: the first matching row stands for the conversation.
		const m = data.messagesOf(c).find((x) => matches(ctx, c, x, search, first));
		if (m) picked.push({ c, m });
	}
	picked.sort((a, b) =>
		a.m.created_at < b.m.created_at ? 1 : a.m.created_at > b.m.created_at ? -1 : 0,
	);
	return ok(picked.map(({ c, m }) => listRow(data, c, m)));
}

/** @param {CallContext} ctx @returns {Outcome} */
function getUserConversations(ctx) {
	const { data, store, params } = ctx;
	if (!isNumeric(params.user_id)) return fatal('user_id is not numeric');
	const user = data.user(params.user_id);
	if (!user) return ok([]);
	const exclude = post(params, 'exclude_id', -1);
	const agent = Boolean(post(params, 'agent', false)) && post(params, 'agent', false) !== 'false';
	const mine = (/** @type {Conversation} */ c) =>
		agent ? data.messagesOf(c).some((m) => data.senderId(m, c) === user.id) : c.user_id === user.id;
	const rows = [];
	for (const c of store.state.conversations) {
		if (!mine(c) || (Number(exclude) !== -1 && productId(c.id) === String(exclude))) continue;
		// The latest message with text or attachments, written by a user who still exists.
		const m = [...data.messagesOf(c)]
			.reverse()
			.find((x) => x.message !== '' || data.messageField(x, 'attachments') !== '');
		if (!m || !data.user(productId(data.senderId(m, c)))) continue;
		const {
			conversation_first_name: _f,
			conversation_last_name: _l,
			conversation_profile_image: _p,
			conversation_user_type: _t,
			...row
		} = listRow(data, c, m);
		rows.push(row);
	}
	return ok(rows.sort((a, b) => Number(b.message_id) - Number(a.message_id)));
}

/** @type {Record<string, (ctx: CallContext) => Outcome>} */
const SEARCH_FUNCTIONS = {
	'search-conversations': searchConversations,
	'get-user-conversations': getUserConversations,
};

module.exports = { SEARCH_FUNCTIONS };
