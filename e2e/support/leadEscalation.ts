/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { startN8n, type Execution, type N8nInstance, type N8nLine } from '../harness';
import {
	deployWorkflow,
	exactExecutions,
	lastExecutionId,
	readWorkflow,
	SANDBOX_TOKEN,
	WEBHOOK_SECRET,
} from '.';
import {
	startSandbox,
	type Sandbox,
	type WebhookDelivery,
	type WebhookTamper,
} from '../../sandbox';

/*
 * The trigger-and-call-back scenario, the same in regular and in queue mode: a published lead-escalation
 * workflow (Support Chat Trigger on Lead Captured, verified with Standard Webhooks, then tag the user,
 * assign the conversation and tell the visitor through the action node) receives the sandbox's real
 * deliveries at its production URL. Registers its tests in the calling file; returns the live context
 * for mode-specific tests. `n8nLine: '1.x'` runs it in the last n8n 1.x, where the workflow is
 * activated rather than published (the harness's publishWorkflow does either).
 */

export const NODES = ['Lead Captured', 'Tag as lead', 'Assign to sales', 'Tell the visitor'];
export const REPLY = 'Thanks for leaving your details! A sales agent will be with you shortly.';

export interface ScenarioContext {
	n8n: N8nInstance;
	sandbox: Sandbox;
	workflowId: string;
	/** The trigger's production URL, as pasted into the service's dashboard. */
	triggerUrl: string;
	/** Executions of the workflow, oldest first, collected by the tests. */
	runs: Execution[];
}

/** The trigger's first item in a run. */
export function triggerItem(execution: Execution): Record<string, any> {
	return execution.data.resultData.runData['Lead Captured'][0].data.main[0][0].json;
}

/** Deliveries as `kind status`. */
const summary = (deliveries: WebhookDelivery[]) => deliveries.map((d) => `${d.kind} ${d.status}`);

