import { CHANNELS } from '../../../../nodes/SupportChat/apis/supportBoard/channels';
import { tokenForward } from '../../../../nodes/SupportChat/apis/supportBoard/forwardsToken';

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

	it('WeChat is never called: its function is in the table of those that hand the token on', () => {
		// ajax.php passes sb_post('token') to sb_wechat_send_message as the access token it puts in
		// api.weixin.qq.com's URL, and the Web API reads the admin token from that very argument.
		expect(channel('wc').fn).toBeUndefined();
		expect(channel('wc').unsendable).toBe(tokenForward('wechat-send-message'));
		expect(channel('wc').unsendable).toMatch(/admin token .* WeChat \(api\.weixin\.qq\.com\)$/);
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
		for (const source of ['vb', 'za'])
			expect(channel(source).args(out)).toEqual({ message: 'Hi', attachments });
	});
});

/**
 * What a broken or hostile product may hand on: `null` is what it answers when it could not reach the
 * channel (sb_curl's error text, json_decode'd), a string what a proxy said instead. None of them is a
 * delivery, and none is the channel's refusal either.
 */
describe.each(['wa', 'fb', 'tg', 'vb', 'za', 'ln'])(
	'%s: an answer without the sign of a sent message',
	(source) => {
		it.each([
			['null', null],
			['true', true],
			['an empty object', {}],
			['an empty array entry', [{}]],
			['a string', 'Could not resolve host: graph.facebook.com'],
			['a number', 0],
			['an object of something else', { status: 'queued?' }],
		])('%s is not counted as delivered', (_label, answer) => {
			const verdict = channel(source).verdict(answer);
			expect(verdict.delivered).toBe(false);
		});
	},
);

describe('the unproven answers are told from refusals', () => {
	it.each([
		['wa', null, 'null'],
		[
			'wa',
			{ messaging_product: 'whatsapp', messages: [] },
			'{"messaging_product":"whatsapp","messages":[]}',
		],
		['fb', [{ message_id: 'm_1' }, 'Operation timed out'], 'Operation timed out'],
		['tg', { result: {} }, '{"result":{}}'],
		['vb', {}, '{}'],
		['za', { error: { attachments: [] } }, '{"error":{"attachments":[]}}'],
		['ln', {}, '{}'],
		['ln', { error: null }, '{"error":null}'],
	])('%s %j', (source, answer, reason) => {
		expect(channel(source).verdict(answer)).toEqual({ delivered: false, reason, unproven: true });
	});
});

describe('Messenger: an empty list of parts', () => {
	it('is nothing sent, said as the product answered it', () => {
		expect(channel('fb').verdict([])).toEqual({
			delivered: false,
			reason: 'the product sent nothing (it answered [])',
		});
	});
});

/** An ID that is empty, blank or no number is no sign of a sent message: not known, not delivered. */
describe.each([
	['wa', { messages: [{ id: '' }] }],
	['wa', { messages: [{ id: '  ' }] }],
	['wa', { sid: '' }],
	['wa', { messages: [{ id: {} }] }],
	['fb', [{ recipient_id: '1', message_id: '' }]],
	['tg', { ok: true, result: { message_id: '' } }],
	['tg', { ok: true, result: {} }],
	['tg', { ok: true }],
	['vb', { status: 0, status_message: 'ok', message_token: '' }],
	['vb', { status_message: 'ok' }],
	['vb', { status: 0, status_message: 'ok', message_token: Number.NaN }],
	// No channel numbers a sent message 0 or below: such a number is no sign of one.
	['vb', { status: 0, status_message: 'ok', message_token: 0 }],
	['tg', { ok: true, result: { message_id: 0 } }],
	['tg', { ok: true, result: { message_id: -5 } }],
	['wa', { messages: [{ id: 0 }] }],
	['za', { error: { error: 0, message: 'Success', data: { message_id: '' } } }],
])('%s answers %j', (source, answer) => {
	it('is not known, not a delivery', () => {
		expect(channel(source).verdict(answer)).toMatchObject({ delivered: false, unproven: true });
	});
});

it("Viber with attachments only: the first attachment's message_token shows the send", () => {
	const answer = { status_message: 'ok', attachments: [{ status: 0, message_token: 12 }] };
	expect(channel('vb').verdict(answer)).toEqual({ delivered: true, id: '12' });
});
