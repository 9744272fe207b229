import { CHANNELS } from '../../../../../nodes/SupportChat/transport/apis/supportBoard/channels';

const channel = (source: string) => {
	const found = CHANNELS.get(source);
	if (!found) throw new Error(`no channel ${source}`);
	return found;
};

/** Each channel's answers as the product hands them on: sent, refused (inside success: true), nothing sent. */
describe.each([
	{
		source: 'wa',
		sent: { messages: [{ id: 'wamid.1' }] },
		id: 'wamid.1',
		refused: { error: { message: '(#131030) Recipient phone number not in allowed list' } },
		reason: '(#131030) Recipient phone number not in allowed list',
	},
	{
		source: 'wa',
		sent: { sid: 'SM1', status: 'queued' },
		id: 'SM1',
		refused: { ErrorCode: 63016, errorMessage: 'Outside window' },
		reason: 'Outside window',
	},
	{
		source: 'wa',
		sent: { messages: [{ id: 'x' }] },
		id: 'x',
		refused: { meta: { success: false, developer_message: 'Bad 360' } },
		reason: 'Bad 360',
	},
	{
		source: 'fb',
		sent: [{ recipient_id: '1', message_id: 'm_1' }],
		id: 'm_1',
		refused: [{ message_id: 'm_0' }, { error: { message: '(#10) Outside window' } }],
		reason: '(#10) Outside window',
	},
	{
		source: 'tg',
		sent: { ok: true, result: { message_id: 7 } },
		id: '7',
		refused: { ok: false, description: 'Forbidden' },
		reason: 'Forbidden',
	},
	{
		source: 'vb',
		sent: { status: 0, status_message: 'ok', message_token: 9 },
		id: '9',
		refused: { status: 6, status_message: 'notSubscribed' },
		reason: 'notSubscribed',
	},
	{
		source: 'za',
		sent: { error: { error: 0, message: 'Success', data: { message_id: 'z1' } } },
		id: 'z1',
		refused: { error: { error: -213, message: 'Not interacted' } },
		reason: 'Not interacted',
	},
	{
		source: 'ln',
		sent: { error: false },
		id: undefined,
		refused: { error: { message: 'Invalid to' } },
		reason: 'Invalid to',
	},
	{
		source: 'wc',
		sent: [{ errcode: 0, errmsg: 'ok', msgid: 3 }, 'token'],
		id: '3',
		refused: [{ errcode: 45015, errmsg: 'out of time' }, 'token'],
		reason: 'out of time',
	},
])('$source', ({ source, sent, id, refused, reason }) => {
	it('delivered, with the channel’s message ID', () => {
		expect(channel(source).verdict(sent)).toEqual({ delivered: true, id });
	});
	it('a refusal inside success: true is not a delivery', () => {
		expect(channel(source).verdict(refused)).toEqual({ delivered: false, reason });
	});
	it('false (nothing sent) is not a delivery', () => {
		expect(channel(source).verdict(false)).toMatchObject({ delivered: false });
	});
});

describe('the channels table', () => {
	it('knows every source the product forwards (sb_messaging_platforms_send_message), and no web chat or e-mail', () => {
		expect([...CHANNELS.keys()].sort()).toEqual([
			'fb',
			'ig',
			'ln',
			'tg',
			'tw',
			'vb',
			'wa',
			'wc',
			'za',
		]);
		for (const source of ['', 'em', 'tk', 'sms']) expect(CHANNELS.has(source)).toBe(false);
	});

	it('X has no Web API function: the node refuses before storing', () => {
		expect(channel('tw').fn).toBeUndefined();
	});

	it('sends the arguments the admin area sends (js/admin.js, SBMessageSent)', () => {
		const out = {
			message: 'Hi',
			attachments: [['a.pdf', 'https://x/a.pdf']] as Array<[string, string]>,
			messageId: '5',
			conversationId: '9',
			extra: 'E',
		};
		const attachments = '[["a.pdf","https://x/a.pdf"]]';
		expect(channel('wa').args(out)).toEqual({
			message: 'Hi',
			attachments,
			phone_id: 'E',
			message_id: '5',
		});
		expect(channel('fb').args(out)).toEqual({
			message: 'Hi',
			attachments,
			facebook_page_id: 'E',
			message_id: '5',
			metadata: '5',
		});
		expect(channel('tg').args(out)).toEqual({
			message: 'Hi',
			attachments,
			conversation_id: '9',
			message_id: '5',
		});
		expect(channel('ln').args(out)).toEqual({ message: 'Hi', attachments, conversation_id: '9' });
		for (const source of ['vb', 'za', 'wc'])
			expect(channel(source).args(out)).toEqual({ message: 'Hi', attachments });
	});
});
