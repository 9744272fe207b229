import { extractIds } from '../../../nodes/SupportChat/trigger/ids';

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
			{
				function: 'message-sent',
				data: { message_id: '12', conversation_id: '7', conversation_user_id: '3' },
			},
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
