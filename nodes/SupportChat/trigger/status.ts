import type { PlainObject } from '../shared/json';
import { asText, isRecord } from '../shared/json';
import {
	ARCHIVED_STATUS_CODE,
	CLOSED_STATUS_WORDS,
	DELIVERY_STATUS_KEYS,
} from '../shared/vocabulary/times';
import { unwrapEventData } from '../shared/eventData';
import { normaliseEventName } from './words';

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
