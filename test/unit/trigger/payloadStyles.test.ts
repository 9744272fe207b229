import { parseBody } from '../../../nodes/SupportChat/trigger/body';
import { deliveryIdOf, eventOf } from '../../helpers/trigger';
import {
	DELIVERY_ID_FIELDS,
	DELIVERY_ID_HEADERS,
	DELIVERY_META_OBJECTS,
	EVENT_FIELDS,
	EVENT_HEADERS,
	NESTED_EVENT_FIELDS,
	PER_ATTEMPT_ID_HEADERS,
	WEAK_EVENT_FIELDS,
	WEBHOOK_JSON_FIELDS,
} from '../../../nodes/SupportChat/trigger/payloadStyles';

// One row per key of payloadStyles.ts, taken from the lists themselves: a key added there is read.
// (WEBHOOK_JSON_FIELDS has its own under 'the service vocabulary', below; WEBHOOK_ENVELOPES, in
// shared/vocabulary/envelopes.ts, in test/unit/shared/vocabulary/envelopes.test.ts.)

const NAME = 'message.created';

/** `a.b` → `{ a: { b: value } }`. */
function nested(path: string, value: unknown): Record<string, unknown> {
	return path.split('.').reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<
		string,
		unknown
	>;
}

describe('payload styles: where the event is named', () => {
	test.each([...EVENT_HEADERS, 'x-acme-event', 'x-shop-topic'])('header %s', (header) => {
		expect(eventOf({}, { [header]: NAME })).toEqual({
			event: 'messageCreated',
			name: NAME,
			source: `header ${header}`,
		});
	});

	test.each([...EVENT_FIELDS, ...NESTED_EVENT_FIELDS, ...WEAK_EVENT_FIELDS])('body.%s', (path) => {
		expect(eventOf(nested(path, NAME), {})).toEqual({
			event: 'messageCreated',
			name: NAME,
			source: `body.${path}`,
		});
	});
});

describe('payload styles: JSON text', () => {
	test.each(WEBHOOK_JSON_FIELDS)('form field %s carries JSON', (field) => {
		expect(
			parseBody(`${field}=${encodeURIComponent('{"id":5}')}`, 'application/x-www-form-urlencoded'),
		).toEqual({
			ok: true,
			body: { [field]: { id: 5 } },
		});
	});
});

describe('payload styles: where the delivery id is', () => {
	test.each([...DELIVERY_ID_HEADERS, ...PER_ATTEMPT_ID_HEADERS])('header %s', (header) => {
		expect(deliveryIdOf({}, { [header]: 'd-1' })).toEqual({
			id: 'd-1',
			source: `header ${header}`,
		});
	});

	test.each(DELIVERY_ID_FIELDS)('body.%s', (field) => {
		expect(deliveryIdOf({ [field]: 'd-1' }, {})).toEqual({ id: 'd-1', source: `body.${field}` });
	});

	test.each(
		DELIVERY_META_OBJECTS.flatMap((holder) =>
			[...DELIVERY_ID_FIELDS, 'id'].map((field) => [holder, field]),
		),
	)('body.%s.%s', (holder, field) => {
		expect(deliveryIdOf({ [holder]: { [field]: 'd-1' } }, {})).toEqual({
			id: 'd-1',
			source: `body.${holder}.${field}`,
		});
	});

	test('a stable header wins over a body field, which wins over a per-attempt header', () => {
		const headers = { [DELIVERY_ID_HEADERS[0]]: 'h', [PER_ATTEMPT_ID_HEADERS[0]]: 'p' };
		expect(deliveryIdOf({ [DELIVERY_ID_FIELDS[0]]: 'b' }, headers)?.id).toBe('h');
		expect(
			deliveryIdOf({ [DELIVERY_ID_FIELDS[0]]: 'b' }, { [PER_ATTEMPT_ID_HEADERS[0]]: 'p' })?.id,
		).toBe('b');
	});
});

describe('the service vocabulary', () => {
	it.each([['WEBHOOK_JSON_FIELDS', WEBHOOK_JSON_FIELDS]])('%s names each key once', (_, keys) => {
		expect(new Set(keys).size).toBe(keys.length);
	});
});
