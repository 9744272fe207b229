import type { ReferencedResource } from './vocabulary/records';
import { CLOSED_AT_KEYS } from './vocabulary/times';

/**
 * The event table's rows: every fact of an event, one row each, for the six kinds of the service's
 * description (here) and Support Board's own webhooks (./supportBoardEvents.ts) alike. The editor's
 * Events options of both triggers, what an event is about and keyed by, what tells two of its changes
 * apart, the product's webhook names and the polled events are derived from them (./eventFacts.ts). A
 * new event is one row.
 */

export interface EventRow {
	/** The option's value: public API, saved in workflows and carried by items; never renamed. */
	value: string;
	/** The option's name in the editor's Events list. */
	name: string;
	description: string;
	/** One of the six kinds every service sends, or Support Board's own event, offered by its name. */
	source: 'kind' | 'supportBoard';
	/** What its data's own `id` (or a bare value, `data: "7"`) names; null when nothing. */
	about: ReferencedResource | null;
	/** The record its eventKey is made of (shared/eventKey.ts). */
	keyedBy: ReferencedResource;
	/**
	 * What tells one change of the record from another of the same kind: the first of these fields its
	 * data has, `'data'` for a digest of the data (an event that names no record of its own), or null.
	 */
	change: readonly string[] | 'data' | null;
	/**
	 * Support Board's webhook names that report it (include/functions.php `sb_webhooks`, 3.8.7): what Set
	 * Up Webhook ticks, and, for one of its own events, the `function` a delivery names it by.
	 */
	webhooks: readonly string[];
	/** Whether detection reads those names whole, where the word rules read them wrongly or not at all. */
	namedWhole: boolean;
	/** Whether its product delivery's data `id` names the form a visitor filled in, not a record. */
	formId: boolean;
	/** Where its data names the user it is about when no usual key does. */
	userKeys?: readonly string[];
	/** Whether the poll trigger can find it. */
	polled: boolean;
}

export const ANY_EVENT = '*';
export const UNKNOWN_EVENT = 'unknown';

/**
 * The six kinds in the order of the spec's table (§6), lead capture last, then Support Board's own.
 * Tag Applied has no webhook: Support Board sends none for a tag. Registration and the follow-up form
 * carry the form's id (`id: "sb-follow-up"`) beside the visitor's details; a closing's key is its time
 * (the poll trigger reads the same field of the record); Support Board's archive delivery carries none.
 */
export const KIND_ROWS = [
	{
		value: 'conversationCreated',
		name: 'New Conversation',
		description: 'A visitor starts a new chat session',
		source: 'kind',
		about: 'conversation',
		keyedBy: 'conversation',
		change: null,
		webhooks: ['new-conversation-created'],
		namedWhole: false,
		formId: false,
		polled: true,
	},
	{
		value: 'messageCreated',
		name: 'New Message',
		description: 'A user sends a message during a conversation',
		source: 'kind',
		about: 'message',
		keyedBy: 'message',
		change: null,
		webhooks: ['message-sent'],
		namedWhole: false,
		formId: false,
		polled: true,
	},
	{
		value: 'conversationClosed',
		name: 'Conversation Closed',
		description: 'A conversation is closed (archived)',
		source: 'kind',
		about: 'conversation',
		keyedBy: 'conversation',
		change: CLOSED_AT_KEYS,
		webhooks: ['conversation-status-updated'],
		namedWhole: false,
		formId: false,
		polled: true,
	},
	{
		value: 'userCreated',
		name: 'New User Created',
		description: 'A new user profile is created through chat or automation',
		source: 'kind',
		about: 'user',
		keyedBy: 'user',
		change: null,
		webhooks: ['registration'],
		namedWhole: true,
		formId: true,
		polled: true,
	},
	{
		value: 'tagApplied',
		name: 'Tag Applied',
		description: 'A tag is assigned to a user',
		source: 'kind',
		about: null,
		keyedBy: 'user',
		change: ['tag', 'tag_name', 'name'],
		webhooks: [],
		namedWhole: false,
		formId: false,
		polled: false,
	},
	{
		value: 'leadCaptured',
		name: 'Lead Captured',
		description: 'A visitor leaves contact details, such as an email address',
		source: 'kind',
		about: 'user',
		keyedBy: 'user',
		change: ['email', 'phone'],
		webhooks: ['new-email-address'],
		namedWhole: true,
		formId: true,
		polled: false,
	},
] as const satisfies readonly EventRow[];

export type CanonicalEvent = (typeof KIND_ROWS)[number]['value'];
