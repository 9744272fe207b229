import { resultOf } from '../../../../nodes/SupportChat/actions/helpers';
import {
	ANSWER_ENVELOPES,
	ENVELOPE_NOISE,
	WEBHOOK_ENVELOPES,
	unwrapEventData,
} from '../../../../nodes/SupportChat/shared/vocabulary/envelopes';
import { LIST_KEYS, META_KEYS } from '../../../../nodes/SupportChat/shared/vocabulary/pages';
import { findItems } from '../../../../nodes/SupportChat/transport/pagination/locate';

describe('the service vocabulary', () => {
	it.each([
		['ANSWER_ENVELOPES', ANSWER_ENVELOPES],
		['WEBHOOK_ENVELOPES', WEBHOOK_ENVELOPES],
	])('%s names each key once', (_, keys) => {
		expect(new Set(keys).size).toBe(keys.length);
	});

	it('no envelope key is also envelope noise', () => {
		for (const key of [...ANSWER_ENVELOPES, ...WEBHOOK_ENVELOPES])
			expect(ENVELOPE_NOISE.has(key)).toBe(false);
		for (const key of META_KEYS) expect(LIST_KEYS).not.toContain(key);
	});

	it.each(ANSWER_ENVELOPES)(
		'a record wrapped in %s is unwrapped, and a page in it is found',
		(key) => {
			expect(resultOf({ success: true, [key]: { id: 1 } }, {})).toEqual({ id: 1 });
			expect(findItems({ [key]: { items: [{ id: 1 }] } }, '').items).toEqual([{ id: 1 }]);
		},
	);
});

describe('unwrapEventData', () => {
	test.each([
		[{ event: 'x', data: { id: 1 } }, { id: 1 }],
		[{ event: 'x', payload: { id: 2 } }, { id: 2 }],
		[{ type: 'x', data: { object: { id: 3 } } }, { id: 3 }],
		[{ topic: 'x', data: { item: { id: 4 } } }, { id: 4 }],
		[{ resource: { id: 5 } }, { id: 5 }],
		[{ event: { type: 'x', id: 6 } }, { type: 'x', id: 6 }],
		[
			{ event: 'x', id: 7 },
			{ event: 'x', id: 7 },
		],
		[
			{ event: 'x', data: [1, 2] },
			{ event: 'x', data: [1, 2] },
		],
		[
			{ event: 'x', data: 'text' },
			{ event: 'x', data: 'text' },
		],
	])('%j → %j', (body, data) => {
		expect(unwrapEventData(body)).toEqual(data);
	});
});

describe('WEBHOOK_ENVELOPES', () => {
	it.each(WEBHOOK_ENVELOPES)('a delivery wrapped in %s gives the event data', (key) => {
		expect(unwrapEventData({ id: 'delivery', [key]: { id: 5 } })).toEqual({ id: 5 });
	});
});
