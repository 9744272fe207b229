import type { IDataObject } from 'n8n-workflow';

import type { PlainObject } from './json';
import { asText, getObjectPath, isRecord } from './json';
import { MESSAGE_LIST_KEYS, RECORD_FIELDS_KEYS } from './vocabulary/records';
import { unwrapEventData } from './vocabulary/envelopes';

/**
 * Loop prevention. A workflow that answers New Message by sending a message (POST /messages with
 * `type: "agent"`, spec §2) would hear its own answer as the next New Message, and answer again.
 * Messages sent from the service's side (agent, admin, bot) are recognised here so that both triggers
 * can leave them out: the webhook trigger's deliveries and the poll trigger's Support Board messages.
 */

/** Sender kinds of the service's own side. The spec names `agent`; chat services also use these. */
const OWN_SENDER_TYPES: ReadonlySet<string> = new Set([
	'agent',
	'admin',
	'administrator',
	'bot',
	'chatbot',
	'operator',
	'assistant',
	'system',
	'staff',
]);

/** Sender kinds of the visitor's side: a message so marked is the visitor's, whatever else it carries. */
const VISITOR_SENDER_TYPES: ReadonlySet<string> = new Set([
	'visitor',
	'user',
	'customer',
	'contact',
	'guest',
	'client',
	'lead',
	'enduser',
	'end_user',
	'end-user',
]);

/**
 * Fields naming who sent a message, read in the message record and its `sender`/`author`/`from`
 * object. Some services put the kind straight in `sender`, `from` or `role` (`sender: "agent"`,
 * `from: "operator"`, `role: "assistant"`); an object there is read by its own keys below.
 */
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
	'sender',
	'from',
	'author',
	'role',
	'sender.type',
	'sender.role',
	'sender.user_type',
	'author.type',
	'author.role',
	'author.user_type',
	'from.type',
	'from.role',
];
const BOT_FLAGS = [
	'is_bot',
	'isBot',
	'from_bot',
	'fromBot',
	'is_agent',
	'isAgent',
	'sender.is_bot',
	'author.is_bot',
];
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

/**
 * Services that mark nothing but ids: the message's sender next to the visitor who owns the
 * conversation (a PHP chat service's `message-sent` has `user_id` and `conversation_user_id`). When
 * the two differ, someone on the service's side wrote the message.
 */
const SENDER_OWNER_PAIRS: ReadonlyArray<readonly [sender: string, owner: string]> = [
	['user_id', 'conversation_user_id'],
	['userId', 'conversationUserId'],
	['sender_id', 'conversation_user_id'],
	['senderId', 'conversationUserId'],
];

/** Longest sender type read; longer text is no sender type. */
const MAX_SENDER_TYPE_LENGTH = 64;

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
	/**
	 * In a delivery that carries a list of messages, the one it is about: the last not from the
	 * workflow's own side (the visitor's), else the last. Undefined when the data is the message.
	 */
	message?: PlainObject;
}

/** A message's records: itself, the fields it keeps apart (`details`), and a `message` object inside it. */
function recordsOf(message: PlainObject): PlainObject[] {
	const records: PlainObject[] = [];
	const add = (record: unknown) => {
		if (!isRecord(record) || records.includes(record)) return;
		records.push(record);
		for (const key of RECORD_FIELDS_KEYS)
			if (isRecord(record[key]) && !records.includes(record[key])) records.push(record[key]);
	};
	add(message);
	add(message.message);
	return records;
}

/** A list of messages in the event's data (Support Board's `new-messages`: `messages: [{details}, ...]`). */
function messageList(data: PlainObject): PlainObject[] {
	for (const key of MESSAGE_LIST_KEYS) {
		const list = Object.hasOwn(data, key) ? data[key] : undefined;
		if (Array.isArray(list) && list.length > 0) return list.filter(isRecord);
	}
	return [];
}

function senderType(record: PlainObject): { kind: 'own' | 'visitor'; value: string } | undefined {
	for (const key of ['type', ...SENDER_TYPE_KEYS]) {
		const text = asText(getObjectPath(record, key));
		if (text === undefined || text.length > MAX_SENDER_TYPE_LENGTH) continue;
		const value = text.toLowerCase();
		if (OWN_SENDER_TYPES.has(value)) return { kind: 'own', value };
		if (VISITOR_SENDER_TYPES.has(value)) return { kind: 'visitor', value };
	}
	return undefined;
}

