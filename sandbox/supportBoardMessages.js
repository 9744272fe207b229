// @ts-check
'use strict';

const { productId } = require('./supportBoardRecords');
const { empty, isNumeric, post } = require('./supportBoardPhp');
const { error, fatal, ok } = require('./supportBoardResult');
const { setStatus, validStatus, writeMessage } = require('./supportBoardConversations');

/**
 * send-message, the one function both the Web API and the chat widget call to write a message.
 * @typedef {import('./supportBoardResult').CallContext} CallContext
 * @typedef {import('./supportBoardResult').Outcome} Outcome
 * @typedef {import('./store').User} User
 * @typedef {import('./store').Conversation} Conversation
 */

/**
 * @typedef {object} Send
 * @property {User} sender
 * @property {Conversation} conversation
 * @property {string} text
 * @property {unknown} statusCode `conversation_status_code` as given: -1 (default) lets the sender decide, 'skip' keeps it.
 * @property {unknown} senderId The sender's id as the webhook shows it (the caller's value and type).
 * @property {unknown} conversationId The conversation's id as the webhook shows it.
 * @property {string} [attachments] The attachments as the product stores them (JSON text, '' for none).
 */

/**
 * The `attachments` argument (a list, or JSON text of one) as sb_send_message stores it: JSON text
 * `[["name", "url"],…]` written by hand (`", "` inside a pair), pairs without a name or URL left out.
 * @param {unknown} raw
 */
function storedAttachments(raw) {
	let list = raw;
	if (typeof raw === 'string') {
		try {
			list = JSON.parse(raw);
		} catch {
			list = [];
		}
	}
	if (!Array.isArray(list)) return '';
	const pairs = list
		.filter((a) => Array.isArray(a) && a[0] && a[1])
		.map(
			(a) =>
				`[${[a[0], a[1], ...(a.length > 2 ? [a[2]] : [])].map((v) => JSON.stringify(String(v))).join(', ')}]`,
		);
	return pairs.length > 0 ? `[${pairs.join(',')}]` : '';
}

/**
 * Writes the message, moves the conversation's status (an agent's reply waits for the user: 1; anyone
 * else's message waits for an agent: 2) and fires `conversation-status-updated` (when it changed), then
 * `message-sent`.
 * @param {CallContext} ctx
 * @param {Send} send
 */
function deliverMessage(ctx, send) {
	const { data } = ctx;
	const c = send.conversation;
	const senderType = data.userType(send.sender);
	const text = send.text.replace(/[\r\t]/g, '').replace(/\n{3,}/g, '\n\n');
	const m = writeMessage(ctx, c, send.sender, text);
	/** @type {Record<string, unknown>} */ (m).attachments = send.attachments ?? '';
	let code = send.statusCode;
	if (code !== 'skip') {
		if (code === -1 || code === false || !validStatus(code))
			code = senderType === 'agent' || senderType === 'admin' ? 1 : 2;
		if (Number(code) !== data.statusCode(c)) {
			setStatus(ctx, c, Number(code));
			ctx.fire('conversation-status-updated', {
				conversation_id: send.conversationId,
				status_code: code,
			});
		}
	}
	const messageId = Number(productId(m.id));
	ctx.fire('message-sent', {
		user_id: send.senderId,
		message_id: messageId,
		message: text,
		// The product sends the attachments it stored, as a list (sb_json_array of the argument).
		attachments: send.attachments ? JSON.parse(send.attachments) : [],
		conversation_user_id: c.user_id ? productId(c.user_id) : null,
		conversation_id: send.conversationId,
		conversation_status_code: code,
		conversation_source: typeof c.source === 'string' ? c.source : '',
	});
	return {
		id: messageId,
		queue: false,
		human_takeover_active: false,
		notifications: [],
		message: text,
	};
}

/** @param {CallContext} ctx @returns {Outcome} */
function sendMessage(ctx) {
	const { data, params } = ctx;
	let senderId = params.user_id;
	// No sender (or -1): the admin owning the token writes.
	if (empty(senderId) || senderId === -1 || senderId === '-1') senderId = productId(data.admin.id);
	else if (!isNumeric(senderId)) return error('active-user-not-found');
	if (!isNumeric(params.conversation_id)) return fatal('conversation_id is not numeric');
	const c = data.conversation(params.conversation_id);
	// The product raises a PHP notice and answers what trigger_error returned.
	if (!c) return ok(true);
	const sender = data.user(senderId);
	if (!sender) return fatal('no such sender: the foreign key refuses the message');
	const text = post(params, 'message', '');
	return ok(
		deliverMessage(ctx, {
			sender,
			conversation: c,
			text: typeof text === 'string' ? text : String(text),
			statusCode: post(params, 'conversation_status_code', -1),
			senderId,
			conversationId: params.conversation_id,
			attachments: storedAttachments(post(params, 'attachments', [])),
		}),
	);
}

module.exports = { sendMessage, deliverMessage };
