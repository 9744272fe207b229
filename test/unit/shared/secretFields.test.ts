import {
	holdsSecretField,
	maskSecretFields,
	SECRET_FIELDS,
} from '../../../nodes/SupportChat/shared/secretFields';

describe('secret fields, masked by name', () => {
	it('the quick test before the walk lets every name of the table through, in any case', () => {
		for (const name of SECRET_FIELDS) {
			expect(holdsSecretField(JSON.parse(`{"${name}":"x"}`))).toBe(true);
			expect(holdsSecretField(JSON.parse(`[{"a":{"${name.toUpperCase()}":"x"}}]`))).toBe(true);
		}
		expect(holdsSecretField(JSON.parse('{"id":"7","n":{"p\\u0061ssword":"x"}}'))).toBe(true);
		expect(
			holdsSecretField(JSON.parse('[{"id":"7","email":"ada@example.com","tags":["token"]}]')),
		).toBe(false);
	});

	it('masks a secret field wherever it stands, and leaves an empty one empty', () => {
		const value = {
			id: '7',
			token: 'abc123',
			nested: [{ Password: 'hunter2', 'password-check': 'hunter2' }],
			pass: '',
		};
		expect(maskSecretFields(value)).toEqual({
			id: '7',
			token: '[redacted]',
			nested: [{ Password: '[redacted]', 'password-check': '[redacted]' }],
			pass: '',
		});
	});
});

describe("the product's password settings, masked by id at any depth, in their own shape", () => {
	it.each([
		[
			'as get-settings answers them',
			{ 'email-server': [{ 'email-server-password': ['smtp-pw', 'password'] }, 'multi-input'] },
			{ 'email-server': [{ 'email-server-password': ['[redacted]', 'password'] }, 'multi-input'] },
		],
		['a bare value', { 'webhooks-key': 'k3y' }, { 'webhooks-key': '[redacted]' }],
		[
			'{type, value}',
			{ 'slack-token': { type: 'password', value: 'xoxb-1' } },
			{ 'slack-token': { type: 'password', value: '[redacted]' } },
		],
		[
			'[id, value] pairs',
			[
				['pusher-secret', 'p5'],
				['pusher-key', 'shown'],
			],
			[
				['pusher-secret', '[redacted]'],
				['pusher-key', 'shown'],
			],
		],
		[
			'a repeater of an app',
			{ 'telegram-numbers': [[{ 'telegram-numbers-token': ['123:AA', 'password'] }], 'repeater'] },
			{
				'telegram-numbers': [
					[{ 'telegram-numbers-token': ['[redacted]', 'password'] }],
					'repeater',
				],
			},
		],
		[
			'an empty one',
			{ 'email-server-password': ['', 'password'] },
			{ 'email-server-password': ['', 'password'] },
		],
	])('%s', (_label, value, masked) => {
		expect(holdsSecretField(value)).toBe(true);
		expect(maskSecretFields(value)).toEqual(masked);
	});

	it('leaves settings that are no password', () => {
		const row = { 'webhooks-url': ['https://h.test/in', 'text'], 'bot-name': ['Bot', 'text'] };
		expect(holdsSecretField(row)).toBe(false);
		expect(maskSecretFields(row)).toBe(row);
	});
});
