import type { PlainObject } from '../shared/json';
import { asText, isRecord } from '../shared/json';
import { unwrapEventData } from './envelope';
import { normaliseEventName } from './words';

/** Status values that mean a conversation is over. `3` is "archived" in PHP chat services' status codes. */
const CLOSED_STATUS_WORDS = new Set(['close', 'archive', 'resolve', 'solve', 'end', 'finish', 'complete', 'done']);
const CLOSED_STATUS_CODES = new Set(['3']);
const STATUS_KEYS = [
	'status',
	'status_code',
	'statusCode',
	'conversation_status',
	'conversation_status_code',
	'conversationStatus',
	'new_status',
	'newStatus',
	'state',
];

/** Whether the payload says the conversation is now closed or archived. */
export function hasClosedStatus(body: PlainObject): boolean {
	const data = unwrapEventData(body);
	const places = [data, isRecord(data.conversation) ? data.conversation : undefined, body].filter(isRecord);
	for (const place of places) {
		for (const key of STATUS_KEYS) {
			const value = asText(place[key]);
			if (value === undefined) continue;
			if (CLOSED_STATUS_CODES.has(value)) return true;
			if (normaliseEventName(value).some((word) => CLOSED_STATUS_WORDS.has(word))) return true;
		}
	}
	return false;
}
