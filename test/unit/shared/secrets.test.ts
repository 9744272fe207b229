import { REDACTED, SecretMask } from '../../../nodes/SupportChat/shared/secrets';

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
		expect(new SecretMask([]).mayBeInJson(escaped)).toBe(false);
	});

	it('masks a short secret only where a whole value equals it', () => {
		const short = new SecretMask(['abc']);
		expect(short.text('abc')).toBe(REDACTED);
		expect(short.text('xabcx')).toBe('xabcx');
	});
});
