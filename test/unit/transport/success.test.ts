/**
 * The pre-checks that let a page skip the masking walks (the token's forms in the raw text, secret
 * field names among the parsed keys) must never skip one that masks something: a secret field named
 * through JSON escapes, and the token in every form, still come out masked in what a 2xx answer hands
 * on, and in the body an error quotes when the answer says it failed.
 */
import { classifyAnswer } from '../../../nodes/SupportChat/transport/exchange';
import { failureInBody, readSuccess } from '../../../nodes/SupportChat/transport/success';
import { SecretMask } from '../../../nodes/SupportChat/shared/secrets';

const TOKEN = 'bench-token-123';

function handedOn(raw: string, mask = new SecretMask([TOKEN])): unknown {
	const outcome = readSuccess(
		classifyAnswer(Buffer.from(raw, 'utf8'), 'application/json'),
		true,
		'GET /users',
		mask,
	);
	if (!outcome.ok) throw new Error(outcome.message);
	return outcome.value;
}

describe('masking a page that needs it, whatever its raw text shows', () => {
	it('masks a secret field whose key is written with escapes', () => {
		expect(handedOn('{"users":[{"id":1,"p\\u0061ssword":"hunter2"}]}')).toEqual({
			users: [{ id: 1, password: '[redacted]' }],
		});
		expect(handedOn('{"users":[{"id":1,"\\u0074oken":"abc"}]}')).toEqual({
			users: [{ id: 1, token: '[redacted]' }],
		});
	});

	it('masks the token raw, escaped, and in its encodings', () => {
		const base64 = Buffer.from(`Bearer ${TOKEN}`).toString('base64');
		const raw = JSON.stringify({ users: [{ id: 1, a: TOKEN, b: `x${base64}y` }] }).replace(
			'bench',
			'b\\u0065nch',
		);
		expect(JSON.stringify(handedOn(raw))).not.toMatch(/bench-token|YmVuY2gtdG9rZW4|ZW5jaC10b2tlbi/);
	});

	it('masks a short token only where a whole value equals it', () => {
		const mask = new SecretMask(['abc']);
		expect(mask.mayBeInJson('{"a":"xyz"}')).toBe(false);
		expect(handedOn('{"users":[{"id":1,"a":"abc","b":"abcd"}]}', mask)).toEqual({
			users: [{ id: 1, a: '[redacted]', b: 'abcd' }],
		});
	});

	it('leaves a page that names no secret as it is', () => {
		const raw = '{"users":[{"id":1,"name":"Ada"}]}';
		expect(new SecretMask([TOKEN]).mayBeInJson(raw)).toBe(false);
		expect(handedOn(raw)).toEqual({ users: [{ id: 1, name: 'Ada' }] });
	});
});

describe('a 2xx answer that says it failed', () => {
	it('quotes its body with secret fields masked', () => {
		const outcome = readSuccess(
			classifyAnswer(
				Buffer.from('{"success":false,"message":"no","user":{"login_token":"tok-9f2"}}', 'utf8'),
				'application/json',
			),
			true,
			'GET /users',
			new SecretMask([TOKEN]),
		);
		expect(outcome.ok).toBe(false);
		expect(JSON.stringify(outcome)).not.toContain('tok-9f2');
		expect(outcome).toMatchObject({ body: { user: { login_token: '[redacted]' } } });
	});
});

describe('an answer for the node alone (forNodeOnly: the settings row the trigger writes back)', () => {
	const read = (raw: string) =>
		readSuccess(
			classifyAnswer(Buffer.from(raw, 'utf8'), 'application/json'),
			true,
			'get-settings',
			new SecretMask([TOKEN]),
			true,
		);

	it('is handed on as received, so that writing it back replaces no password with the mark', () => {
		const row = {
			'email-server': [{ 'email-server-password': ['pw', 'password'] }, 'multi-input'],
		};
		expect(read(JSON.stringify(row))).toEqual({ ok: true, value: row });
	});

	it('is masked as ever when it says it failed', () => {
		const outcome = read(`{"success":false,"message":"${TOKEN}","token":"tok-9f2"}`);
		expect(outcome.ok).toBe(false);
		expect(JSON.stringify(outcome)).not.toContain(TOKEN);
		expect(JSON.stringify(outcome)).not.toContain('tok-9f2');
	});
});

describe('failureInBody', () => {
	it.each<[unknown, string | undefined]>([
		[{ success: false, error: 'quota exceeded' }, 'quota exceeded'],
		[{ ok: false, message: 'nope' }, 'nope'],
		[{ status: 'error', message: 'broken' }, 'broken'],
		[{ error: 'only an error' }, 'only an error'],
		[{ success: false }, 'the service reported a failure without a message'],
		[{ success: true, response: { id: 1 } }, undefined],
		[{ id: 1, error: null }, undefined],
		[{ data: [], error: 'partial' }, undefined],
		[{ status: 'active', id: 'c1' }, undefined],
		[[1, 2], undefined],
	])('%j → %p', (body, expected) => {
		expect(failureInBody(body)).toBe(expected);
	});
});