export function describeLeadEscalation(
	mode: 'regular' | 'queue',
	options: { n8nLine?: N8nLine } = {},
): ScenarioContext {
	const context = { runs: [] as Execution[] } as ScenarioContext;

	beforeAll(async () => {
		context.sandbox = await startSandbox({
			token: SANDBOX_TOKEN,
			seed: { users: 12, conversations: 6, tags: ['vip', 'newsletter'] },
		});
		context.n8n = await startN8n({
			mode,
			n8nLine: options.n8nLine,
			packageDir: process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR,
		});
		const deployed = await deployWorkflow(
			context.n8n,
			context.sandbox,
			readWorkflow('lead-escalation.workflow.json'),
			{
				connectWebhooks: true,
			},
		);
		context.workflowId = deployed.id;
		context.triggerUrl = deployed.triggerUrl as string;
	});

	afterAll(async () => {
		await context.n8n?.stop();
		await context.sandbox?.close();
	});

	test('the sandbox is set up like a dashboard: the production URL, every kind, signed', () => {
		const { sandbox, n8n, triggerUrl } = context;
		expect(triggerUrl.startsWith(`${n8n.webhookBaseUrl}/webhook/`)).toBe(true);
		expect(sandbox.webhooks).toMatchObject({
			urls: [triggerUrl],
			secret: WEBHOOK_SECRET,
			style: 'dotted',
		});
		expect(Object.values(sandbox.webhooks.kinds).every(Boolean)).toBe(true);
	});

	test('a visitor leaves an e-mail address in the chat: one run tags, assigns and answers', async () => {
		const { sandbox, n8n, workflowId } = context;
		const from = sandbox.deliveries.length;
		const visitor = sandbox.visitor.startConversation({
			name: 'Grace Hopper',
			message: 'Hi, do you offer volume pricing?',
		});
		sandbox.visitor.say(visitor.conversation.id, 'Sure, write to grace@example.com');
		await sandbox.settled();
		const [run] = await exactExecutions(n8n, workflowId, { count: 1 });
		context.runs.push(run);
		// The run's own calls make the service send more events (tag applied, agent message).
		await sandbox.settled();

		expect(run).toMatchObject({ status: 'success', mode: 'webhook', finished: true });
		expect(Object.keys(run.data.resultData.runData)).toEqual(NODES);
		const lead = sandbox.deliveries
			.slice(from)
			.find((d) => d.kind === 'leadCaptured') as WebhookDelivery;
		expect(triggerItem(run)).toMatchObject({
			event: 'leadCaptured',
			eventName: 'contact.lead.created',
			userId: visitor.user.id,
			conversationId: visitor.conversation.id,
			deliveryId: lead.headers['webhook-id'],
			data: { email: 'grace@example.com', captured_via: 'message' },
		});

		const user = sandbox.state.users.find((u) => u.id === visitor.user.id);
		expect(user?.tags).toEqual(['lead']);
		expect(
			sandbox.state.conversations.find((c) => c.id === visitor.conversation.id)?.assignee_id,
		).toBe('agent_sales');
		const messages = sandbox.state.messages.filter(
			(m) => m.conversation_id === visitor.conversation.id,
		);
		expect(messages.map((m) => [m.type, m.message])).toEqual([
			['user', 'Hi, do you offer volume pricing?'],
			['user', 'Sure, write to grace@example.com'],
			['agent', REPLY],
		]);
		expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'POST /tags 201',
			`POST /conversations/${visitor.conversation.id}/assign 200`,
			'POST /messages 201',
		]);
	});

	test('every event reached the production URL signed; only Lead Captured started a run', () => {
		const { sandbox, triggerUrl } = context;
		expect(summary(sandbox.deliveries)).toEqual([
			'userCreated 200',
			'conversationCreated 200',
			'messageCreated 200',
			'messageCreated 200',
			'leadCaptured 200',
			// Called back by the run: the tag, and the agent's answer.
			'tagApplied 200',
			'messageCreated 200',
		]);
		for (const delivery of sandbox.deliveries) {
			expect(delivery.url).toBe(triggerUrl);
			expect(delivery.headers['webhook-signature']).toMatch(/^v1,/);
		}
		const answers = sandbox.deliveries
			.filter((d) => d.kind !== 'leadCaptured')
			.map((d) => JSON.parse(d.response ?? ''));
		expect(answers).toEqual([
			{ received: true, ignored: 'event userCreated not selected' },
			{ received: true, ignored: 'event conversationCreated not selected' },
			{ received: true, ignored: 'event messageCreated not selected' },
			{ received: true, ignored: 'event messageCreated not selected' },
			{ received: true, ignored: 'event tagApplied not selected' },
			{ received: true, ignored: 'event messageCreated not selected' },
		]);
	});

	test('a lead left through the form, in an open conversation, runs the same way', async () => {
		const { sandbox, n8n, workflowId } = context;
		const afterId = await lastExecutionId(n8n, workflowId);
		const visitor = sandbox.visitor.startConversation({
			name: 'Alan Turing',
			message: 'Can someone call me back?',
		});
		sandbox.clearLog();
		const { user } = sandbox.visitor.captureLead({
			phone: '+441632960961',
			conversationId: visitor.conversation.id,
		});
		await sandbox.settled();
		const [run] = await exactExecutions(n8n, workflowId, { count: 1, afterId });
		context.runs.push(run);
		await sandbox.settled();
		expect(run.status).toBe('success');
		expect(triggerItem(run)).toMatchObject({
			event: 'leadCaptured',
			userId: user.id,
			conversationId: visitor.conversation.id,
			data: { phone: '+441632960961', captured_via: 'form' },
		});
		expect(
			sandbox.state.conversations.find((c) => c.id === visitor.conversation.id)?.assignee_id,
		).toBe('agent_sales');
		expect(sandbox.state.users.find((u) => u.id === user.id)?.tags).toContain('lead');
	});

	test.each<WebhookTamper>(['body', 'signature', 'stale', 'unsigned'])(
		'a delivery with a spoilt signature (%s) is refused with 401 and starts nothing',
		async (tamper) => {
			const { sandbox, n8n, workflowId } = context;
			const afterId = await lastExecutionId(n8n, workflowId);
			const requestsBefore = sandbox.requests.length;
			sandbox.webhookSignatureOptions({ tamper });
			const id = sandbox.emitWebhook('leadCaptured', {
				lead: { email: `forged-${tamper}@example.com`, phone: null, via: 'form' },
			});
			await sandbox.settled();
			const delivery = sandbox.deliveries.find((d) => d.id === id) as WebhookDelivery;
			expect(delivery).toMatchObject({ tamper, status: 401 });
			expect(JSON.parse(delivery.response ?? '')).toMatchObject({
				received: false,
				error: expect.any(String),
			});
			await exactExecutions(n8n, workflowId, { count: 0, afterId });
			expect(sandbox.requests.length).toBe(requestsBefore);
		},
	);

	test('a replay of a delivery already handled (same webhook-id, within the tolerance) starts nothing', async () => {
		const { sandbox, n8n, workflowId, triggerUrl } = context;
		const afterId = await lastExecutionId(n8n, workflowId);
		const handled = sandbox.deliveries.find(
			(d) => d.kind === 'leadCaptured' && d.status === 200,
		) as WebhookDelivery;
		const response = await fetch(triggerUrl, {
			method: 'POST',
			headers: handled.headers,
			body: handled.body,
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ received: true, ignored: 'duplicate delivery' });
		await exactExecutions(n8n, workflowId, { count: 0, afterId });
	});

	test('after all that, a genuine delivery still runs', async () => {
		const { sandbox, n8n, workflowId } = context;
		const afterId = await lastExecutionId(n8n, workflowId);
		const id = sandbox.emitWebhook('leadCaptured');
		await sandbox.settled();
		expect(sandbox.deliveries.find((d) => d.id === id)?.status).toBe(200);
		const [run] = await exactExecutions(n8n, workflowId, { count: 1, afterId });
		context.runs.push(run);
		expect(run.status).toBe('success');
		expect(triggerItem(run).deliveryId).toBe(id);
	});

	// n8n 2.41 and 1.123 answer an onReceived trigger that returns a webhookResponse with the literal
	// string "firstEntryJson" (extractWebhookOnReceivedResponse); the trigger therefore writes its answer
	// itself. This checks the service gets the trigger's own body.
	test('a delivery that starts a run is answered with the trigger\'s own body, {"received":true}', () => {
		const lead = context.sandbox.deliveries.find(
			(d) => d.kind === 'leadCaptured' && d.status === 200,
		);
		expect(lead?.response).toBe('{"received":true}');
	});

	return context;
}
