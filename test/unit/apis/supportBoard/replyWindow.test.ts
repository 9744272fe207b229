import { windowOf } from '../../../../nodes/SupportChat/apis/supportBoard/replyWindow';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

/** A conversation of `source` whose messages are [user_id, creation_time] pairs; its customer is user 3. */
const conversation = (source: string, messages: Array<[string | number, string]>) => ({
	messages: messages.map(([user_id, creation_time], i) => ({ id: i + 1, user_id, creation_time })),
	details: { id: '9', source, user_id: 3 },
});

describe('windowOf: read from get-conversation, the product writing UTC times', () => {
	it("the customer's last message, not an agent's after it", () => {
		const read = conversation('wa', [
			['3', '2026-11-27 09:00:00'],
			['3', '2026-11-27 13:30:05'],
			['1', '2026-11-28 11:00:00'],
		]);
		expect(windowOf(read, NOW)).toEqual({
			channel: 'WhatsApp',
			hours: 24,
			lastCustomerMessageAt: '2026-11-27T13:30:05.000Z',
			endsAt: '2026-11-28T13:30:05.000Z',
			open: true,
		});
	});

	it.each([
		['exactly 24 hours ago: still open', '2026-11-27 12:00:00', true],
		['a second more: closed', '2026-11-27 11:59:59', false],
	])('%s', (_, time, open) => {
		expect(windowOf(conversation('fb', [[3, time]]), NOW)).toMatchObject({
			channel: 'Messenger',
			open,
		});
	});

	it('no message of the customer: not open, no times', () => {
		expect(windowOf(conversation('ig', [['1', '2026-11-28 11:00:00']]), NOW)).toEqual({
			channel: 'Instagram',
			hours: 24,
			lastCustomerMessageAt: null,
			endsAt: null,
			open: false,
		});
	});

	it.each(['2026-02-31 10:00:00', '2026-13-01 10:00:00', '28/11/2026 10:00', '', null])(
		'a time the product would not write (%p): no judgement',
		(time) => {
			const read = conversation('wa', [[3, time as string]]);
			expect(windowOf(read, NOW)).toBeUndefined();
		},
	);

	it.each(['', 'tg', 'vb', 'em', 'wc', 'constructor'])('source %p: no window', (source) => {
		expect(windowOf(conversation(source, [[3, '2026-11-28 11:00:00']]), NOW)).toBeUndefined();
	});

	it('no details, or no customer: no window', () => {
		expect(windowOf({ messages: [] }, NOW)).toBeUndefined();
		expect(windowOf({ details: { source: 'wa' }, messages: [] }, NOW)).toBeUndefined();
		expect(windowOf(false, NOW)).toBeUndefined();
	});
});
