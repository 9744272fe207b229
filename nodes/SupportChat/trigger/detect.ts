import type { PlainObject } from '../shared/json';
import { asText, getObjectPath, isRecord, trimmedText } from '../shared/json';
import type { NamedDelivery } from '../shared/eventFacts';
import { NAMED_DELIVERIES, productEventOf, resourceOfEvent } from '../shared/eventFacts';
import type { CanonicalEvent } from '../shared/events';
import { UNKNOWN_EVENT } from '../shared/events';
import type { SupportBoardEvent } from '../shared/supportBoardEvents';
import { EVENT_ALIASES, MAX_NAME_LENGTH, SUBJECT_WORDS, normaliseEventName } from './aliases';
import {
	EVENT_FIELDS,
	EVENT_HEADERS,
	EVENT_HEADER_PATTERN,
	NESTED_EVENT_FIELDS,
	WEAK_EVENT_FIELDS,
} from './payloadStyles';
import type { HeaderMap } from './deliveryHeaders';
import { headerValue } from './deliveryHeaders';
import {
	ARCHIVED_STATUS_CODE,
	CLOSED_STATUS_WORDS,
	DELIVERY_STATUS_KEYS,
} from '../shared/vocabulary/times';
import { unwrapEventData } from '../shared/vocabulary/envelopes';
import type { ReferencedResource } from '../shared/vocabulary/records';
import { RESOURCE_OF_WORD } from '../shared/vocabulary/records';

/**
 * Which event a delivery is. The spec lists the kinds of event but not their names on the wire (spec
 * §6), and chat services name them in every style, so a delivery's name is found where its payload
 * style puts it (./payloadStyles.ts), normalised to words and matched against ONE alias table,
 * both in ./aliases.ts. Nothing else in the trigger knows an alias.
 */

export interface DetectedEvent {
	event: CanonicalEvent | typeof UNKNOWN_EVENT;
	/** The name as sent, when the delivery carried one. */
	name?: string;
	/** Where the name was found: `header x-event`, `body.event`, `body.data.event`, ... */
	source?: string;
	/**
	 * Support Board's own event by the name it was sent under (shared/supportBoardEvents.ts), beside
	 * `event`: a workflow that selects it gets it where `event` is not selected (handle.ts).
	 */
	productEvent?: SupportBoardEvent;
}

/** A delivery's entry and the event's data inside its envelope, unwrapped once by the caller. */
interface Payload {
	body: PlainObject;
	data: PlainObject;
}

/** Matches normalised words against the alias table. */
function matchWords(
	words: string[],
	payload: Payload,
	allowBareSubject: boolean,
): CanonicalEvent | undefined {
	const lead = EVENT_ALIASES.find((alias) =>
		alias.subjects.some((subject) => words.includes(subject)),
	);
	if (lead === undefined) return undefined;
	const actions = words.filter((word) => !SUBJECT_WORDS.has(word));
	if (actions.length === 0 && !allowBareSubject) return undefined;
	for (const alias of EVENT_ALIASES) {
		if (alias.subjects !== lead.subjects) continue;
		const accepts =
			actions.length === 0
				? alias.actions.includes('')
				: actions.every((word) => alias.actions.includes(word));
		if (!accepts) continue;
		if (alias.requiresClosedStatus && !hasClosedStatus(payload.body, payload.data)) continue;
		return alias.event;
	}
	return undefined;
}

/** Subjects taken from resource keys present in the payload (`{ action: 'created', conversation: {...} }`). */
function subjectsFromKeys({ body, data }: Payload): string[] {
	const found: string[] = [];
	for (const place of [body, data]) {
		for (const [key, value] of Object.entries(place)) {
			if (!isRecord(value)) continue;
			const word = normaliseEventName(key).find((candidate) => SUBJECT_WORDS.has(candidate));
			if (word !== undefined && !found.includes(word)) found.push(word);
		}
	}
	return found;
}

interface Candidate {
	name: string;
	source: string;
}

