import { RESOURCE_NOUNS } from '../shared/vocabulary/records';
import { CLOSE_ACTIONS } from '../shared/vocabulary/times';
import type { CanonicalEvent } from '../shared/events';

/**
 * The words of event names: what the trigger knows about how services name their events, as data,
 * and the one normalisation of a name to those words (below). detect.ts reads both; the subjects of
 * users, conversations and messages come from the one table of resource words
 * (shared/vocabulary/records.ts).
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
const FILLER = new Set([
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
const IRREGULAR: ReadonlyMap<string, readonly string[]> = new Map([
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

/**
 * Event names to words: any naming style, in any case and tense, to the base-form words the alias table
 * (above) is written in. The one normalisation the trigger has; its vocabulary is the table's.
 */

/** Every subject word of the alias table (`conversation`, `lead`…). */
export const SUBJECT_WORDS = new Set(EVENT_ALIASES.flatMap((alias) => alias.subjects));
const ACTION_WORDS = new Set(
	EVENT_ALIASES.flatMap((alias) => alias.actions).filter((word) => word !== ''),
);
const VOCABULARY = new Set([...SUBJECT_WORDS, ...ACTION_WORDS, ...FILLER]);

/** A word's base form when it is in the vocabulary: `created` → `create`, `conversations` → `conversation`. */
function stem(word: string): readonly string[] {
	const irregular = IRREGULAR.get(word);
	if (irregular !== undefined) return irregular;
	if (VOCABULARY.has(word)) return [word];
	const candidates: string[] = [];
	const strip = (suffix: string, add = '') => {
		if (word.length > suffix.length + 1 && word.endsWith(suffix)) {
			candidates.push(word.slice(0, -suffix.length) + add);
		}
	};
	strip('ies', 'y');
	strip('ied', 'y');
	strip('es');
	strip('s');
	strip('ed');
	strip('d');
	strip('ing');
	strip('ing', 'e');
	for (const candidate of [...candidates]) {
		// Doubled final consonant: `submitted` → `submitt` → `submit`, `stopped` → `stop`.
		const last = candidate[candidate.length - 1];
		if (last === candidate[candidate.length - 2] && CONSONANTS.has(last))
			candidates.push(candidate.slice(0, -1));
	}
	const known = candidates.find((candidate) => VOCABULARY.has(candidate));
	return [known ?? word];
}

const CONSONANTS = new Set('bcdfghjklmnpqrstvwxz');

/**
 * Longest text read as an event name, a status, a sender type or a record key. Longer text names no
 * event any sender uses; it is left unread (no words), so an attacker's 100 kB name is never split into
 * words: it is only masked (linear), then cut to this length where it is reported (the item's eventName, trigger/handle.ts).
 */
export const MAX_NAME_LENGTH = 200;

type CharKind = 'upper' | 'lower' | 'digit' | 'other';

function charKind(char: string | undefined): CharKind {
	if (char === undefined) return 'other';
	if (char >= 'A' && char <= 'Z') return 'upper';
	if (char >= 'a' && char <= 'z') return 'lower';
	if (char >= '0' && char <= '9') return 'digit';
	return 'other';
}

/**
 * Splits any case style into lower-case ASCII words in one pass: a word ends at anything that is not a
 * letter or digit, before a capital that follows a small letter or digit (`newConversation`), and before
 * the last capital of a run that goes on in small letters (`HTMLParser` → `html parser`). Written as a
 * scan rather than regular expressions because the obvious pattern for the last rule,
 * `/([A-Z]+)([A-Z][a-z])/g`, takes quadratic time on a long run of capitals.
 */
function splitWords(name: string): string[] {
	const words: string[] = [];
	let current = '';
	for (let index = 0; index < name.length; index++) {
		const char = name[index];
		const kind = charKind(char);
		if (kind === 'other') {
			if (current !== '') words.push(current);
			current = '';
			continue;
		}
		const previous = charKind(name[index - 1]);
		const boundary =
			kind === 'upper' &&
			(previous === 'lower' ||
				previous === 'digit' ||
				(previous === 'upper' && charKind(name[index + 1]) === 'lower'));
		if (boundary && current !== '') {
			words.push(current);
			current = '';
		}
		current += char.toLowerCase();
	}
	if (current !== '') words.push(current);
	return words;
}

/** Numbers and version tags (`v2.message.created`) carry no meaning. */
function isVersionOrNumber(word: string): boolean {
	const digits = word.startsWith('v') ? word.slice(1) : word;
	return digits !== '' && [...digits].every((char) => charKind(char) === 'digit');
}

/**
 * The ONE normalisation: any naming style to meaningful base-form words, in order, without repeats.
 * `conversation.created`, `conversation_created`, `ConversationCreated`, `CONVERSATION_CREATED` all
 * give `['conversation', 'create']`; `new-conversation`, `New Conversation` and `NewConversation` give
 * `['new', 'conversation']`, which the alias table reads the same way. Text longer than
 * `MAX_NAME_LENGTH` gives no words. Linear in the length of the name.
 */
export function normaliseEventName(name: string): string[] {
	if (name.length > MAX_NAME_LENGTH) return [];
	const result = new Set<string>();
	for (const word of splitWords(name)) {
		if (isVersionOrNumber(word)) continue;
		for (const base of stem(word)) {
			if (!FILLER.has(base)) result.add(base);
		}
	}
	return [...result];
}
