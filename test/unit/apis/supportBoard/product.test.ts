import { codeHint } from '../../../../nodes/SupportChat/apis/supportBoard/product';

/**
 * Every code of Support Board 3.8.7's source that a Web API function answers with a meaning of its own:
 * `sb_error('…')` and `new SBValidationError('…')` in include/*.php, less those only the admin area
 * (login-data-error), the cloud (config-file-not-found), app installs (envato and zip codes), merge-users
 * (invalid-user: no Web API function) or the product's own webhooks and Pusher answer.
 */
const PRODUCT_CODES = [
	'active-user-not-found',
	'agent-update-error',
	'app-not-installed',
	'db-error',
	'department-update-error',
	'duplicate-email',
	'duplicate-phone',
	'email-error',
	'function-not-found',
	'invalid-otp',
	'invalid-status-code',
	'invalid-token',
	'invalid-user-type',
	'json-encode-error',
	'missing-argument',
	'missing-arguments',
	'missing-function-name',
	'missing-user-id-or-message',
	'not-an-agent',
	'security-error',
	'settings-not-found',
	'token-not-found',
	'user-email-not-found',
	'user-not-found',
	'user-or-sender-not-found',
	'value-not-numeric',
];

describe('codeHint: a sentence of its own for every code of the product', () => {
	it.each(PRODUCT_CODES)('%s', (code) => {
		// As the product answers it: a function's error (HTTP 200), a validation error, the API's own (400).
		const hints = [
			codeHint(200, { status: 'error', response: code }),
			codeHint(200, { success: false, response: code }),
			codeHint(400, { status: 'error', response: code, message: 'Support Board [x][y]' }),
			codeHint(200, `Support Board [sb_function][${code}]: what went wrong`),
		];
		expect(new Set(hints).size).toBe(1);
		const [hint] = hints;
		expect(hint).toBeDefined();
		expect(hint).toMatch(/^[A-Z].*\.$/);
		expect(hint).not.toContain('Base URL');
		expect(hint).not.toContain('reachable');
	});

	it('no two codes share a sentence', () => {
		const hints = PRODUCT_CODES.map((code) => codeHint(200, { status: 'error', response: code }));
		expect(new Set(hints).size).toBe(PRODUCT_CODES.length);
	});

	it('not-an-agent names the cause and the remedy', () => {
		expect(codeHint(200, { status: 'error', response: 'not-an-agent' })).toMatch(
			/only to agents and admins.*choose an agent or an admin/,
		);
	});

	it('a function a later version adds says which version', () => {
		expect(
			codeHint(404, { status: 'error', response: 'function-not-found' }, 'update-tags'),
		).toMatch(/Support Board 3\.8\.9 or later/);
	});

	it('an unknown code, or none, has no hint of the product; a 404 without one is the wrong address', () => {
		expect(codeHint(200, { status: 'error', response: 'something-new' })).toBeUndefined();
		expect(codeHint(200, 'plain text')).toBeUndefined();
		expect(codeHint(200, { response: 'toString' })).toBeUndefined();
		expect(codeHint(404, '<html>Not Found</html>')).toMatch(/Base URL/);
	});
});

describe('the code read from an answer', () => {
	const hintOf = (code: string) => codeHint(200, { status: 'error', response: code });
	it.each([
		[{ status: 'error', response: 'not-an-agent' }, 'not-an-agent'],
		[{ success: true, response: [] }, undefined],
		['Support Board [sb_db_escape][value-not-numeric]: Value not numeric', 'value-not-numeric'],
		[`${'['.repeat(10_000)}x`, undefined],
		[null, undefined],
	])('%j → %p', (body, code) => {
		expect(codeHint(200, body)).toBe(code === undefined ? undefined : hintOf(code));
	});
});
