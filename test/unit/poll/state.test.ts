import type { Found } from '../../../nodes/SupportChat/poll/types';
import { fresh } from '../../../nodes/SupportChat/poll/state';

const event = (at: number | string, key: string, seq = 0, kind: Found['event'] = 'userCreated'): Found => ({
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
		const found = [event(10, 'ten'), event(1.5, 'one-and-a-half'), event(-5, 'minus-five'), event(2, 'two'), event(1e17, 'huge')];
		expect(fresh(found, []).map((e) => e.key)).toEqual(['minus-five', 'one-and-a-half', 'two', 'ten', 'huge']);
	});

	it('orders the service\'s time text by its characters, and one instant as things happen', () => {
		const found = [
			event('2024-05-01 10:00:01', 'later'),
			event('2024-05-01 10:00:00', 'closed', 0, 'conversationClosed'),
			event('2024-05-01 10:00:00', 'created', 0, 'conversationCreated'),
		];
		expect(fresh(found, []).map((e) => e.key)).toEqual(['created', 'closed', 'later']);
	});

	it('leaves out what an earlier poll emitted, and a key found twice in one poll', () => {
		expect(fresh([event(1, 'a'), event(2, 'b'), event(3, 'a')], ['b']).map((e) => e.key)).toEqual(['a']);
	});
});
