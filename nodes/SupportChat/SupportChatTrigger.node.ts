import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { DOWNLOAD_ATTACHMENTS_PATH, engineV2FilesRefusal } from './files/downloadOptions';
import { withDeliveryFiles } from './files/runs';
import { credentialTest } from './methods';
import { EVENT_CLAIMS } from './shared/claims';
import { DELIVERY_REGISTRY, scopeKey } from './trigger/dedupe';
import { eventsSubtitle, triggerProperties } from './trigger/description';
import { handleDelivery } from './trigger/handle';
import { readSettings } from './trigger/triggerSettings';
import { checkExists, create, deleteWebhook } from './trigger/selfSetup';

/**
 * Download Attachments on engine v2 is refused at publishing already (checkExists); should the engine
 * change without it, the service hears of it rather than being told "received" for an event n8n then
 * refuses to run (files/downloadOptions.ts).
 */
function refuseOnEngineV2(ctx: IWebhookFunctions): IWebhookResponseData | undefined {
	if (ctx.getNodeParameter(DOWNLOAD_ATTACHMENTS_PATH, false) !== true) return undefined;
	const refusal = engineV2FilesRefusal(ctx);
	if (refusal === undefined) return undefined;
	const response = ctx.getResponseObject();
	response.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify({ received: false, error: refusal.message }));
	return { noWebhookResponse: true };
}

export class SupportChatTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Support Chat Trigger',
		name: 'supportChatTrigger',
		icon: { light: 'file:supportChat.svg', dark: 'file:supportChat.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle,
		description: 'Starts the workflow when the chat service sends an event',
		defaults: {
			name: 'Support Chat Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				// n8n's way to make a credential needed only for some settings (as its Webhook node does).
				name: 'supportChatApi',
				required: true,
				displayOptions: { hide: { verification: ['none'] } },
				// Either node may be the one n8n asks to test the credentials: both name the same test.
				testedBy: 'supportChatApiTest',
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// The answer goes out as soon as the run is started, not when it ends: a slow workflow
				// must not make the service time out and retry.
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = { credentialTest };

	// Only Set Up Webhook in Support Board writes anything remotely (trigger/selfSetup.ts); without it
	// there is nothing to create, check or delete: the URL is pasted into the dashboard by hand.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				// Asked whenever the workflow is published or a test event is listened for: the moment to
				// refuse what would lose events later (files/downloadOptions.ts).
				const refusal =
					this.getNodeParameter(DOWNLOAD_ATTACHMENTS_PATH, false) === true
						? engineV2FilesRefusal(this)
						: undefined;
				if (refusal) throw refusal;
				// n8n asks this first whenever it activates the workflow, before its poll trigger starts.
				if (this.getMode() !== 'manual') EVENT_CLAIMS.activating(this.getWorkflow().id ?? '');
				return await checkExists(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteWebhook(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const refused = refuseOnEngineV2(this);
		if (refused) return refused;
		const settings = await readSettings(this);
		// No await from here on: the process's record of deliveries is checked and written in one
		// synchronous step, so two copies of a delivery in flight together cannot both be accepted.
		const request = this.getRequestObject();
		const node = this.getNode();
		const test = this.getMode() === 'manual';
		const workflowId = this.getWorkflow().id ?? '';
		// Looked up only for a delivery that names its ID: Support Board's never do.
		const memory = () => DELIVERY_REGISTRY.scope(scopeKey(workflowId, node.id || node.name, test));
		const now = Date.now();
		// A test delivery claims nothing: it must not hide an event from the production triggers.
		const claim = test
			? undefined
			: (eventKey: string) => EVENT_CLAIMS.claim(workflowId, eventKey, 'webhook', now);
		const decision = handleDelivery(
			{
				rawBody: request.rawBody,
				body: request.body,
				headers: request.headers,
				query: request.query,
			},
			settings,
			this.getWorkflowStaticData('node'),
			now,
			{ memory, test, claim },
		);

		// The answer is written here, at once, before the run starts: a slow workflow must not make the
		// service time out and retry. (Handing it to n8n as webhookResponse does not work in n8n 2.41,
		// which answers such a trigger with the text "firstEntryJson".)
		const response = this.getResponseObject();
		response.writeHead(decision.status, { 'Content-Type': 'application/json; charset=utf-8' });
		response.end(JSON.stringify(decision.body));
		if (decision.action === 'run') {
			// Download Attachments is read first: with it off, none of files/ runs.
			const asked = this.getNodeParameter(DOWNLOAD_ATTACHMENTS_PATH, false) === true;
			return {
				workflowData: [asked ? await withDeliveryFiles(this, decision.items) : decision.items],
				noWebhookResponse: true,
			};
		}
		// No workflowData at all: even an empty list would start (and record) an empty execution.
		return { noWebhookResponse: true };
	}
}
