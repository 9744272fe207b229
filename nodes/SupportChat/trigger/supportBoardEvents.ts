import type { ReferencedResource } from '../shared/vocabulary/records';
import type { CanonicalEvent } from './events';

/**
 * Support Board's webhooks that are no kind of the service's description, each offered by its own name.
 * THE table of them: the editor's Events list (description/events.ts), the names detection reads
 * (aliases.ts), the ids and keys (delivery.ts) all come from here. `function` is the name the product
 * posts (include/functions.php `sb_webhooks`, 3.8.7); the product's other four names are one of the
 * six kinds already (`message-sent`, `new-conversation-created`, `registration`, `new-email-address` is
 * Lead Captured and its own event below).
 */
interface SupportBoardEventRow {
	value: string;
	name: string;
	description: string;
	/** The product's `function` field. */
	function: string;
	/** What the data's own `id` names, or a bare value (`data: "7"`). */
	about?: ReferencedResource;
	/** Its data's `id` names a form, not a record. */
	formId?: true;
	/** Where its data names the user it is about when no usual key does. */
	userKeys?: readonly string[];
}

export const SUPPORT_BOARD_EVENTS = [
	{
		value: 'botMessage',
		name: 'Bot Message',
		description: "Support Board: the chatbot answered a visitor's message (bot-message)",
		function: 'bot-message',
	},
	{
		value: 'conversationStatusUpdated',
		name: 'Conversation Status Updated',
		description:
			'Support Board: a conversation became active, pending, waiting, archived or trashed (conversation-status-updated)',
		function: 'conversation-status-updated',
		about: 'conversation',
	},
	{
		value: 'dialogflowMessage',
		name: 'Dialogflow Message',
		description: 'Support Board: Dialogflow answered a message (dialogflow-message)',
		function: 'dialogflow-message',
	},
	{
		value: 'emailSent',
		name: 'Email Sent',
		description: 'Support Board: an email notification was sent to a user (email-sent)',
		function: 'email-sent',
		userKeys: ['recipient_id'],
	},
	{
		value: 'login',
		name: 'Login',
		description: "Support Board: a user logged in through the chat's login form (login)",
		function: 'login',
		about: 'user',
	},
	{
		value: 'messageDeleted',
		name: 'Message Deleted',
		description: 'Support Board: a message was deleted in the chat (message-deleted)',
		function: 'message-deleted',
		about: 'message',
	},
	{
		value: 'newConversationReceived',
		name: 'New Conversation Received',
		description:
			'Support Board: the chat showed a visitor a conversation it had not shown yet, such as one an agent started (new-conversation)',
		function: 'new-conversation',
		about: 'conversation',
	},
	{
		value: 'newEmailAddress',
		name: 'New Email Address',
		description:
			'Support Board: a visitor left an email address in the follow-up form (new-email-address)',
		function: 'new-email-address',
		about: 'user',
		formId: true,
	},
	{
		value: 'newMessagesReceived',
		name: 'New Messages Received',
		description:
			"Support Board: the chat showed a visitor new messages, such as an agent's reply (new-messages)",
		function: 'new-messages',
		about: 'message',
	},
	{
		value: 'richMessage',
		name: 'Rich Message Submitted',
		description:
			'Support Board: a visitor answered a rich message, such as buttons or a form (rich-message)',
		function: 'rich-message',
		formId: true,
	},
	{
		value: 'slackMessageSent',
		name: 'Slack Message Sent',
		description: 'Support Board: a chat message was sent on to Slack (slack-message-sent)',
		function: 'slack-message-sent',
	},
	{
		value: 'smsSent',
		name: 'SMS Sent',
		description: 'Support Board: a text message was sent to a user (sms-sent)',
		function: 'sms-sent',
		userKeys: ['recipient_id'],
	},
	{
		value: 'userDeleted',
		name: 'User Deleted',
		description: 'Support Board: a user was deleted (user-deleted)',
		function: 'user-deleted',
		about: 'user',
	},
] as const satisfies readonly SupportBoardEventRow[];

export type SupportBoardEvent = (typeof SUPPORT_BOARD_EVENTS)[number]['value'];

type Row = SupportBoardEventRow & { value: SupportBoardEvent };
const ROWS: readonly Row[] = SUPPORT_BOARD_EVENTS;
const BY_FUNCTION: ReadonlyMap<string, Row> = new Map(ROWS.map((row) => [row.function, row]));
const BY_VALUE: ReadonlyMap<string, Row> = new Map(ROWS.map((row) => [row.value, row]));

/** The row of a product `function` name, compared lower-cased; undefined for any other name. */
export function supportBoardEventOf(name: string): Row | undefined {
	return BY_FUNCTION.get(name.toLowerCase());
}

/** The row of an event value (`login`); undefined for any other value. */
export function supportBoardEventRow(value: string): Row | undefined {
	return BY_VALUE.get(value);
}

/**
 * The product's webhooks that report each of the six kinds (`sb_webhooks`' names): what Set Up Webhook
 * ticks in its "Active webhooks" field. Tag Applied has none: Support Board sends no webhook for a tag.
 */
export const KIND_WEBHOOKS: Readonly<Record<CanonicalEvent, readonly string[]>> = {
	conversationCreated: ['new-conversation-created'],
	messageCreated: ['message-sent'],
	conversationClosed: ['conversation-status-updated'],
	userCreated: ['registration'],
	tagApplied: [],
	leadCaptured: ['new-email-address'],
};
