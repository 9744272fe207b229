/**
 * A conversation's life in the words services use: when a record was created and closed, where its state
 * is, and which states and words mean closed. The one home of that knowledge: the poll trigger reads a
 * REST service's records with it, the webhook trigger a delivery's status, Simplify a conversation. The
 * description shows no record fields (§2), so these are the names chat and CRM services use; the poll's
 * Watermark Field overrides the creation keys.
 *
 * Where two readers need different lists, each list says what it is for and how it differs: a reader
 * that guesses (a delivery's status text) takes more words than one that compares exactly (a REST
 * record's state), and what a user sees as "closed at" is never a last change.
 */

/** A record's creation time as the poll reads it, first present wins. */
export const CREATED_AT_KEYS: readonly string[] = [
	'created_at',
	'createdAt',
	'creation_time',
	'created',
	'date_created',
	'inserted_at',
];

/**
 * A conversation's creation time as Simplify shows it, first present wins: Support Board's prefixed and
 * nested fields too, and `created` before `creation_time` (as Simplify always read them).
 */
export const CREATED_AT_PATHS: readonly string[] = [
	'created_at',
	'createdAt',
	'created',
	'creation_time',
	'conversation_creation_time',
	'details.creation_time',
];

/** A conversation's closing time as Simplify shows it: never its last change, which an open one has too. */
export const CLOSING_TIME_KEYS: readonly string[] = ['closed_at', 'closedAt', 'archived_at'];

/**
 * When a conversation was closed as the poll and a delivery's eventKey read it, first present wins; its
 * last change when it keeps no closing time.
 */
export const CLOSED_AT_KEYS: readonly string[] = [
	...CLOSING_TIME_KEYS,
	'archivedAt',
	'resolved_at',
	'updated_at',
	'updatedAt',
];

/** Where a REST record keeps its state (spec §3). */
export const STATUS_KEYS: readonly string[] = ['status', 'state'];

/**
 * Where a delivery may name a conversation's status: a record's `STATUS_KEYS` and the spellings senders
 * use for a status code or a new status (Support Board's `conversation_status_code`). Read as "any of
 * them says closed", so their order does not matter.
 */
export const DELIVERY_STATUS_KEYS: readonly string[] = [
	...STATUS_KEYS,
	'status_code',
	'statusCode',
	'conversation_status',
	'conversation_status_code',
	'conversationStatus',
	'new_status',
	'newStatus',
];

/** A REST record's states that mean closed (spec §3: "closed (archived)"), compared whole, lower-cased. */
export const CLOSED_STATES: ReadonlySet<string> = new Set([
	'closed',
	'archived',
	'resolved',
	'done',
]);

/** Support Board's status code of an archived conversation (`conversation_status_code: 3`); PHP chat services' too. */
export const ARCHIVED_STATUS_CODE = '3';

/** Words (base forms, trigger/aliases.ts) that say a conversation is over, in a status or an event name. */
const CLOSING_WORDS: readonly string[] = [
	'close',
	'archive',
	'resolve',
	'solve',
	'end',
	'finish',
	'complete',
];

/** A delivery's status words that mean closed: `done` is a state a conversation is in, not a thing that happens to it. */
export const CLOSED_STATUS_WORDS: ReadonlySet<string> = new Set([...CLOSING_WORDS, 'done']);

/** Actions of an event name that close a conversation (`chat_stopped`): `stop` happens to a chat, no status is "stop". */
export const CLOSE_ACTIONS: readonly string[] = [...CLOSING_WORDS, 'stop'];
