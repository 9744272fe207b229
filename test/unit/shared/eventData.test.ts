import { unwrapEventData } from '../../../nodes/SupportChat/shared/eventData';
import { WEBHOOK_ENVELOPES } from '../../../nodes/SupportChat/shared/vocabulary/envelopes';

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