/** The headers' answer, once per delivery: every entry of a batch comes with the same headers. */
const HEADER_CANDIDATES = new WeakMap<HeaderMap, Candidate | null>();

/** The known event headers, then any vendor's event header (by name, sorted); null when none names one. */
function headerCandidate(headers: HeaderMap): Candidate | null {
	const known = HEADER_CANDIDATES.get(headers);
	if (known !== undefined) return known;
	let found: Candidate | null = null;
	for (const name of EVENT_HEADERS) {
		const value = asText(headerValue(headers, name));
		if (value !== undefined) {
			found = { name: value, source: `header ${name}` };
			break;
		}
	}
	if (found === null) {
		let vendor: { header: string; value: string } | undefined;
		for (const [rawName, rawValue] of Object.entries(headers)) {
			const header = rawName.toLowerCase();
			if (vendor !== undefined && header >= vendor.header) continue;
			if (header.length > MAX_NAME_LENGTH || !EVENT_HEADER_PATTERN.test(header)) continue;
			const value = asText(Array.isArray(rawValue) ? rawValue[0] : rawValue);
			if (value !== undefined) vendor = { header, value };
		}
		if (vendor !== undefined) found = { name: vendor.value, source: `header ${vendor.header}` };
	}
	HEADER_CANDIDATES.set(headers, found);
	return found;
}

/**
 * The first explicit name, in the documented order: the known event headers, any vendor's event header
 * (by name, sorted), the event fields, the nested ones. One pass over the headers per delivery, whatever
 * their number and the batch's length.
 */
function firstExplicitCandidate(body: PlainObject, headers: HeaderMap): Candidate | undefined {
	const fromHeaders = headerCandidate(headers);
	if (fromHeaders !== null) return fromHeaders;
	for (const key of EVENT_FIELDS) {
		const value = trimmedText(body[key]);
		if (value !== undefined) return { name: value, source: `body.${key}` };
	}
	for (const path of NESTED_EVENT_FIELDS) {
		const value = trimmedText(getObjectPath(body, path));
		if (value !== undefined) return { name: value, source: `body.${path}` };
	}
	return undefined;
}

/**
 * Resolves one name. A name with a subject but no action takes the body's `action`
 * (`X-Event: conversation` with `action: "closed"`); a name with an action but no subject takes the
 * subject from the resource keys present (`{ action: "created", conversation: {...} }`). A subject alone
 * (`"message"`) is enough only when `allowBareSubject` and the body has no `action` saying otherwise.
 */
function resolve(
	candidate: Candidate,
	payload: Payload,
	allowBareSubject: boolean,
): CanonicalEvent | undefined {
	const { body } = payload;
	const named = namedDelivery(candidate.name);
	if (named?.event !== undefined) return named.event;
	const words = normaliseEventName(candidate.name);
	if (words.length === 0) return undefined;
	const hasSubject = words.some((word) => SUBJECT_WORDS.has(word));
	const hasAction = words.some((word) => !SUBJECT_WORDS.has(word));
	if (hasSubject && hasAction) return matchWords(words, payload, false);
	if (hasSubject) {
		const action =
			candidate.source !== 'body.action' && typeof body.action === 'string'
				? normaliseEventName(body.action)
				: [];
		if (action.length > 0) return matchWords([...words, ...action], payload, false);
		return allowBareSubject ? matchWords(words, payload, true) : undefined;
	}
	const subjects = subjectsFromKeys(payload);
	if (subjects.length === 0) return undefined;
	return matchWords([...subjects, ...words], payload, false);
}

/**
 * Recognises the event a delivery reports.
 *
 * Looks, in this order, at event headers (`X-Event`, `X-Webhook-Event`, `X-*-Event`, `X-*-Topic`), the
 * body's `event`, `event_type`, `event_name`, `webhook_event`, `topic` and `function` fields, nested
 * forms (`event.type`, `data.event`, `payload.event`, `meta.event`); the first one present decides,
 * recognised or not. Only without any of these are the ambiguous `type`, `action` and `name` fields
 * tried, and there a bare subject (`type: "message"`) is not enough.
 *
 * @param data the event's data inside its envelope (../shared/vocabulary/envelopes.ts)
 */
