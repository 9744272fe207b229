import { isDataObject } from '../../shared/json';
import type { CallName, CallResult, Calls } from '../../transport/calls';
import type { WirePort } from '../../transport/wire';
import { fn, notFound } from './functions';

/**
 * The reads that find things: a conversation's messages, a user by e-mail or phone, the searches, a
 * user's conversations. Each is one function of the Web API answering its whole list (none of them
 * takes `pagination`): users.php and messages.php of Support Board 3.8.7, checked against a running copy.
 */

type FindCall =
	| 'getMessages'
	| 'findUser'
	| 'searchUsers'
	| 'searchConversations'
	| 'getUserConversations';

/** What ./wire's table holds for a call, for the calls of this file. */
type Implementation<K extends CallName> = (port: WirePort, args: Calls[K]) => Promise<CallResult>;

/** The list a function answered; anything else is no answer of that function. */
function listOf(port: WirePort, name: string, answer: unknown): unknown[] {
	if (Array.isArray(answer)) return answer;
	const got =
		typeof answer === 'string'
			? `"${port.mask.quote(answer, 80)}"`
			: answer === null
				? 'null'
				: `a ${typeof answer}`;
	throw port.error(200, `Support Board answered ${name} without a list (it sent ${got})`, {
		description:
			'The node is made for Support Board 3.8, whose function answers a list here; check your version.',
		body: answer,
	});
}

/** A row of users, or null for the product's answers that name none (`""`, `false`). */
const userOf = (answer: unknown): unknown =>
	isDataObject(answer) && Object.keys(answer).length > 0 ? answer : null;

/** A phone in the 00 form of an international number: 00, then a digit. */
const INTERNATIONAL_00 = /^00\d/;

export const FIND_CALLS: { [K in FindCall]: Implementation<K> } = {
	/** get-conversation answers `{messages, details}`, the messages oldest first (`ORDER BY id ASC`). */
	async getMessages(port, { conversationId }) {
		const sent = { conversation_id: conversationId };
		const conversation = notFound(
			port,
			await fn.read(port, 'get-conversation', sent),
			'conversation',
			conversationId,
		);
		const messages = isDataObject(conversation) ? conversation.messages : conversation;
		return { answer: listOf(port, 'get-conversation', messages), sent };
	},
	/**
	 * get-user-by answers the user's row, `""` when no user has the value (the database's empty answer),
	 * and `false` for an empty value. By phone the product (sb_get_user_by, users.php) also tries a value
	 * with `+` as `00` (`+49…` as `0049…`) and one without `+` with `+` in front (`49…` as `+49…`), but
	 * `0049…` never as `+49…`: that one is asked once more, the `00` as `+`, and the user is the one found.
	 */
	async findUser(port, { by, value }) {
		const sent = { by, value };
		const answer = userOf(await fn.read(port, 'get-user-by', sent));
		if (answer !== null || by !== 'phone' || !INTERNATIONAL_00.test(value)) return { answer, sent };
		const plus = { by, value: `+${value.slice(2)}` };
		return { answer: userOf(await fn.read(port, 'get-user-by', plus)), sent: plus };
	},
	/** search-users: each word in first and last names, the first word in the e-mail and the user's details. */
	async searchUsers(port, { search }) {
		const sent = { search };
		return {
			answer: listOf(port, 'search-users', await fn.read(port, 'search-users', sent)),
			sent,
		};
	},
	/** search-conversations: one row a conversation, through a message that matches, newest first. */
	async searchConversations(port, { search }) {
		const sent = { search };
		return {
			answer: listOf(
				port,
				'search-conversations',
				await fn.read(port, 'search-conversations', sent),
			),
			sent,
		};
	},
	/** get-user-conversations: one row a conversation of the user, with its latest message, newest first. */
	async getUserConversations(port, { userId }) {
		const sent = { user_id: userId };
		return {
			answer: listOf(
				port,
				'get-user-conversations',
				await fn.read(port, 'get-user-conversations', sent),
			),
			sent,
		};
	},
};
