import { parseBody } from '../../../nodes/SupportChat/trigger/body';

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

describe('parseBody', () => {
	test.each([
		[
			'JSON object',
			'{"event":"message.created","id":1}',
			JSON_TYPE,
			{ event: 'message.created', id: 1 },
		],
		['JSON with charset', '{"a":"é"}', 'application/json; charset=utf-8', { a: 'é' }],
		['vendor +json', '{"a":1}', 'application/vnd.chat+json', { a: 1 }],
		['JSON batch', '[{"event":"a"},{"event":"b"}]', JSON_TYPE, [{ event: 'a' }, { event: 'b' }]],
		['JSON with a BOM', '\uFEFF{"a":1}', JSON_TYPE, { a: 1 }],
		[
			'JSON with double-encoded data',
			'{"function":"message-sent","data":"{\\"message_id\\":9}"}',
			JSON_TYPE,
			{ function: 'message-sent', data: { message_id: 9 } },
		],
		[
			'JSON with a data string that is not JSON stays a string',
			'{"data":"{not json}"}',
			JSON_TYPE,
			{ data: '{not json}' },
		],
		[
			'form fields',
			'event=message.created&conversation_id=5',
			FORM_TYPE,
			{ event: 'message.created', conversation_id: '5' },
		],
		[
			'form with + and %',
			'text=hello+world%21&x=%E2%9C%93',
			FORM_TYPE,
			{ text: 'hello world!', x: '✓' },
		],
		['form with a bad escape', 'text=100%&y=%zz', FORM_TYPE, { text: '100%', y: '%zz' }],
		['form with repeated keys', 'tag=a&tag=b', FORM_TYPE, { tag: ['a', 'b'] }],
		[
			'form with JSON in payload',
			`payload=${encodeURIComponent('{"event":"conversation.closed","data":{"conversation_id":7}}')}`,
			FORM_TYPE,
			{ payload: { event: 'conversation.closed', data: { conversation_id: 7 } } },
		],
		[
			'PHP form with JSON in data',
			`function=message-sent&key=abc&data=${encodeURIComponent('{"message_id":"12","conversation_id":"7"}')}`,
			FORM_TYPE,
			{ function: 'message-sent', key: 'abc', data: { message_id: '12', conversation_id: '7' } },
		],
		[
			'PHP http_build_query nesting',
			'function=message-sent&data%5Bconversation_id%5D=7&data%5Buser%5D%5Bid%5D=3&tags%5B%5D=a&tags%5B%5D=b',
			FORM_TYPE,
			{
				function: 'message-sent',
				data: { conversation_id: '7', user: { id: '3' } },
				tags: { 0: 'a', 1: 'b' },
			},
		],
		['prototype keys are dropped', '__proto__%5Bx%5D=1&a=2', FORM_TYPE, { a: '2' }],
		[
			'JSON sent as text/plain',
			'{"event":"user.created"}',
			'text/plain',
			{ event: 'user.created' },
		],
		[
			'JSON labelled as form data (PHP curl default)',
			'{"event":"user.created"}',
			FORM_TYPE,
			{ event: 'user.created' },
		],
		['JSON without content type', '{"event":"user.created"}', undefined, { event: 'user.created' }],
		[
			'form without content type',
			'event=user.created&id=3',
			undefined,
			{ event: 'user.created', id: '3' },
		],
		[
			'latin1 form',
			Buffer.from('name=Jos%E9', 'latin1'),
			'application/x-www-form-urlencoded; charset=iso-8859-1',
			{ name: 'José' },
		],
	])('%s', (_label, raw, contentType, expected) => {
		expect(parseBody(raw, contentType)).toEqual({ ok: true, body: expected });
	});

	test.each([
		['empty', '', JSON_TYPE, 'Empty body'],
		['whitespace', '   ', JSON_TYPE, 'Empty body'],
		['truncated JSON', '{"event":"message.created"', JSON_TYPE, 'Malformed JSON body'],
		['JSON scalar', '"hello"', JSON_TYPE, 'Body must be a JSON object'],
		['JSON number', '42', JSON_TYPE, 'Body must be a JSON object'],
		['JSON null', 'null', JSON_TYPE, 'Body must be a JSON object'],
		['JSON array of scalars', '[1,2]', JSON_TYPE, 'Body must be a JSON object'],
		[
			'form with broken JSON in payload',
			'payload=%7B%22event%22%3A',
			FORM_TYPE,
			'Field "payload" is not valid JSON',
		],
		['form with broken JSON in data', 'data={"a":}', FORM_TYPE, 'Field "data" is not valid JSON'],
		['text that is neither', 'hello world', 'text/plain', 'Body is neither JSON nor form fields'],
		[
			'XML without a parsed body',
			'<a/>',
			'application/xml',
			'Unsupported content type application/xml',
		],
		['broken JSON sent as text', '{oops', 'text/plain', 'Malformed JSON body'],
	])('refuses %s', (_label, raw, contentType, reason) => {
		expect(parseBody(raw, contentType)).toEqual({ ok: false, reason });
	});

	test('a body n8n parsed (multipart) is used when there are no raw bytes', () => {
		expect(
			parseBody(undefined, 'multipart/form-data; boundary=x', {
				event: 'lead',
				data: '{"email":"a@b.c"}',
			}),
		).toEqual({
			ok: true,
			body: { event: 'lead', data: { email: 'a@b.c' } },
		});
		expect(parseBody(undefined, undefined, {})).toEqual({ ok: false, reason: 'Empty body' });
	});
});

describe('class 3: untrusted text is cut before anything that is not linear (issue 8)', () => {
	test('a Content-Type of 100,000 characters is cut before its charset is looked for', () => {
		const contentType = `application/json; ${'charset '.repeat(12_500)}`;
		expect(parseBody('{"event":"lead"}', contentType)).toEqual({
			ok: true,
			body: { event: 'lead' },
		});
	});
});

describe('form fields', () => {
	test("keep n8n's flat reading for plain keys", () => {
		expect(parseBody('a=1&b=&c', FORM_TYPE)).toEqual({ ok: true, body: { a: '1', b: '', c: '' } });
	});
});

describe('class 3: untrusted text is cut before anything that is not linear (issue 8)', () => {
	test('a thousand `a[]=` fields: one list of a thousand, in order', () => {
		const parsed = parseBody(
			Array.from({ length: 1000 }, (_, index) => `a[]=${index}`).join('&'),
			FORM_TYPE,
		);
		const form = parsed.ok && !Array.isArray(parsed.body) ? parsed.body : {};
		expect(Object.keys(form.a as object)).toHaveLength(1000);
		expect((form.a as Record<string, string>)['999']).toBe('999');
	});
});
