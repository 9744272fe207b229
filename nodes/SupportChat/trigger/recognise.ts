import { resourceOfEvent } from '../shared/eventFacts';
import type { PlainObject } from '../shared/json';
import type { ReferencedResource } from '../shared/vocabulary/records';
import { RESOURCE_OF_WORD } from '../shared/vocabulary/records';
import type { DetectedEvent } from './detect';
import { detectEvent, namedDelivery } from './detect';
import type { HeaderMap } from './util';
import { normaliseEventName } from './words';

/**
 * All the trigger asks of an event's name: which event it is (./detect), what the delivery is about,
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
