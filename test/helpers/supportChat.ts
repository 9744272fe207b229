/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Sandbox } from '../../sandbox';
import type { EngineRun } from './engine';
import { runNode } from './engine';

export const ACTION_TYPE = 'n8n-nodes-support-chat.supportChat';
export const TRIGGER_TYPE = 'n8n-nodes-support-chat.supportChatTrigger';
export const TOKEN = 'sandbox-token-4f9a';

export const byId = (value: string) => ({ __rl: true, mode: 'id', value });

export function credentialsFor(sandbox: Sandbox, overrides: IDataObject = {}) {
	return {
		types: [new SupportChatApi()],
		data: { supportChatApi: { baseUrl: sandbox.origin, apiToken: TOKEN, ...overrides } },
	};
}

/** Runs the Support Chat node once in the real engine against the sandbox, after a start node emitting `items`. */
export async function runAction(
	sandbox: Sandbox,
	parameters: INodeParameters,
	opts: { items?: IDataObject[]; credentials?: IDataObject; continueOnFail?: boolean } = {},
): Promise<EngineRun> {
	return await runNode({
		node: {
			name: 'Support Chat',
			type: ACTION_TYPE,
			parameters,
			...(opts.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		},
		items: opts.items,
		nodeTypes: { [ACTION_TYPE]: new SupportChat() },
		credentials: credentialsFor(sandbox, opts.credentials),
	});
}

export function jsonOf(run: EngineRun): IDataObject[] {
	return run.output('Support Chat').map((item) => item.json);
}

/** The API requests the sandbox received, as `METHOD /path`. */
export function calls(sandbox: Sandbox): string[] {
	return sandbox.requests.map((r) => `${r.method} ${r.path}`);
}
