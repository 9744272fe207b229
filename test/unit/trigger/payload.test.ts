import { parseBody } from '../../../nodes/SupportChat/trigger/body';
import { deliveryId } from '../../../nodes/SupportChat/trigger/deliveryId';
import { unwrapEventData } from '../../../nodes/SupportChat/trigger/envelope';
import { parseForm } from '../../../nodes/SupportChat/trigger/form';
import { extractIds } from '../../../nodes/SupportChat/trigger/ids';

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

describe('parseBody', () => {
	test.each([
		['JSON object', '{"event":"message.created","id":1}', JSON_TYPE, { event: 'message.created', id: 1 }],
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
		['form fields', 'event=message.created&conversation_id=5', FORM_TYPE, { event: 'message.created', conversation_id: '5' }],
		['form with + and %', 'text=hello+world%21&x=%E2%9C%93', FORM_TYPE, { text: 'hello world!', x: '✓' }],
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
			{ function: 'message-sent', data: { conversation_id: '7', user: { id: '3' } }, tags: { 0: 'a', 1: 'b' } },
		],
		['prototype keys are dropped', '__proto__%5Bx%5D=1&a=2', FORM_TYPE, { a: '2' }],
		['JSON sent as text/plain', '{"event":"user.created"}', 'text/plain', { event: 'user.created' }],
		['JSON labelled as form data (PHP curl default)', '{"event":"user.created"}', FORM_TYPE, { event: 'user.created' }],
		['JSON without content type', '{"event":"user.created"}', undefined, { event: 'user.created' }],
		['form without content type', 'event=user.created&id=3', undefined, { event: 'user.created', id: '3' }],
		['latin1 form', Buffer.from('name=Jos%E9', 'latin1'), 'application/x-www-form-urlencoded; charset=iso-8859-1', { name: 'José' }],
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
		['form with broken JSON in payload', 'payload=%7B%22event%22%3A', FORM_TYPE, 'Field "payload" is not valid JSON'],
		['form with broken JSON in data', 'data={"a":}', FORM_TYPE, 'Field "data" is not valid JSON'],
		['text that is neither', 'hello world', 'text/plain', 'Body is neither JSON nor form fields'],
		['XML without a parsed body', '<a/>', 'application/xml', 'Unsupported content type application/xml'],
		['broken JSON sent as text', '{oops', 'text/plain', 'Malformed JSON body'],
	])('refuses %s', (_label, raw, contentType, reason) => {
		expect(parseBody(raw, contentType)).toEqual({ ok: false, reason });
	});

	test('a body n8n parsed (multipart) is used when there are no raw bytes', () => {
		expect(parseBody(undefined, 'multipart/form-data; boundary=x', { event: 'lead', data: '{"email":"a@b.c"}' })).toEqual({
			ok: true,
			body: { event: 'lead', data: { email: 'a@b.c' } },
		});
		expect(parseBody(undefined, undefined, {})).toEqual({ ok: false, reason: 'Empty body' });
	});

	test('parseForm keeps n8n\'s flat reading for plain keys', () => {
		expect(parseForm('a=1&b=&c')).toEqual({ a: '1', b: '', c: '' });
	});
});

describe('unwrapEventData', () => {
	test.each([
		[{ event: 'x', data: { id: 1 } }, { id: 1 }],
		[{ event: 'x', payload: { id: 2 } }, { id: 2 }],
		[{ type: 'x', data: { object: { id: 3 } } }, { id: 3 }],
		[{ topic: 'x', data: { item: { id: 4 } } }, { id: 4 }],
		[{ resource: { id: 5 } }, { id: 5 }],
		[{ event: { type: 'x', id: 6 } }, { type: 'x', id: 6 }],
		[{ event: 'x', id: 7 }, { event: 'x', id: 7 }],
		[{ event: 'x', data: [1, 2] }, { event: 'x', data: [1, 2] }],
		[{ event: 'x', data: 'text' }, { event: 'x', data: 'text' }],
	])('%j → %j', (body, data) => {
		expect(unwrapEventData(body)).toEqual(data);
	});
});

