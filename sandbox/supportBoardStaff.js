// @ts-check
'use strict';

const { empty, isNumeric } = require('./supportBoardPhp');
const { fatal, ok } = require('./supportBoardResult');
const { productId } = require('./supportBoardRecords');

/**
 * The small reads the node makes beside the user and conversation functions: the credential test's
 * count, the bot's id (a message sent as bot) and a conversation's user (a message sent as the visitor).
 * As users.php and functions.php answer them (checked against the product: `count-users` counts every
 * user but bots, with `all` and the visitor, lead and user types as text).
 * @typedef {import('./supportBoardResult').CallContext} CallContext
 * @typedef {import('./supportBoardResult').Outcome} Outcome
 */

/** @param {CallContext} ctx @returns {Outcome} */
function countUsers(ctx) {
	const types = ctx.store.state.users
		.map((u) => ctx.data.userType(u))
		.filter((type) => type !== 'bot');
	const count = (/** @type {string} */ type) => String(types.filter((t) => t === type).length);
	return ok({
		all: String(types.length),
		lead: count('lead'),
		user: count('user'),
		visitor: count('visitor'),
	});
}

/** @param {CallContext} ctx @returns {Outcome} */
const getBotId = (ctx) => ok(productId(ctx.data.staff?.bot.id ?? 'u_0'));

/** @param {CallContext} ctx @returns {Outcome} */
function getUserFromConversation(ctx) {
	const id = ctx.params.conversation_id;
	if (empty(id)) return ok(false);
	if (!isNumeric(id)) return fatal('conversation_id is not numeric');
	const conversation = ctx.data.conversation(id);
	const user = conversation?.user_id ? ctx.data.user(productId(conversation.user_id)) : undefined;
	return ok(user ? ctx.data.userWithPassword(user) : false);
}

const STAFF_FUNCTIONS = {
	'count-users': countUsers,
	'get-bot-id': getBotId,
	'get-user-from-conversation': getUserFromConversation,
};

module.exports = { STAFF_FUNCTIONS };
