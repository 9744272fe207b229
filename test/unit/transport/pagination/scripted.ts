/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * What the pagination tests share: a client that answers each request with the next scripted answer and
 * records what it was asked, and the list request, settings and failure text they all use.
 */

import type { INode } from 'n8n-workflow';

import { SecretMask } from '../../../../nodes/SupportChat/shared/secrets';
import { restWire } from '../../../../nodes/SupportChat/apis/rest/wire';
import type { RequestSpec } from '../../../../nodes/SupportChat/transport/types';
import { DEFAULT_PAGINATION } from '../../../../nodes/SupportChat/transport/pagination/styles';
import type { SupportChatContext } from '../../../../nodes/SupportChat/transport/pagination/loop';
import type { SupportChatClient } from '../../../../nodes/SupportChat/transport/request';

export const TOKEN = 'tok-9f8e7d6c5b4a';
const node = {
	name: 'Support Chat',
	type: 'supportChat',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
export const ctx = { getNode: () => node } as unknown as SupportChatContext;

export interface Answer {
	body: unknown;
	headers?: Record<string, string>;
	/** 404: a JSON 404, which the client hands back only for a request marked `absentIsAnswer`. */
	status?: 200 | 404;
}

/** `answers` is a list, or a function of the request number (1-based) for endless services. */
export function scripted(answers: Answer[] | ((n: number, spec: RequestSpec) => Answer)) {
	const asked: RequestSpec[] = [];
	const client = {
		wire: restWire,
		mask: new SecretMask([TOKEN]),
		resolveUrl: (spec: { url?: string }) => spec.url,
		request: async (spec: RequestSpec) => {
			asked.push(spec);
			const answer =
				typeof answers === 'function' ? answers(asked.length, spec) : answers[asked.length - 1];
			if (answer === undefined) throw new Error(`unexpected request #${asked.length}`);
			if (answer.status === 404 && !spec.absentIsAnswer)
				throw new Error(`404 for request #${asked.length}`);
			return {
				status: answer.status ?? 200,
				headers: answer.headers ?? {},
				body: answer.body,
				url: 'https://chat.example.com/script/include/api/users',
			};
		},
	} as unknown as SupportChatClient;
	return { client, asked };
}

export const bodies = (...list: unknown[]): Answer[] => list.map((body) => ({ body }));
export const rec = (...ids: number[]) => ids.map((id) => ({ id }));

/** A list of users, as an operation asks for it, with Limit when given. */
export const list = (limit?: number) => ({ list: 'users' as const, query: {}, limit });
/** The default pagination settings, with some changed. */
export const settings = (overrides = {}) => ({ ...DEFAULT_PAGINATION, ...overrides });
/** The message and description of the error a list fails with; throws when it succeeds. */
export const failure = async (promise: Promise<unknown>) => {
	const error = (await promise.then(
		() => undefined,
		(e: unknown) => e,
	)) as { message: string; description?: string } | undefined;
	if (!error) throw new Error('expected a failure');
	return `${error.message}\n${error.description ?? ''}`;
};