function ownBySenderAndOwner(record: PlainObject): string | undefined {
	for (const [senderKey, ownerKey] of SENDER_OWNER_PAIRS) {
		const sender = asText(getObjectPath(record, senderKey));
		const owner = asText(getObjectPath(record, ownerKey));
		if (sender !== undefined && owner !== undefined && sender !== owner) {
			return `${senderKey} ${sender} is not ${ownerKey} ${owner}`;
		}
	}
	return undefined;
}

function verdict(records: PlainObject[], options: LoopOptions): OwnMessage {
	if (options.ignoreOwnTypes) {
		const type = records.map(senderType).find((found) => found !== undefined);
		if (type?.kind === 'own') return { own: true, reason: `sender type ${type.value}` };
		for (const record of records) {
			for (const key of BOT_FLAGS) {
				const flag = getObjectPath(record, key);
				if (flag === true || flag === 'true' || flag === 1 || flag === '1') {
					return { own: true, reason: `sender flag ${key}` };
				}
			}
		}
		const byIds =
			type === undefined
				? records.map(ownBySenderAndOwner).find((reason) => reason !== undefined)
				: undefined;
		if (byIds !== undefined) return { own: true, reason: byIds };
	}
	const ids = new Set(options.ignoredSenderIds.map((id) => id.trim()).filter((id) => id !== ''));
	if (ids.size === 0) return { own: false };
	for (const record of records) {
		for (const key of SENDER_ID_KEYS) {
			const value = asText(getObjectPath(record, key));
			if (value !== undefined && ids.has(value)) return { own: true, reason: `sender id ${value}` };
		}
	}
	return { own: false };
}

/**
 * Whether a message event was sent by the workflow's own side. With `ignoreOwnTypes`: a sender type of
 * agent, admin, bot, operator, assistant... (`type` on the message as the spec's POST /messages sets
 * it, `sender_type`, `user_type`, `author.type`, `sender: "agent"`, `from: "operator"`, `role:
 * "assistant"`, also inside the message's `details`), a bot flag, or, when no type says visitor, a
 * sender id that is not the id of the conversation's visitor (`user_id` ≠ `conversation_user_id`).
 * Always: a sender id listed in `ignoredSenderIds`. A delivery that carries a list of messages
 * (Support Board's widget sends `new-messages` after every agent reply) is the workflow's own when
 * every message in it is. The event's own name (`type: "message.created"`) never matches a sender
 * type, so reading `type` is safe. Each message is judged once; the one the delivery is about comes
 * with the verdict, so that nothing judges a message again.
 *
 * @param data the event's data inside its envelope (shared/vocabulary/envelopes.ts), when the caller has it already
 */
export function isOwnMessage(
	body: PlainObject,
	options: LoopOptions,
	data: PlainObject = unwrapEventData(body),
): OwnMessage {
	const list = messageList(data);
	if (list.length === 0) {
		const records = recordsOf(data);
		if (isRecord(body.message) && !records.includes(body.message)) records.push(body.message);
		return verdict(records, options);
	}
	const verdicts = list.map((message) => verdict(recordsOf(message), options));
	for (let index = list.length - 1; index >= 0; index--) {
		if (!verdicts[index].own) return { own: false, message: list[index] };
	}
	const reasons = [...new Set(verdicts.map((found) => found.reason))];
	return { own: true, reason: reasons.join(', '), message: list[list.length - 1] };
}

/**
 * Ignore Own Messages' default, in both triggers' Options: on. The webhook trigger's TRIGGER_DEFAULTS
 * (../trigger/triggerSettings.ts) names it, and its test holds the description's literal to it.
 */
export const IGNORE_OWN_MESSAGES_DEFAULT = true;

/**
 * Which messages are the workflow's own, from the options both triggers name alike (Ignore Own Messages,
 * Ignored Sender IDs): the webhook trigger and the poll trigger read them here and judge by
 * `isOwnMessage` (above), so an auto-reply never starts its own workflow whichever trigger
 * hears it.
 */
export function readLoopOptions(options: IDataObject): LoopOptions {
	const { ignoreOwnMessages } = options;
	return {
		ignoreOwnTypes:
			ignoreOwnMessages === undefined ? IGNORE_OWN_MESSAGES_DEFAULT : ignoreOwnMessages !== false,
		ignoredSenderIds: parseIdList(options.ignoredSenderIds),
	};
}

/** Sender IDs as typed ("12, 57", one per line) or given by an expression (a list or one number). */
function parseIdList(value: unknown): string[] {
	if (Array.isArray(value))
		return value.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
	if (typeof value === 'number') return [String(value)];
	if (typeof value !== 'string') return [];
	return value
		.split(/[\s,;]+/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}
