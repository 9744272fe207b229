import type { PlainObject } from '../shared/json';
import { asText, fieldOf, getObjectPath, isRecord, trimmedText } from '../shared/json';
import type { ReferencedResource } from '../shared/vocabulary/records';
import {
	NOT_AN_ID,
	RECORD_FIELDS_KEYS,
	REFERENCE_ID_KEYS,
	RESOURCE_NOUNS,
	RESOURCE_OF_WORD,
} from '../shared/vocabulary/records';
import { unwrapEventData } from '../shared/vocabulary/envelopes';

/**
 * The ids a workflow needs to call the API back. Every word read here comes from the one table of
 * resource words (shared/vocabulary/records.ts).
 */

export interface ExtractedIds {
	conversationId: string | number | null;
	userId: string | number | null;
	messageId: string | number | null;
}

interface IdOptions {
	/** The data's own `id` names a form (Support Board's `id: "sb-follow-up"`), not a record. */
	formId?: boolean;
	/** The message the delivery is about when it carries a list of them (shared/ownMessages.ts chooses it). */
	message?: PlainObject;
	/** The event's data inside its envelope (../shared/vocabulary/envelopes.ts), when the caller has it already. */
	data?: PlainObject;
	/** Keys naming the user in this event's data besides the usual ones (Support Board's `recipient_id`). */
	userKeys?: readonly string[];
}

/** Longest text taken for an id when the data is nothing but a value (`data: "7"`). */
const MAX_BARE_ID_LENGTH = 64;

function idValue(value: unknown): string | number | null {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	const text = trimmedText(value);
	return text === undefined || NOT_AN_ID.has(text.toLowerCase()) ? null : text;
}

/** What kind of record `data` is by its own words, e.g. `{ object: 'conversation', id: 5 }`. */
function kindOf(data: PlainObject): ReferencedResource | undefined {
	for (const key of ['object', 'type', 'resource_type', 'resourceType', 'kind', 'entity']) {
		const word = asText(data[key])?.toLowerCase();
		const kind = word === undefined ? undefined : RESOURCE_OF_WORD.get(word);
		if (kind !== undefined) return kind;
	}
	return undefined;
}

function findId(
	resource: ReferencedResource,
	places: PlainObject[],
	extra: readonly string[] = [],
): string | number | null {
	const { nested } = REFERENCE_ID_KEYS[resource];
	const flat =
		extra.length === 0
			? REFERENCE_ID_KEYS[resource].flat
			: [...REFERENCE_ID_KEYS[resource].flat, ...extra];
	for (const place of places) {
		for (const key of flat) {
			const value = idValue(Object.hasOwn(place, key) ? place[key] : undefined);
			if (value !== null) return value;
		}
		for (const key of nested) {
			const value = idValue(getObjectPath(place, `${key}.id`));
			if (value !== null) return value;
		}
	}
	return null;
}

/** A record and the fields it keeps apart (`details`), in that order. */
function withFields(record: PlainObject): PlainObject[] {
	const fields = RECORD_FIELDS_KEYS.map((key) => record[key]).filter(isRecord);
	return [record, ...fields];
}

/** The id a record gives itself: its `id`, or its fields' `id` (`{details: {id}}`). */
function selfId(record: PlainObject): string | number | null {
	for (const place of withFields(record)) {
		const value = idValue(fieldOf(place, 'id'));
		if (value !== null) return value;
	}
	return null;
}

/** The records to read, most specific first: the chosen message, the event's data, the records inside it, the body. */
function placesOf(
	body: PlainObject,
	data: PlainObject,
	message: PlainObject | undefined,
): PlainObject[] {
	const places: PlainObject[] = [];
	const add = (record: unknown) => {
		if (!isRecord(record)) return;
		for (const place of withFields(record)) if (!places.includes(place)) places.push(place);
	};
	add(message);
	add(data);
	for (const word of [
		...RESOURCE_NOUNS.message,
		...RESOURCE_NOUNS.conversation,
		...RESOURCE_NOUNS.user,
	]) {
		if (Object.hasOwn(data, word)) add(data[word]);
	}
	add(body);
	return places;
}

/** A delivery whose data is nothing but a value (Support Board's `user-deleted`: `data: "7"`). */
function bareId(body: PlainObject): string | number | null {
	const value = Object.hasOwn(body, 'data') ? body.data : undefined;
	const id = idValue(value);
	if (typeof id === 'string' && (id.length > MAX_BARE_ID_LENGTH || /\s/.test(id))) return null;
	return id;
}

/**
 * The conversation, user and message ids under their usual names (`conversation_id`, `conversationId`,
 * `conversation.id`, `chat_id`, `user_id`, `guest_id`, `message_id`, ...), also inside a record's
 * `details`. A bare `id` counts only as the id of the resource the delivery is about (`about`, from its
 * event or name), or of the kind the record names (`object: "conversation"`); never a form's id. Text
 * that stands for no value (`"false"`) is no id.
 */
export function extractIds(
	body: PlainObject,
	about?: ReferencedResource,
	options: IdOptions = {},
): ExtractedIds {
	const data = options.data ?? unwrapEventData(body);
	const places = placesOf(body, data, options.message);
	const ids: ExtractedIds = {
		conversationId: findId('conversation', places),
		userId: findId('user', places, options.userKeys),
		messageId: findId('message', places),
	};
	if (options.message !== undefined && ids.messageId === null)
		ids.messageId = selfId(options.message);
	// The event says what its data is about; the record's word for itself counts only when the event does not.
	const kind = about ?? kindOf(data);
	const dataId = options.formId ? null : (selfId(data) ?? (data === body ? bareId(body) : null));
	if (kind !== undefined && dataId !== null) {
		const key = `${kind}Id` as const;
		if (ids[key] === null) ids[key] = dataId;
	}
	return ids;
}
