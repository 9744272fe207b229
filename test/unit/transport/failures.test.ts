/**
 * The failure explainer works from values (a status, an answer's verdict, a refused redirect, what the
 * exchange threw, the request spec) and returns the error: no client behind it, no mark on what it
 * makes. The engine tests (test/engine/errors.test.ts, hostile.test.ts, guards.test.ts) hold the same
 * messages end to end.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { SecretMask } from '../../../nodes/SupportChat/shared/secrets';
import {
	AnswerDeadlineError,
	AnswerTooLargeError,
} from '../../../nodes/SupportChat/transport/exchange';
import type { Explainer } from '../../../nodes/SupportChat/transport/failures';
import {
	explainThrown,
	failedError,
	refusedError,
	unsuccessfulError,
} from '../../../nodes/SupportChat/transport/failures';
import { DEFAULT_CLIENT_SETTINGS } from '../../../nodes/SupportChat/transport/limits';
import type { RequestSpec } from '../../../nodes/SupportChat/transport/types';

const TOKEN = 'tok-secret-42';
const NODE: INode = {
	id: '1',
	name: 'Support Chat',
	type: 'n8n-nodes-support-chat.supportChat',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function explainer(
	notThisApi: (status: number | undefined) => string | undefined = () => undefined,
): Explainer {
	return {
		node: NODE,
		mask: new SecretMask([TOKEN]),
		itemIndex: 3,
		settings: DEFAULT_CLIENT_SETTINGS,
		wire: { notThisApi },
	};
}

const GET: RequestSpec = { method: 'GET', path: '/users/1', resourceLabel: 'user' };

describe('refusedError', () => {
	it('explains a refused redirect as a value, with its status, and marks nothing', () => {
		const error = refusedError(explainer(), 'GET /users', 302, {
			refused: 'that says nowhere to go',
			description: 'Set the Base URL.',
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'The service answered GET /users with a redirect (302) that says nowhere to go',
		);
		expect(error.description).toBe('Set the Base URL.');
		expect(error.httpCode).toBe('302');
		expect(error.context).toEqual({ itemIndex: 3 });
	});
});

describe('explainThrown', () => {
	it('returns what ends the request, and throws nothing', () => {
		const input = explainThrown(
			explainer(),
			new NodeOperationError(NODE, 'bad input'),
			'GET /x',
			'https://a.example/x',
		);
		expect(input).toBeInstanceOf(NodeOperationError);
		const large = explainThrown(
			explainer(),
			new AnswerTooLargeError('big'),
			'GET /x',
			'https://a.example/x',
		);
		expect(large).toBeInstanceOf(NodeApiError);
		expect((large as NodeApiError).message).toBe(
			"The service's answer to GET /x was larger than Max Response Size (32 MB); stopped reading it",
		);
		const ssrf = Object.assign(new Error('blocked'), { name: 'SsrfBlockedIpError' });
		const refused = explainThrown(
			explainer(),
			ssrf,
			'GET /x',
			'https://10.0.0.1/x',
		) as NodeApiError;
		expect(refused.message).toBe("n8n's SSRF protection refused GET /x: blocked");
		expect(refused.description).toContain('N8N_SSRF_ALLOWED_HOSTNAMES=10.0.0.1');
	});

	it('hands a network failure, or any NodeApiError from n8n, to the retry rule', () => {
		expect(
			explainThrown(
				explainer(),
				new AnswerDeadlineError('deadline'),
				'GET /x',
				'https://a.example/x',
			),
		).toEqual({
			outcome: { kind: 'network' },
			message: 'the answer did not arrive in full within Timeout (60 s)',
		});
		const fromN8n = new NodeApiError(
			NODE,
			{ message: 'socket hang up' },
			{ message: 'socket hang up' },
		);
		expect(explainThrown(explainer(), fromN8n, 'GET /x', 'https://a.example/x')).toEqual({
			outcome: { kind: 'network' },
			message: 'socket hang up',
		});
	});
});

describe("the hint, in its order: the request's own, the wire's, the status's", () => {
	const failure = {
		ok: false as const,
		message: 'The service answered GET /users/1 with false',
		hintFor: false,
		after: ' (after)',
	};

	it("takes the spec's hint first", () => {
		const spec = { ...GET, hint: () => 'From the spec.' };
		expect(
			unsuccessfulError(
				explainer(() => 'From the wire.'),
				spec,
				200,
				failure,
			).description,
		).toBe('From the spec. (after)');
	});

	it("then the wire's word that this is no API of its kind, then the status", () => {
		expect(
			unsuccessfulError(
				explainer(() => 'From the wire.'),
				GET,
				200,
				failure,
			).description,
		).toBe('From the wire. (after)');
		const error = failedError(
			explainer(),
			GET,
			'GET /users/1',
			{ outcome: { kind: 'status', status: 404 }, body: { message: `no ${TOKEN}` } },
			'',
		);
		expect(error.message).toBe('The service answered GET /users/1 with 404: no [redacted]');
		expect(error.description).toContain('The user was not found');
		expect(error.context.responseBody).not.toContain(TOKEN);
	});

	it('keeps a description the rule of ./success gave', () => {
		const given = { ok: false as const, message: 'm', description: 'Given.' };
		expect(
			unsuccessfulError(
				explainer(() => 'From the wire.'),
				GET,
				200,
				given,
			).description,
		).toBe('Given.');
	});
});
