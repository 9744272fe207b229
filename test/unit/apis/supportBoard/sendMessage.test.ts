import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import { SEND_CALLS } from '../../../../nodes/SupportChat/apis/supportBoard/sendMessage';
import type { WirePort } from '../../../../nodes/SupportChat/transport/wire';
import { SecretMask } from '../../../../nodes/SupportChat/shared/secrets';

const node = {
	name: 'Support Chat',
	type: 't',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;

/** A product whose functions answer from `answers`; each call's arguments are kept. */
function product(answers: Record<string, unknown>) {
	const calls: IDataObject[] = [];
	const port: WirePort = {
		token: 'admin-token-for-tests',
		mask: new SecretMask(['admin-token-for-tests']),
		request: async (spec) => {
			const body = spec.body as IDataObject;
			calls.push(body);
			return {
				status: 200,
				headers: {},
				body: { success: true, response: answers[String(body.function)] },
				url: '',
			};
		},
		resolveUrl: () => 'https://sb.example.com/include/api.php',
		refuse: (message) => new NodeOperationError(node, message),
		error: (status, message, extra) =>
			new NodeApiError(
				node,
				{},
				{ message, description: extra.description, httpCode: String(status) },
			),
	};
	return { port, calls };
}

const args = {
	conversationId: '9',
	message: 'Helo, your ordr shipped',
	type: 'agent',
	extra: {},
	files: [],
	attachmentUrls: [],
	deliver: true,
};

describe('sendMessage: the text the channel gets', () => {
	it('is the text Support Board stored, as the admin area sends it on (response.message)', async () => {
		const { port, calls } = product({
			'get-conversation': { details: { source: 'tg', extra: 'chat-1', user_id: '3' } },
			'send-message': { id: 41, message: 'Hello, your order shipped' },
			'telegram-send-message': { ok: true, result: { message_id: 5 } },
		});
		await SEND_CALLS.sendMessage(port, args);
		// First the check that its app answers, with nothing to send, before the store; then the send.
		expect(calls.map((c) => c.function)).toEqual([
			'get-conversation',
			'telegram-send-message',
			'send-message',
			'telegram-send-message',
		]);
		const [check, telegram] = calls.filter((c) => c.function === 'telegram-send-message');
		expect(check).toMatchObject({ chat_id: 'chat-1', message: '', attachments: '[]' });
		expect(telegram).toMatchObject({
			chat_id: 'chat-1',
			message: 'Hello, your order shipped',
			message_id: '41',
		});
	});

	it('is the text given when the answer has none', async () => {
		const { port, calls } = product({
			'get-conversation': { details: { source: 'tg', extra: 'chat-1', user_id: '3' } },
			'send-message': { id: 41 },
			'telegram-send-message': { ok: true, result: { message_id: 5 } },
		});
		await SEND_CALLS.sendMessage(port, args);
		expect(calls.filter((c) => c.function === 'telegram-send-message').at(-1)).toMatchObject({
			message: 'Helo, your ordr shipped',
		});
	});
});