function detectEvent(body: PlainObject, headers: HeaderMap, data: PlainObject): DetectedEvent {
	const payload: Payload = { body, data };
	const explicit = firstExplicitCandidate(body, headers);
	if (explicit !== undefined) {
		const event = resolve(explicit, payload, true) ?? UNKNOWN_EVENT;
		const product =
			explicit.name.length > MAX_NAME_LENGTH ? undefined : productEventOf(explicit.name);
		return {
			event,
			name: explicit.name,
			source: explicit.source,
			...(product === undefined ? {} : { productEvent: product }),
		};
	}

	const weak: Candidate[] = [];
	for (const key of WEAK_EVENT_FIELDS) {
		const value = trimmedText(body[key]);
		if (value !== undefined) weak.push({ name: value, source: `body.${key}` });
	}
	for (const candidate of weak) {
		const event = resolve(candidate, payload, false);
		if (event !== undefined) return { event, name: candidate.name, source: candidate.source };
	}
	const reported = weak.find((candidate) => candidate.source !== 'body.name');
	return reported
		? { event: UNKNOWN_EVENT, name: reported.name, source: reported.source }
		: { event: UNKNOWN_EVENT };
}

/** What a whole name says, when the table of names services send knows it (`registration`, `login`). */
function namedDelivery(name: string | undefined): NamedDelivery | undefined {
	return name === undefined || name.length > MAX_NAME_LENGTH
		? undefined
		: NAMED_DELIVERIES.get(name.toLowerCase());
}

/**
 * Whether the payload says the conversation is now closed or archived: a status word of
 * CLOSED_STATUS_WORDS in any naming style, or the archived status code, in the event's data, its
 * conversation or the body. `data` is the event's data when the caller has it unwrapped already.
 */
export function hasClosedStatus(
	body: PlainObject,
	data: PlainObject = unwrapEventData(body),
): boolean {
	const places = [data, isRecord(data.conversation) ? data.conversation : undefined, body].filter(
		isRecord,
	);
	for (const place of places) {
		for (const key of DELIVERY_STATUS_KEYS) {
			const value = asText(place[key]);
			if (value === undefined) continue;
			if (value === ARCHIVED_STATUS_CODE) return true;
			if (normaliseEventName(value).some((word) => CLOSED_STATUS_WORDS.has(word))) return true;
		}
	}
	return false;
}

/**
 * All the trigger asks of an event's name: which event it is (detectEvent, above), what the delivery is about,
 * and whether its data's own id names a form rather than a record.
 */

/**
 * What a delivery is about: its event's resource, else what its name says (`login` is about a user,
 * `user-deleted` and `message-deleted` name theirs), so that a delivery passed on as `unknown` still
 * has its ids.
 */
function resourceOfDelivery(detected: DetectedEvent): ReferencedResource | undefined {
	const known = resourceOfEvent(detected.event) ?? namedDelivery(detected.name)?.about;
	if (known !== undefined || detected.name === undefined) return known;
	for (const word of normaliseEventName(detected.name)) {
		const resource = RESOURCE_OF_WORD.get(word);
		if (resource !== undefined) return resource;
	}
	return undefined;
}

/** An entry's event and what its data's own `id` names, for reading its ids (ids.ts). */
export interface RecognisedEvent {
	detected: DetectedEvent;
	/** The resource the delivery is about (`resourceOfDelivery`). */
	about?: ReferencedResource;
	/** Its data's own `id` names a form, not a record (the event table's `formId`). */
	formId: boolean;
}

/** `detectEvent`, and what the event says about its data's ids: all the trigger asks of an event's name. */
export function recogniseEvent(
	body: PlainObject,
	headers: HeaderMap,
	data: PlainObject,
): RecognisedEvent {
	const detected = detectEvent(body, headers, data);
	return {
		detected,
		about: resourceOfDelivery(detected),
		formId: namedDelivery(detected.name)?.formId === true,
	};
}
