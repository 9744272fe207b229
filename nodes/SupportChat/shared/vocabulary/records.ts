/**
 * The names a service gives the fields of its records. Two id lists, side by side, because they
 * answer different questions: `RECORD_ID_KEYS` is a record's own identity (to drop a repeated
 * record, to continue after the last one), `REFERENCE_ID_KEYS` is where a webhook payload names
 * the records an event is about (`conversation_id`, `user.id`).
 */

/** A record's own id (transport/pagination/values.ts). */
export const RECORD_ID_KEYS: readonly string[] = ['id', '_id', 'uuid', 'ID', 'Id'];

export type ReferencedResource = 'conversation' | 'user' | 'message';

/**
 * Where a payload names a conversation, user or message: a flat key (`conversation_id`) or an object
 * with an `id` (`conversation.id`). Read by trigger/payload.ts.
 */
export const REFERENCE_ID_KEYS: Readonly<Record<ReferencedResource, { flat: readonly string[]; nested: readonly string[] }>> = {
	conversation: {
		flat: ['conversation_id', 'conversationId', 'chat_id', 'chatId', 'thread_id', 'threadId', 'session_id'],
		nested: ['conversation', 'chat', 'thread'],
	},
	user: {
		flat: [
			'user_id',
			'userId',
			'conversation_user_id',
			'visitor_id',
			'visitorId',
			'contact_id',
			'contactId',
			'customer_id',
			'customerId',
			'lead_id',
			'leadId',
		],
		nested: ['user', 'visitor', 'contact', 'customer', 'lead'],
	},
	message: {
		flat: ['message_id', 'messageId', 'msg_id', 'msgId'],
		nested: ['message', 'msg', 'first_message', 'firstMessage', 'last_message', 'lastMessage'],
	},
};

/** A tag's name when a tag is an object (Simplify, the Tag picker); the first key present wins. */
export const TAG_NAME_KEYS: readonly string[] = ['name', 'tag', 'title', 'label'];

/** Simplify's fields: each output field and the paths it may be found at, first non-empty one wins. */
export type SummaryFields = Readonly<Record<string, readonly string[]>>;

/**
 * A name kept in two fields, first and last (Support Board's users), where no whole name is set: each
 * entry is a pair of paths, the first pair with a first name wins.
 */
export const NAME_PARTS: readonly (readonly [string, string])[] = [
	['first_name', 'last_name'],
	['firstName', 'lastName'],
];

/** The same in a conversation, for the name of the user it is with. */
export const CONVERSATION_USER_NAME_PARTS: readonly (readonly [string, string])[] = [
	['details.first_name', 'details.last_name'],
	['conversation_first_name', 'conversation_last_name'],
];

/** The fields people use of a user record (actions/simplify.ts, the user picker). */
export const USER_SUMMARY: SummaryFields = {
	id: ['id', '_id', 'uuid', 'user_id'],
	name: ['name', 'full_name', 'fullName', 'display_name', 'displayName'],
	email: ['email', 'email_address', 'emailAddress'],
	phone: ['phone', 'phone_number', 'phoneNumber', 'mobile'],
};

/** The fields people use of a conversation record (actions/simplify.ts, the conversation picker). */
export const CONVERSATION_SUMMARY: SummaryFields = {
	// Support Board: get-conversation answers {messages, details}; get-conversations rows prefix conversation_.
	id: ['id', '_id', 'uuid', 'conversation_id', 'details.id'],
	status: ['status', 'state', 'status_code', 'conversation_status_code', 'details.status_code'],
	subject: ['subject', 'title', 'details.title'],
	user_id: ['user_id', 'userId', 'visitor_id', 'contact_id', 'user.id', 'visitor.id', 'contact.id', 'conversation_user_id', 'details.user_id'],
	user_name: ['user.name', 'visitor.name', 'contact.name', 'user_name'],
	user_email: ['user.email', 'visitor.email', 'contact.email', 'user_email'],
	assignee_id: ['assignee_id', 'agent_id', 'assigned_to', 'assignee.id', 'agent.id', 'assignee', 'details.agent_id'],
	created_at: ['created_at', 'createdAt', 'created', 'creation_time', 'conversation_creation_time', 'details.creation_time'],
	updated_at: ['updated_at', 'updatedAt', 'updated', 'last_update_time'],
	closed_at: ['closed_at', 'closedAt', 'archived_at'],
};
