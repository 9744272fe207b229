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

/** The fields people use of a user record (actions/simplify.ts, the user picker). */
export const USER_SUMMARY: SummaryFields = {
	id: ['id', '_id', 'uuid', 'user_id'],
	name: ['name', 'full_name', 'fullName', 'display_name', 'displayName'],
	email: ['email', 'email_address', 'emailAddress'],
	phone: ['phone', 'phone_number', 'phoneNumber', 'mobile'],
};

/** The fields people use of a conversation record (actions/simplify.ts, the conversation picker). */
export const CONVERSATION_SUMMARY: SummaryFields = {
	id: ['id', '_id', 'uuid', 'conversation_id'],
	status: ['status', 'state'],
	subject: ['subject', 'title'],
	user_id: ['user_id', 'userId', 'visitor_id', 'contact_id', 'user.id', 'visitor.id', 'contact.id'],
	user_name: ['user.name', 'visitor.name', 'contact.name', 'user_name'],
	user_email: ['user.email', 'visitor.email', 'contact.email', 'user_email'],
	assignee_id: ['assignee_id', 'agent_id', 'assigned_to', 'assignee.id', 'agent.id', 'assignee'],
	created_at: ['created_at', 'createdAt', 'created'],
	updated_at: ['updated_at', 'updatedAt', 'updated'],
	closed_at: ['closed_at', 'closedAt', 'archived_at'],
};
