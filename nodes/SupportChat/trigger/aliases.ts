import { RESOURCE_NOUNS } from '../shared/vocabulary/records';
import { CLOSE_ACTIONS } from '../shared/vocabulary/times';
import type { CanonicalEvent } from '../shared/events';

/**
 * The words of event names: what the trigger knows about how services name their events, as data.
 * detect.ts and words.ts read it; the subjects of users, conversations and messages come from the one
 * table of resource words (shared/vocabulary/records.ts).
 */

interface EventAlias {
	event: CanonicalEvent;
	/** Words naming what the event is about. */
	subjects: readonly string[];
	/** Words naming what happened; `''` accepts the subject alone (`"message"`, `"lead"`). */
	actions: readonly string[];
	/** Only when the payload's status says the conversation is closed (`conversation-status-updated`). */
	requiresClosedStatus?: true;
}

/**
 * THE alias table. A name matches a row when its words are one of the row's subjects plus only words
 * from the row's actions (in any order, any tense, any case style; filler words such as "event" or
 * "status" are ignored). When a name mentions several subjects (`contact.lead.created`,
 * `user.tag.added`, `conversation.message.created`) the row listed first decides: a tag on a user is
 * about the tag, a message in a conversation about the message.
 */
export const EVENT_ALIASES: readonly EventAlias[] = [
	{
		event: 'tagApplied',
		subjects: ['tag', 'label'],
		actions: ['apply', 'add', 'assign', 'attach', 'set'],
	},
	{
		event: 'messageCreated',
		subjects: RESOURCE_NOUNS.message,
		actions: ['', 'create', 'new', 'add', 'send', 'receive', 'post', 'submit', 'write'],
	},
	{
		event: 'leadCaptured',
		subjects: ['lead', 'email', 'prospect'],
		actions: [
			'',
			'create',
			'new',
			'add',
			'capture',
			'collect',
			'submit',
			'leave',
			'generate',
			'convert',
		],
	},
	{
		event: 'conversationCreated',
		subjects: RESOURCE_NOUNS.conversation,
		actions: ['create', 'new', 'add', 'start', 'open', 'begin', 'initiate'],
	},
	{ event: 'conversationClosed', subjects: RESOURCE_NOUNS.conversation, actions: CLOSE_ACTIONS },
	{
		event: 'conversationClosed',
		subjects: RESOURCE_NOUNS.conversation,
		actions: ['update', 'change', 'modify', 'edit', 'set'],
		requiresClosedStatus: true,
	},
	{
		event: 'userCreated',
		subjects: RESOURCE_NOUNS.user,
		actions: ['create', 'new', 'add', 'register', 'signup', 'join'],
	},
];

/** Words that carry no meaning in an event name. */
export const FILLER = new Set([
	'event',
	'events',
	'webhook',
	'hook',
	'notification',
	'on',
	'the',
	'a',
	'an',
	'has',
	'have',
	'had',
	'been',
	'be',
	'is',
	'was',
	'were',
	'got',
	'by',
	'of',
	'to',
	'for',
	'in',
	'status',
	'state',
	'address',
]);

/** Inflections the suffix rules below cannot undo. A Map: the words come from senders (`constructor`...). */
export const IRREGULAR: ReadonlyMap<string, readonly string[]> = new Map([
	['sent', ['send']],
	['began', ['begin']],
	['begun', ['begin']],
	['left', ['leave']],
	['written', ['write']],
	['wrote', ['write']],
	['tagged', ['tag', 'apply']],
	['tagging', ['tag', 'apply']],
	['labelled', ['label', 'apply']],
	['labeled', ['label', 'apply']],
]);
