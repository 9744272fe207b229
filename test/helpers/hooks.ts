/**
 * A trigger's `webhookMethods` run the way n8n 2.41 runs them (packages/cli `WebhookService`): under
 * n8n-core's real `HookContext`, with the webhook's data built as n8n builds it. Publishing a workflow is
 * `createWebhookIfNotExists` (checkExists, then create when it answered false) in mode `trigger`;
 * listening for a test event is the same in mode `manual` with the Test URL; unpublishing, and the end
 * of listening, is `delete` in mode `internal`. The node's static data is carried from one call to the
 * next as n8n saves it after each.
 */
import type {
	IDataObject,
	IHttpRequestMethods,
	INode,
	INodeParameters,
	INodeType,
	IWebhookData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { HookContext } from 'n8n-core';

import type { EngineCredentials } from './engine';
import { oneNodeWorkflow } from './engine';

export interface HookHost {
	/** Publishes: checkExists, then create when it answered false. Resolves to whether create ran. */
	publish(): Promise<{ created: boolean }>;
	/** Listens for a test event (the Test URL): the same calls in mode `manual`. */
	listen(): Promise<{ created: boolean }>;
	/** Unpublishes (`test`: stops listening): delete. */
	unpublish(opts?: { test?: boolean }): Promise<void>;
	/** checkExists alone, as n8n asks it when it starts with the workflow published. */
	checkExists(): Promise<boolean>;
	/** The Production URL (`test`: the Test URL) n8n gives the node. */
	url(opts?: { test?: boolean }): string;
	/** The node's static data as n8n would have saved it. */
	readonly staticData: IDataObject;
}

export interface HookHostOptions {
	node: Partial<INode> & { type: string; parameters: INodeParameters };
	nodeType: INodeType;
	credentials?: EngineCredentials;
	/** n8n's webhook base URL (WEBHOOK_URL + `/webhook`); the Test URL's is the same with `-test`. */
	webhookBaseUrl: string;
	workflowId?: string;
	/** The workflow's static data as n8n saved it before (default: none). */
	staticData?: IDataObject;
}

export function hookHost(opts: HookHostOptions): HookHost {
	let staticData: IDataObject = structuredClone(opts.staticData ?? {});
	const nodeName = 'Support Chat Trigger';

	function context(mode: WorkflowExecuteMode, activation: WorkflowActivateMode, isTest: boolean) {
		const { workflow, node, additionalData } = oneNodeWorkflow(opts, {
			name: nodeName,
			active: !isTest,
			staticData: structuredClone(staticData),
		});
		additionalData.webhookBaseUrl = opts.webhookBaseUrl;
		additionalData.webhookTestBaseUrl = `${opts.webhookBaseUrl}-test`;
		const description = opts.nodeType.description.webhooks?.find((w) => w.name === 'default');
		if (description === undefined) throw new Error('The node has no default webhook');
		const webhookData: IWebhookData = {
			httpMethod: description.httpMethod as IHttpRequestMethods,
			node: node.name,
			path: String(description.path),
			webhookDescription: description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
			webhookId: node.webhookId,
			isTest,
		};
		const ctx = new HookContext(workflow, node, additionalData, mode, activation, webhookData);
		return { ctx, workflow };
	}

	async function run(
		method: 'checkExists' | 'create' | 'delete',
		mode: WorkflowExecuteMode,
		activation: WorkflowActivateMode,
		isTest: boolean,
	): Promise<boolean> {
		const fn = opts.nodeType.webhookMethods?.default?.[method];
		if (fn === undefined) throw new Error(`The node has no webhookMethods.default.${method}`);
		const { ctx, workflow } = context(mode, activation, isTest);
		const result = await fn.call(ctx);
		// n8n saves the workflow's static data once the webhooks are added or removed.
		staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		delete staticData.__dataChanged;
		return result;
	}

	async function createIfNotExists(
		mode: WorkflowExecuteMode,
		activation: WorkflowActivateMode,
		isTest: boolean,
	) {
		if (await run('checkExists', mode, activation, isTest)) return { created: false };
		await run('create', mode, activation, isTest);
		return { created: true };
	}

	return {
		publish: () => createIfNotExists('trigger', 'activate', false),
		listen: () => createIfNotExists('manual', 'manual', true),
		async unpublish({ test = false } = {}) {
			await run('delete', 'internal', 'update', test);
		},
		checkExists: () => run('checkExists', 'trigger', 'init', false),
		url({ test = false } = {}) {
			const { ctx } = context(test ? 'manual' : 'trigger', 'activate', test);
			return ctx.getNodeWebhookUrl('default') ?? '';
		},
		get staticData() {
			return staticData;
		},
	};
}
