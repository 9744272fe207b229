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
