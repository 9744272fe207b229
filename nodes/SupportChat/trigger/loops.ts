import { unwrapEventData } from './payload';
import type { JsonObject } from './util';
import { asText, getPath, isRecord } from './util';

/**
 * Loop prevention. A workflow that answers New Message by sending a message (POST /messages with
 * `type: "agent"`, spec §2) would hear its own answer as the next New Message, and answer again.
 * Messages sent from the service's side (agent, admin, bot) are recognised here so that the trigger can
 * leave them out.
 */

/** Sender kinds of the service's own side. The spec names `agent`; chat services also use these. */
export const OWN_SENDER_TYPES = ['agent', 'admin', 'bot', 'chatbot', 'operator', 'assistant', 'system'];

/** Fields naming who sent a message, read in the message record and its `sender`/`author`/`from` object. */
const SENDER_TYPE_KEYS = [
	'sender_type',
	'senderType',
	'author_type',
	'authorType',
	'from_type',
	'fromType',
	'user_type',
	'userType',
	'sender_role',
	'author_role',
	'sender.type',
	'sender.role',
	'sender.user_type',
	'author.type',
	'author.role',
	'author.user_type',
	'from.type',
	'from.role',
];
const BOT_FLAGS = ['is_bot', 'isBot', 'from_bot', 'fromBot', 'is_agent', 'isAgent', 'sender.is_bot', 'author.is_bot'];
const SENDER_ID_KEYS = [
	'sender_id',
	'senderId',
	'author_id',
	'authorId',
	'from_id',
	'fromId',
	'user_id',
	'userId',
	'sender.id',
	'author.id',
	'from.id',
];

export interface LoopOptions {
	/** Leave out messages whose sender type is one of `OWN_SENDER_TYPES`. */
	ignoreOwnTypes: boolean;
	/** Leave out messages sent by these user ids (the workflow's own bot user, for example). */
	ignoredSenderIds: string[];
}

export interface OwnMessage {
	own: boolean;
	/** Why, for the answer to the sender: `sender type agent`, `sender id 42`. */
	reason?: string;
}

/** The records that describe the message itself: the event data and a `message` object inside it. */
function messageRecords(body: JsonObject): JsonObject[] {
	const data = unwrapEventData(body);
	const records = [data];
	if (isRecord(data.message)) records.push(data.message);
	if (isRecord(body.message) && body.message !== data.message) records.push(body.message);
	return records;
}

/**
 * Whether a message event was sent by the workflow's own side: a sender type of agent, admin, bot, ...
 * (`type` on the message as the spec's POST /messages sets it, `sender_type`, `author.type`, a bot flag),
 * or a sender id listed in `ignoredSenderIds`. The event's own name (`type: "message.created"`) never
 * matches a sender type, so reading `type` on the message is safe.
 */
export function isOwnMessage(body: JsonObject, options: LoopOptions): OwnMessage {
	const records = messageRecords(body);
	const ids = new Set(options.ignoredSenderIds.map((id) => id.trim()).filter((id) => id !== ''));
	for (const record of records) {
		if (options.ignoreOwnTypes) {
			for (const key of ['type', ...SENDER_TYPE_KEYS]) {
				const value = asText(getPath(record, key))?.toLowerCase();
				if (value !== undefined && OWN_SENDER_TYPES.includes(value)) {
					return { own: true, reason: `sender type ${value}` };
				}
			}
			for (const key of BOT_FLAGS) {
				const flag = getPath(record, key);
				if (flag === true || flag === 'true' || flag === 1 || flag === '1') {
					return { own: true, reason: `sender flag ${key}` };
				}
			}
		}
		if (ids.size > 0) {
			for (const key of SENDER_ID_KEYS) {
				const value = asText(getPath(record, key));
				if (value !== undefined && ids.has(value)) return { own: true, reason: `sender id ${value}` };
			}
		}
	}
	return { own: false };
}
