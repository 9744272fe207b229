import {
	holdsSecretField,
	maskSecretFields,
	REDACTED,
	SECRET_FIELDS,
	SecretMask,
} from '../../../nodes/SupportChat/shared/secrets';

const TOKEN = 'tok+en/with spaces&=42';

describe('SecretMask', () => {
	const mask = new SecretMask([TOKEN]);

	it.each([
		['raw', `before ${TOKEN} after`],
		['URL-encoded', `cursor=${encodeURIComponent(TOKEN)}&x=1`],
		['form-encoded', `a=${encodeURIComponent(TOKEN).replace(/%20/g, '+')}`],
		['base64 of the token alone', Buffer.from(TOKEN).toString('base64')],
		['base64 of "Bearer <token>"', Buffer.from(`Bearer ${TOKEN}`).toString('base64')],
		['base64 at the third alignment', Buffer.from(`ab${TOKEN}xyz`).toString('base64')],
		['base64url', Buffer.from(`x${TOKEN}`).toString('base64url')],
	])('masks a %s copy', (_label, text) => {
		expect(mask.found(text)).toBe(true);
		const masked = mask.text(text);
		expect(masked).toContain(REDACTED);
		// No form of the token is left: the mask finds none of them in its own output.
		expect(mask.found(masked)).toBe(false);
	});

	it('leaves text without the secret as it is, and copies nothing', () => {
		const value = { a: ['x', { b: 'y' }], c: 1 };
		expect(mask.value(value)).toBe(value);
		expect(mask.text('nothing here')).toBe('nothing here');
	});

	it('masks values and keys deep inside a record, keeping a "__proto__" key a plain field', () => {
		const value = JSON.parse(`{"a":[{"b":"${TOKEN}"}],"${TOKEN}":1,"__proto__":{"c":"${TOKEN}"}}`);
		const masked = mask.value(value) as Record<string, unknown>;
		expect(JSON.stringify(masked)).not.toContain(TOKEN);
		expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
		expect(Object.hasOwn(masked, '__proto__')).toBe(true);
		expect(value.a[0].b).toBe(TOKEN);
	});

	it('tells when parsed JSON may hold the secret, escapes included', () => {
		const escaped = JSON.stringify({ a: TOKEN }).replace(
			/[a-z]/g,
			(c) => `\\u00${c.charCodeAt(0).toString(16)}`,
		);
		expect(JSON.parse(escaped)).toEqual({ a: TOKEN });
		expect(mask.mayBeInJson(escaped)).toBe(true);
		expect(mask.mayBeInJson(JSON.stringify({ a: TOKEN }))).toBe(true);
		expect(mask.mayBeInJson(JSON.stringify({ a: encodeURIComponent(TOKEN) }))).toBe(true);
		expect(mask.mayBeInJson('{"a":"nothing here"}')).toBe(false);
		// Without a secret, escapes still call for the walk: a channel token may hide behind one (\u003a).
		expect(new SecretMask([]).mayBeInJson('{"a":"nothing here"}')).toBe(false);
	});

	it('masks a short secret only where a whole value equals it', () => {
		const short = new SecretMask(['abc']);
		expect(short.text('abc')).toBe(REDACTED);
		expect(short.text('xabcx')).toBe('xabcx');
	});
});

describe("SecretMask: the channels' tokens, by shape, in every encoding", () => {
	const mask = new SecretMask([]);
	const META = 'EAAGm0PX4ZCpsBAKZBZAqZCZAZD1234567890abcdef';
	const BOT = '123456789:AAHk-ZlongBotTokenValue_0123456789ab';

	it.each([
		['a Meta token', `Malformed access token ${META}`],
		['a Meta token after an encoded separator', `x%3D${META}`],
		['a Telegram bot token', `https://api.telegram.org/bot${BOT}/sendMessage`],
		['a Telegram bot token with %3A', `bot${BOT.replace(':', '%3A')}`],
		['a Telegram bot token with %3a', `bot${BOT.replace(':', '%3a')}`],
		['a Telegram bot token encoded twice', `bot${BOT.replace(':', '%253A')}`],
		['a Telegram bot token after an encoded space', `token%20${BOT.replace(':', '%3A')}`],
		['access_token=', 'graph.facebook.com/me?access_token=secretvalue123&x=1'],
		['access_token%3D', `u=graph.facebook.com%2Fme%3Faccess_token%3D${META}%26x%3D1`],
		['ACCESS_TOKEN%253D', 'u=x%253FACCESS_TOKEN%253Dsecretvalue123%2526x'],
	])('masks %s', (_label, text) => {
		expect(mask.found(text)).toBe(true);
		const masked = mask.text(text);
		expect(masked).toContain(REDACTED);
		expect(masked).not.toMatch(/secretvalue|ZlongBot|m0PX4/);
		expect(mask.found(masked)).toBe(false);
	});

	it('stops an encoded access_token at the encoded &', () => {
		expect(mask.text('a%3Faccess_token%3Dabc%2Fdef%26next%3D2')).toBe(
			'a%3Faccess_token%3D[redacted]%26next%3D2',
		);
	});

	it('writes [redacted] as itself, never percent-encoded', () => {
		expect(mask.text('u=https%3A%2F%2Fh%2F%3Fk%3D%5Bredacted%5D')).toBe(
			'u=https%3A%2F%2Fh%2F%3Fk%3D[redacted]',
		);
	});

	it.each([
		'Order 1234567:please-send-the-invoice-by-friday-ok',
		'At 12:30 on 2024-01-01 10:00:00, AAA batteries',
		'The EAA fly-in is next week',
		'see https://example.com/access_tokens for the docs',
	])('leaves text that merely looks like a token: %s', (text) => {
		expect(mask.found(text)).toBe(false);
		expect(mask.text(text)).toBe(text);
	});

	it('masks a token in an item deep inside, and walks a page only when its text may hold one', () => {
		const conversation = { details: { source: 'tg', extra: '5551234', extra_3: BOT } };
		expect(mask.value(conversation)).toEqual({
			details: { source: 'tg', extra: '5551234', extra_3: REDACTED },
		});
		expect(mask.mayBeInJson(JSON.stringify(conversation))).toBe(true);
		expect(mask.mayBeInJson('{"a":"12:30:00","b":"Ada"}')).toBe(false);
	});
});

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
