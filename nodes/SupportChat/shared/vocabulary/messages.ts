import type { SummaryFields } from './records';
import { CREATED_AT_PATHS } from './times';

/**
 * The names a service gives the fields of a message (actions/simplify.ts). Support Board's messages
 * (get-conversation) carry `user_id`, the sender's `first_name`, `last_name` and `user_type`, `message`,
 * `attachments` as JSON text `[["name", "url"], …]`, and `creation_time`.
 */
export const MESSAGE_SUMMARY: SummaryFields = {
	id: ['id', '_id', 'uuid', 'message_id'],
	sender_id: ['sender_id', 'user_id', 'author_id', 'sender.id', 'user.id', 'author.id'],
	user_type: ['user_type', 'sender_type', 'sender.type', 'author_type'],
	text: ['message', 'text', 'body', 'content'],
	time: CREATED_AT_PATHS,
};

/** The sender's name where a service names it whole. */
export const SENDER_NAME_PATHS: readonly string[] = [
	'sender_name',
	'sender.name',
	'user.name',
	'author.name',
];

/** The sender's first and last name, where a service keeps them apart (Support Board: beside the message). */
export const SENDER_NAME_PARTS: readonly (readonly [string, string])[] = [
	['first_name', 'last_name'],
	['sender.first_name', 'sender.last_name'],
];

/** Where a message keeps its attachments: a list, or JSON text of one. */
export const ATTACHMENT_KEYS: readonly string[] = ['attachments', 'files'];

/** An attachment as a record (`{name, url}`), or as Support Board's pair `[name, url]` (a third entry: image size). */
export const ATTACHMENT_NAME_KEYS: readonly string[] = ['name', 'file_name', 'filename', 'title'];
export const ATTACHMENT_URL_KEYS: readonly string[] = ['url', 'link', 'href', 'file_url'];

/** Where a conversation record keeps its messages (Support Board's get-conversation: `messages`). */
export const CONVERSATION_MESSAGE_KEYS: readonly string[] = ['messages'];
