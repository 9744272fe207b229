import { deliveryIdOf } from '../../helpers/trigger';

describe('deliveryId', () => {
	test.each([
		[
			'Standard Webhooks header',
			{},
			{ 'webhook-id': 'msg_1' },
			{ id: 'msg_1', source: 'header webhook-id' },
		],
		['Svix header', {}, { 'svix-id': 'msg_2' }, { id: 'msg_2', source: 'header svix-id' }],
		['event id header', {}, { 'x-event-id': 'e3' }, { id: 'e3', source: 'header x-event-id' }],
		[
			'idempotency key',
			{},
			{ 'idempotency-key': 'k4' },
			{ id: 'k4', source: 'header idempotency-key' },
		],
		['event_id in the body', { event_id: 'e5' }, {}, { id: 'e5', source: 'body.event_id' }],
		['numeric delivery_id', { delivery_id: 6 }, {}, { id: '6', source: 'body.delivery_id' }],
		[
			'envelope id',
			{ id: 'evt_7', event: 'x', data: { id: 1 } },
			{},
			{ id: 'evt_7', source: 'body.id' },
		],
		[
			'per-attempt header last',
			{ id: 'evt_8', data: {} },
			{ 'x-delivery-id': 'd' },
			{ id: 'evt_8', source: 'body.id' },
		],
		[
			'per-attempt header alone',
			{},
			{ 'x-delivery-id': 'd9' },
			{ id: 'd9', source: 'header x-delivery-id' },
		],
		[
			'header before body',
			{ event_id: 'b' },
			{ 'webhook-id': 'h' },
			{ id: 'h', source: 'header webhook-id' },
		],
	])('%s', (_label, body, headers, expected) => {
		expect(deliveryIdOf(body, headers)).toEqual(expected);
	});

	test("a flat body's id names the resource, not the delivery", () => {
		expect(deliveryIdOf({ event: 'conversation.closed', id: 5 }, {})).toBeUndefined();
		expect(deliveryIdOf({}, {})).toBeUndefined();
	});
});