describe('extractIds', () => {
	test.each([
		[
			'flat snake_case',
			{ event: 'message-sent', conversation_id: 5, user_id: '3', message_id: 9 },
			undefined,
			{ conversationId: 5, userId: '3', messageId: 9 },
		],
		[
			'camelCase in data',
			{ event: 'x', data: { conversationId: 'c1', userId: 'u1', messageId: 'm1' } },
			undefined,
			{ conversationId: 'c1', userId: 'u1', messageId: 'm1' },
		],
		[
			'nested objects',
			{ event: 'x', data: { conversation: { id: 5 }, user: { id: 3 }, message: { id: 9 } } },
			undefined,
			{ conversationId: 5, userId: 3, messageId: 9 },
		],
		[
			'chat_id and visitor_id',
			{ event: 'x', chat_id: 'ch', visitor_id: 'v' },
			undefined,
			{ conversationId: 'ch', userId: 'v', messageId: null },
		],
		[
			'contact_id',
			{ event: 'x', data: { contact_id: 44 } },
			undefined,
			{ conversationId: null, userId: 44, messageId: null },
		],
		[
			'Support Board style message',
			{ function: 'message-sent', data: { message_id: '12', conversation_id: '7', conversation_user_id: '3' } },
			'message',
			{ conversationId: '7', userId: '3', messageId: '12' },
		],
		[
			'bare id of a message event',
			{ event: 'message.created', data: { id: 9, conversation_id: 5 } },
			'message',
			{ conversationId: 5, userId: null, messageId: 9 },
		],
		[
			'bare id of a conversation event',
			{ event: 'conversation.created', data: { id: 5, user_id: 3 } },
			'conversation',
			{ conversationId: 5, userId: 3, messageId: null },
		],
		[
			'bare id of a user event',
			{ event: 'user.created', data: { id: 3, email: 'a@b.c' } },
			'user',
			{ conversationId: null, userId: 3, messageId: null },
		],
		[
			'a record that names its kind',
			{ type: 'x', data: { object: 'conversation', id: 'conv_1' } },
			undefined,
			{ conversationId: 'conv_1', userId: null, messageId: null },
		],
		[
			'an envelope id is never a resource id',
			{ id: 'evt_1', event: 'message.created', data: { text: 'hi', conversation_id: 5 } },
			'message',
			{ conversationId: 5, userId: null, messageId: null },
		],
		[
			'a bare id of unknown kind is not guessed',
			{ event: 'tag.applied', data: { id: 77, user_id: 3, tag: 'vip' } },
			undefined,
			{ conversationId: null, userId: 3, messageId: null },
		],
		[
			'message with its conversation inside',
			{ event: 'x', data: { message: { id: 9, conversation_id: 5 } } },
			undefined,
			{ conversationId: 5, userId: null, messageId: 9 },
		],
		['nothing', { event: 'x' }, undefined, { conversationId: null, userId: null, messageId: null }],
		[
			'empty strings and objects are not ids',
			{ event: 'x', conversation_id: '', user_id: {}, message_id: null },
			undefined,
			{ conversationId: null, userId: null, messageId: null },
		],
	] as const)('%s', (_label, body, resource, ids) => {
		expect(extractIds(body as Record<string, unknown>, resource)).toEqual(ids);
	});
});

describe('deliveryId', () => {
	test.each([
		['Standard Webhooks header', {}, { 'webhook-id': 'msg_1' }, { id: 'msg_1', source: 'header webhook-id' }],
		['Svix header', {}, { 'svix-id': 'msg_2' }, { id: 'msg_2', source: 'header svix-id' }],
		['event id header', {}, { 'x-event-id': 'e3' }, { id: 'e3', source: 'header x-event-id' }],
		['idempotency key', {}, { 'idempotency-key': 'k4' }, { id: 'k4', source: 'header idempotency-key' }],
		['event_id in the body', { event_id: 'e5' }, {}, { id: 'e5', source: 'body.event_id' }],
		['numeric delivery_id', { delivery_id: 6 }, {}, { id: '6', source: 'body.delivery_id' }],
		['envelope id', { id: 'evt_7', event: 'x', data: { id: 1 } }, {}, { id: 'evt_7', source: 'body.id' }],
		['per-attempt header last', { id: 'evt_8', data: {} }, { 'x-delivery-id': 'd' }, { id: 'evt_8', source: 'body.id' }],
		['per-attempt header alone', {}, { 'x-delivery-id': 'd9' }, { id: 'd9', source: 'header x-delivery-id' }],
		['header before body', { event_id: 'b' }, { 'webhook-id': 'h' }, { id: 'h', source: 'header webhook-id' }],
	])('%s', (_label, body, headers, expected) => {
		expect(deliveryId(body, headers)).toEqual(expected);
	});

	test('a flat body\'s id names the resource, not the delivery', () => {
		expect(deliveryId({ event: 'conversation.closed', id: 5 }, {})).toBeUndefined();
		expect(deliveryId({}, {})).toBeUndefined();
	});
});
