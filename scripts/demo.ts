/**
 * npm run demo: the package at work against the built-in sandbox service, inside n8n's engine.
 * A lead-escalation workflow: find the newest pending conversation, tag its user "lead", assign the
 * conversation and answer the visitor; then list the users page by page. Prints what the service saw.
 */
import type { IConnections, INode } from 'n8n-workflow';

import { SupportChatApi } from '../credentials/SupportChatApi.credentials';
import { SupportChat } from '../nodes/SupportChat/SupportChat.node';
import { startSandbox } from '../sandbox';
import { runWorkflow } from '../test/helpers/engine';

const TYPE = 'n8n-nodes-support-chat.supportChat';
const TOKEN = 'demo-token';

const node = (name: string, x: number, parameters: INode['parameters']): INode => ({
	id: name,
	name,
	type: TYPE,
	typeVersion: 1,
	position: [x, 0],
	parameters,
	credentials: { supportChatApi: { id: '1', name: 'Sandbox' } },
});

async function main() {
	const sandbox = await startSandbox({
		token: TOKEN,
		pagination: 'next-url',
		pageSize: 10,
		seed: { users: 35, conversations: 12, tags: ['vip', 'newsletter'] },
	});
	const visitor = sandbox.visitor.startConversation({
		name: 'Grace Hopper',
		email: 'grace@example.com',
		message: 'Hi, I would like a quote for 40 seats.',
	});
	console.log(`Sandbox service at ${sandbox.baseUrl} (Link-style pages of 10)`);
	console.log(`A visitor, ${visitor.user.name}, opened conversation ${visitor.conversation.id}: "${visitor.message.message}"\n`);

	const id = (expr: string) => ({ __rl: true, mode: 'id', value: `={{ ${expr} }}` });
	const nodes: INode[] = [
		{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		node('Pending conversations', 200, {
			resource: 'conversation',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'pending' },
		}),
		node('Tag user as lead', 400, { resource: 'tag', operation: 'add', userId: id('$json.user_id'), tag: 'lead' }),
		node('Assign to sales', 600, {
			resource: 'conversation',
			operation: 'assign',
			conversationId: id("$('Pending conversations').item.json.id"),
			assignee: 'agent_sales_1',
		}),
		node('Answer visitor', 800, {
			resource: 'message',
			operation: 'send',
			conversationId: id("$('Pending conversations').item.json.id"),
			message: 'Thanks for reaching out! A sales agent will be with you shortly.',
			messageType: 'agent',
		}),
	];
	const chain = ['Start', ...nodes.slice(1).map((n) => n.name)];
	const connections: IConnections = {};
	for (let i = 0; i < chain.length - 1; i++) {
		connections[chain[i]] = { main: [[{ node: chain[i + 1], type: 'main', index: 0 }]] };
	}
	const credentials = { types: [new SupportChatApi()], data: { supportChatApi: { baseUrl: sandbox.origin, apiToken: TOKEN } } };

	const run = await runWorkflow({ workflow: { nodes, connections }, nodeTypes: { [TYPE]: new SupportChat() }, credentials });
	if (run.status !== 'success') throw new Error(`Workflow failed: ${run.error()?.message}`);
	console.log(`Workflow "lead escalation" ran in n8n's engine; the service received:`);
	for (const r of sandbox.requests) console.log(`  ${r.method} ${r.path}${Object.keys(r.query).length ? `?${new URLSearchParams(r.query as Record<string, string>)}` : ''} → ${r.status}`);
	const conversation = sandbox.state.conversations.find((c) => c.id === visitor.conversation.id)!;
	const user = sandbox.state.users.find((u) => u.id === visitor.user.id)!;
	console.log(`\nConversation ${conversation.id}: status ${conversation.status}, assignee ${conversation.assignee_id}`);
	console.log(`User ${user.name}: tags ${user.tags.join(', ')}`);
	console.log(`Last message: "${sandbox.state.messages[sandbox.state.messages.length - 1].message}"`);

	sandbox.clearLog();
	const all = await runWorkflow({
		workflow: { nodes: [nodes[0], node('All users', 200, { resource: 'user', operation: 'getAll', returnAll: true })], connections: { Start: { main: [[{ node: 'All users', type: 'main', index: 0 }]] } } },
		nodeTypes: { [TYPE]: new SupportChat() },
		credentials,
	});
	console.log(`\nGet Many users with Return All: ${all.output('All users').length} users in ${sandbox.requests.length} requests, following next_page_url.`);
	await sandbox.close();
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
