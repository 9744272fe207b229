/**
 * Types of e2e/support (plain CommonJS with `// @ts-check`, shared by the scenarios, the demo and the
 * end-to-end benchmark).
 */
import type { Execution, N8nInstance, WorkflowJson, WorkflowNodeJson } from '../harness';
import type { Sandbox } from '../../sandbox';

export const REPO_ROOT: string;
export const FIXTURES_DIR: string;
export const EXAMPLES_DIR: string;
/** `n8n-nodes-support-chat.supportChat` */
export const ACTION_TYPE: string;
/** `n8n-nodes-support-chat.supportChatTrigger` */
export const TRIGGER_TYPE: string;
/** `supportChatApi` */
export const CREDENTIAL_TYPE: string;
/** The bearer token the scenarios' sandboxes require. */
export const SANDBOX_TOKEN: string;
/** The Standard Webhooks secret (`whsec_…`) the sandbox signs with and the credentials hold. */
export const WEBHOOK_SECRET: string;

/** A workflow JSON: a file name in e2e/fixtures, or a path. */
export function readWorkflow(nameOrPath: string): WorkflowJson;
/** Paths of `examples/*.json`, sorted; empty while there are none. */
export function exampleFiles(): string[];
/** `examples/lead-escalation.json` once it exists, else e2e/fixtures/lead-escalation.workflow.json. */
export function leadEscalationWorkflow(): { workflow: WorkflowJson; file: string };
/** Names of the Support Chat credentials a workflow's nodes refer to. */
export function credentialNames(workflow: WorkflowJson): string[];
/** `<webhookId>/webhook`: where n8n serves a Support Chat Trigger (under `/webhook/`). */
export function triggerPath(node: WorkflowNodeJson): string;

export interface DeployedWorkflow {
	id: string;
	name: string;
	/** The workflow's Support Chat Trigger, if any. */
	trigger?: WorkflowNodeJson;
	/** Its production URL. */
	triggerUrl?: string;
}

/**
 * Imports a workflow, with Support Chat credentials pointing at the sandbox (token, webhook secret) for
 * each credential name it uses (names in `known` are skipped, and added once created); publishes it
 * when it has a trigger (or as `publish` says); with `connectWebhooks`, sets the sandbox's webhook
 * receivers to the trigger's production URL, signed with the secret, in the `dotted` style.
 */
export function deployWorkflow(
	n8n: N8nInstance,
	sandbox: Sandbox,
	workflow: WorkflowJson,
	options?: { publish?: boolean; connectWebhooks?: boolean; secret?: string; token?: string; name?: string; known?: Set<string> },
): Promise<DeployedWorkflow>;

/**
 * Waits for `count` finished executions of the workflow (after `afterId`), waits `settleMs` (default
 * 1500) more, and throws when the workflow has any other number of executions after `afterId`.
 * Returns the `count` executions with their data.
 */
export function exactExecutions(
	n8n: N8nInstance,
	workflowId: string,
	options: { count: number; afterId?: string | number; settleMs?: number; timeoutMs?: number },
): Promise<Execution[]>;
/** Id of the workflow's newest execution, '0' when none. */
export function lastExecutionId(n8n: N8nInstance, workflowId: string): Promise<string>;
export function sleep(ms: number): Promise<void>;

export interface SignedDelivery {
	/** The delivery id: `webhook-id`, and the body's `id`. */
	id: string;
	body: string;
	/** content-type, webhook-id, webhook-timestamp, webhook-signature. */
	headers: Record<string, string>;
}
/** A Lead Captured delivery in the sandbox's `dotted` style, signed with Standard Webhooks (default secret WEBHOOK_SECRET). */
export function signedLeadDelivery(options?: { id?: string; email?: string; secret?: string; timestamp?: number }): SignedDelivery;
/** The same id and body signed again with a new timestamp, as a sender's retry. */
export function resignDelivery(delivery: { id: string; body: string }, options?: { secret?: string; timestamp?: number }): SignedDelivery;

export interface TogetherAnswer {
	url: string;
	status: number;
	text: string;
	/** From the release of the last bytes to the end of this answer. */
	ms: number;
}
/**
 * POSTs every request at once (127.0.0.1 only): each on its own connection with all but the last byte
 * of its body written, then every last byte in the same tick. `released` is that moment (epoch ms).
 */
export function sendTogether(
	requests: Array<{ url: string; headers: Record<string, string>; body: string }>,
	options?: { timeoutMs?: number; holdMs?: number },
): Promise<{ released: number; answers: TogetherAnswer[] }>;
/**
 * The workflow's executions after `afterId` once there are at least `minCount`, all are over and none
 * has appeared for `quietMs` (default 1500); for counting runs when more than one may have started.
 */
export function settledExecutions(
	n8n: N8nInstance,
	workflowId: string,
	options?: { afterId?: string | number; minCount?: number; quietMs?: number; timeoutMs?: number },
): Promise<Execution[]>;
