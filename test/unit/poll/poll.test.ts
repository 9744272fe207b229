import type { Found } from '../../../nodes/SupportChat/apis/types';
import type { IDataObject } from 'n8n-workflow';

import { inOrder, readState, writeState } from '../../../nodes/SupportChat/poll/poll';

const event = (
	at: number | string,
	key: string,
	seq = 0,
	kind: Found['event'] = 'userCreated',
): Found => ({
	event: kind,
	key,
	at,
	seq,
	conversationId: null,
	userId: key,
	messageId: null,
	source: 'test',
	data: {},
});

describe('the poll emits oldest first, each event once', () => {
	it('orders a growing field by its value: negative, fractional and long numbers too', () => {
		const found = [
			event(10, 'ten'),
			event(1.5, 'one-and-a-half'),
			event(-5, 'minus-five'),
			event(2, 'two'),
			event(1e17, 'huge'),
		];
		expect(inOrder(found).map((e) => e.key)).toEqual([
			'minus-five',
			'one-and-a-half',
			'two',
			'ten',
			'huge',
		]);
	});

	it("orders the service's time text by its characters, and one instant as things happen", () => {
		const found = [
			event('2024-05-01 10:00:01', 'later'),
			event('2024-05-01 10:00:00', 'closed', 0, 'conversationClosed'),
			event('2024-05-01 10:00:00', 'created', 0, 'conversationCreated'),
		];
		expect(inOrder(found).map((e) => e.key)).toEqual(['created', 'closed', 'later']);
	});

	// What an earlier poll emitted is left out by the marks and the keys at them (test/engine/poll.test.ts).
	it('emits a key found twice in one poll once, at its first place', () => {
		expect(inOrder([event(1, 'a'), event(2, 'b'), event(3, 'a')]).map((e) => e.key)).toEqual([
			'a',
			'b',
		]);
	});
});

describe('the poll state in static data', () => {
	const REST = 'REST Paths';

	it('reads back what it wrote, for the same API only', () => {
		const staticData: IDataObject = {};
		const marks = {
			userCreated: { field: 'created_at', value: 5, raw: '5', tie: ['userCreated:u5'] },
		};
		writeState(staticData, { api: REST, events: ['userCreated'], marks });
		expect(readState(staticData, REST)).toEqual({ api: REST, events: ['userCreated'], marks });
		// Marks of another API are meaningless: the first poll with the other API starts afresh.
		expect(readState(staticData, 'Support Board Web API')).toBeUndefined();
	});

	it.each([
		['nothing kept', {}],
		['not a record', { supportChatPoll: 'v2' }],
		['no marks', { supportChatPoll: { version: 2, api: REST } }],
		['a version it does not know', { supportChatPoll: { version: 9, api: REST, marks: {} } }],
	])('%s is no state: the next poll is a first poll', (_, staticData) => {
		expect(readState(staticData as IDataObject, REST)).toBeUndefined();
	});

	it('keeps only the events it knows from what was saved', () => {
		const staticData: IDataObject = {
			supportChatPoll: {
				version: 2,
				api: REST,
				events: ['userCreated', 'tagApplied', 7],
				marks: {},
			},
		};
		expect(readState(staticData, REST)?.events).toEqual(['userCreated']);
	});

	it("carries version 1's REST marks over, its recent keys becoming the keys at each mark", () => {
		const staticData: IDataObject = {
			supportChatPoll: {
				version: 1,
				api: REST,
				marks: {
					userCreated: { field: 'created_at', value: 10, raw: '10' },
					conversationCreated: { field: 'id', value: 3, raw: '3' },
				},
				recent: ['userCreated:u9', 'userCreated:u10', 'conversationCreated:3', 42],
			},
		};
		expect(readState(staticData, REST)).toEqual({
			api: REST,
			events: ['userCreated', 'conversationCreated'],
			marks: {
				userCreated: {
					field: 'created_at',
					value: 10,
					raw: '10',
					tie: ['userCreated:u9', 'userCreated:u10'],
				},
				conversationCreated: { field: 'id', value: 3, raw: '3', tie: ['conversationCreated:3'] },
			},
		});
	});

	it("carries version 1's Support Board marks over, with the events they served", () => {
		const api = 'Support Board Web API';
		const kept = { userId: 4, messageId: 20, messageTime: '2024-05-01 10:00:00' };
		expect(
			readState({ supportChatPoll: { version: 1, api, marks: kept, recent: [] } }, api),
		).toEqual({
			api,
			events: ['userCreated', 'conversationCreated', 'messageCreated', 'conversationClosed'],
			marks: kept,
		});
		// A mark of 0 served no event: those events are baselined afresh.
		expect(
			readState({ supportChatPoll: { version: 1, api, marks: { userId: 0, messageId: 0 } } }, api)
				?.events,
		).toEqual([]);
	});
});
