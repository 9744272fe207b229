import type { IDataObject } from 'n8n-workflow';

import { isOwnMessage, readLoopOptions } from '../../../nodes/SupportChat/shared/ownMessages';

const ON = { ignoreOwnTypes: true, ignoredSenderIds: [] as string[] };

describe('isOwnMessage', () => {
	test.each<[string, Record<string, unknown>, boolean, string]>([
		[
			'type agent, as POST /messages sends it',
			{ event: 'message.created', data: { type: 'agent', message: 'Hi', conversation_id: 5 } },
			true,
			'sender type agent',
		],
		[
			'type Agent in a flat body',
			{ event: 'message.created', type: 'Agent', message: 'Hi' },
			true,
			'sender type agent',
		],
		['sender_type bot', { event: 'x', data: { sender_type: 'bot' } }, true, 'sender type bot'],
		[
			'author.type admin',
			{ event: 'x', data: { author: { type: 'admin' } } },
			true,
			'sender type admin',
		],
		[
			'sender.role operator',
			{ event: 'x', data: { sender: { role: 'operator' } } },
			true,
			'sender type operator',
		],
		[
			'user_type agent on the message',
			{ function: 'message-sent', data: { user_type: 'agent' } },
			true,
			'sender type agent',
		],
		[
			'nested message record',
			{ event: 'x', data: { message: { type: 'bot' } } },
			true,
			'sender type bot',
		],
		['bot flag', { event: 'x', data: { is_bot: true } }, true, 'sender flag is_bot'],
		['visitor', { event: 'message.created', data: { type: 'visitor', message: 'Hi' } }, false, ''],
		['user', { event: 'message.created', data: { sender_type: 'user' } }, false, ''],
		['lead', { event: 'x', data: { author: { type: 'lead' } } }, false, ''],
		['no sender information', { event: 'message.created', data: { message: 'Hi' } }, false, ''],
		[
			'event name in type is never a sender',
			{ type: 'message.created', data: { text: 'Hi' } },
			false,
			'',
		],
		[
			'an assigned agent on the conversation is not the sender',
			{ event: 'x', data: { conversation: { agent: { type: 'agent' } } } },
			false,
			'',
		],
		['bot flag false', { event: 'x', data: { is_bot: false } }, false, ''],
	])('%s', (_label, body, own, reason) => {
		const result = isOwnMessage(body, ON);
		expect(result.own).toBe(own);
		if (own) expect(result.reason).toBe(reason);
	});

	test('the type check can be turned off', () => {
		expect(
			isOwnMessage({ data: { type: 'agent' } }, { ignoreOwnTypes: false, ignoredSenderIds: [] })
				.own,
		).toBe(false);
	});

	test.each<[string, Record<string, unknown>, string[], boolean]>([
		['sender_id listed', { data: { sender_id: 42 } }, ['42'], true],
		[
			'user_id of the message listed',
			{ function: 'message-sent', data: { user_id: '7', message: 'x' } },
			[' 7 '],
			true,
		],
		['author.id listed', { data: { author: { id: 'u_1' } } }, ['u_1', 'u_2'], true],
		['not listed', { data: { sender_id: 43 } }, ['42'], false],
		['empty list', { data: { sender_id: 42 } }, [], false],
		['blank entries ignored', { data: { sender_id: '' } }, [''], false],
	])('sender ids: %s', (_label, body, ids, own) => {
		expect(isOwnMessage(body, { ignoreOwnTypes: false, ignoredSenderIds: ids }).own).toBe(own);
	});
});

describe('Ignored Sender IDs, as readLoopOptions reads them for both triggers', () => {
	test.each([
		['12, 57', ['12', '57']],
		['12;57\n 99', ['12', '57', '99']],
		['', []],
		[42, ['42']],
		[
			[' 1 ', 2, ''],
			['1', '2'],
		],
		[undefined, []],
		[{ id: 1 }, []],
	])('%j', (value, expected) => {
		expect(readLoopOptions({ ignoredSenderIds: value } as IDataObject).ignoredSenderIds).toEqual(
			expected,
		);
	});
});
