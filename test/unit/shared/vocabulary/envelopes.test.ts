import { resultOf } from '../../../../nodes/SupportChat/actions/helpers';
import {
	ANSWER_ENVELOPES,
	ENVELOPE_NOISE,
	WEBHOOK_ENVELOPES,
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
