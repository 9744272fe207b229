import {
	extractErrorMessage,
	hintForStatus,
	UNREACHABLE_HINT,
} from '../../../nodes/SupportChat/transport/errors';

describe('extractErrorMessage', () => {
	it.each<[string, unknown, string | undefined]>([
		['message', { message: 'User not found' }, 'User not found'],
		['error string', { error: 'invalid_token' }, 'invalid_token'],
		['error object', { error: { code: 42, message: 'Bad assignee' } }, 'Bad assignee'],
		[
			'errors[] with field',
			{ errors: [{ field: 'email', message: 'is invalid' }] },
			'email: is invalid',
		],
		['errors[] of strings', { errors: ['a', 'b'] }, 'a; b'],
		['detail', { detail: 'Not allowed' }, 'Not allowed'],
		[
			'envelope',
			{ success: false, response: { message: 'Conversation is closed' } },
			'Conversation is closed',
		],
		['validation map', { email: ['is taken'], phone: 'bad' }, 'email: is taken; phone: bad'],
		['plain text', 'Service Unavailable', 'Service Unavailable'],
		[
			'HTML page',
			'<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>',
			'Bad Gateway',
		],
		['HTML without heading', '<html><head><title>Oops</title></head></html>', 'Oops'],
		['nothing', {}, undefined],
		['undefined', undefined, undefined],
	])('from %s', (_name, body, expected) => {
		expect(extractErrorMessage(body)).toBe(expected);
	});

	it('clips very long messages', () => {
		expect(extractErrorMessage({ message: 'x'.repeat(1000) })!.length).toBeLessThanOrEqual(300);
	});
});

describe('hintForStatus', () => {
	it.each([
		[401, /token/],
		[403, /permission|not allowed/],
		[404, /user was not found.*ID/],
		[422, /field/],
		[429, /Requests per Second/],
		[503, /retried automatically.*not/],
	])('%i', (status, hint) => {
		expect(hintForStatus(status, 'user')).toMatch(hint);
	});

	it('the Base URL is advice for a network fault and the wrong address only', () => {
		expect(hintForStatus(undefined)).toBe(UNREACHABLE_HINT);
		expect(hintForStatus(404)).toMatch(/Base URL/);
		expect(hintForStatus(405)).toMatch(/Base URL/);
		// A refusal the service answered with its reason: a 2xx that says it failed, another 4xx.
		for (const status of [200, 201, 402, 406, 410, 418]) {
			expect(hintForStatus(status)).not.toMatch(/Base URL|reachable/);
			expect(hintForStatus(status)).toMatch(/reason in the message/);
		}
	});
});
