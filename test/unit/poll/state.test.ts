import type { Found } from '../../../nodes/SupportChat/poll/types';
import { inOrder } from '../../../nodes/SupportChat/poll/state';

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
