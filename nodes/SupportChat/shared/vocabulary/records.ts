import { CLOSING_TIME_KEYS, CREATED_AT_PATHS } from './times';

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
 * THE words by which payloads name a conversation, a user or a message, as services send them. Every
 * reader derives from this one table: the subjects of event names (`guest.created`, trigger/aliases.ts),
 * a record's word for its own kind (`object: "session"`), the key of a nested record (`guest: {id}`)
 * and of a reference (`guest_id`, `guestId`), and a list of records (`messages`). A new word is one
 * entry here.
 */
export const RESOURCE_NOUNS: Readonly<Record<ReferencedResource, readonly string[]>> = {
	conversation: ['conversation', 'chat', 'session', 'thread'],
	user: [
		'user',
		'visitor',
		'contact',
		'customer',
		'profile',
		'person',
		'member',
		'client',
		'guest',
		'lead',
	],
	message: ['message', 'msg'],
};

/**
 * References the table's words would form but that name something else too often to be read as the
 * record: an OAuth or API client's `client_id` sits in many deliveries that are not about a user, and a
 * wrong id is worse than none.
 */
const NOT_REFERENCES: ReadonlySet<string> = new Set(['client_id', 'clientId']);

/** References outside the `<word>_id` pattern, as services send them. */
const EXTRA_REFERENCES: Readonly<
	Record<ReferencedResource, { flat: readonly string[]; nested: readonly string[] }>
> = {
	conversation: { flat: [], nested: [] },
	// Support Board's `message-sent` names the conversation's visitor so.
	user: { flat: ['conversation_user_id'], nested: [] },
	message: { flat: [], nested: ['first_message', 'firstMessage', 'last_message', 'lastMessage'] },
};

function references(resource: ReferencedResource): {
	flat: readonly string[];
	nested: readonly string[];
} {
	const words = RESOURCE_NOUNS[resource];
	const flat = words
		.flatMap((word) => [`${word}_id`, `${word}Id`])
		.filter((key) => !NOT_REFERENCES.has(key));
	return {
		flat: [...flat, ...EXTRA_REFERENCES[resource].flat],
		nested: [...words, ...EXTRA_REFERENCES[resource].nested],
	};
}

/**
 * Where a payload names a conversation, user or message: a flat key (`conversation_id`) or an object
 * with an `id` (`conversation.id`). Derived from `RESOURCE_NOUNS`; read by trigger/ids.ts.
 */
export const REFERENCE_ID_KEYS: Readonly<
	Record<ReferencedResource, { flat: readonly string[]; nested: readonly string[] }>
> = {
	conversation: references('conversation'),
	user: references('user'),
	message: references('message'),
};

/** A word of `RESOURCE_NOUNS` to its resource. A Map: the word is the sender's (`constructor`...). */
export const RESOURCE_OF_WORD: ReadonlyMap<string, ReferencedResource> = new Map(
	(Object.keys(RESOURCE_NOUNS) as ReferencedResource[]).flatMap((resource) =>
		RESOURCE_NOUNS[resource].map((word) => [word, resource] as const),
	),
);

/** Keys of a list of messages in one delivery (Support Board's `new-messages`: `messages: [...]`). */
export const MESSAGE_LIST_KEYS: readonly string[] = RESOURCE_NOUNS.message.map(
	(word) => `${word}s`,
);

/**
 * Keys under which a record keeps its own fields beside what comes with it: Support Board's users,
 * conversations and messages are `{details: {id, user_id, ...}, messages: [...], extra: {...}}`.
 */
export const RECORD_FIELDS_KEYS: readonly string[] = ['details'];

/**
 * Values that stand where there is no id: a JavaScript `false` or `null` serialised as text (Support
 * Board's widget sends `conversation_id: "false"` when there is no conversation).
 */
export const NOT_AN_ID: ReadonlySet<string> = new Set(['false', 'true', 'null', 'undefined']);

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
	user_id: [
		'user_id',
		'userId',
		'visitor_id',
		'contact_id',
		'user.id',
		'visitor.id',
		'contact.id',
		'conversation_user_id',
		'details.user_id',
	],
	user_name: ['user.name', 'visitor.name', 'contact.name', 'user_name'],
	user_email: ['user.email', 'visitor.email', 'contact.email', 'user_email'],
	assignee_id: [
		'assignee_id',
		'agent_id',
		'assigned_to',
		'assignee.id',
		'agent.id',
		'assignee',
		'details.agent_id',
	],
	created_at: CREATED_AT_PATHS,
	updated_at: ['updated_at', 'updatedAt', 'updated', 'last_update_time'],
	closed_at: CLOSING_TIME_KEYS,
	// Support Board's Conversation → Get: a WhatsApp, Messenger or Instagram conversation's reply window.
	reply_window: ['replyWindow'],
};
