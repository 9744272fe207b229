import type {
	IDataObject,
	IHookFunctions,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { DELIVERY_REGISTRY, scopeKey } from './trigger/dedupe';
import { ANY_EVENT, EVENTS } from './trigger/events';
import type { TriggerSettings, VerificationScheme } from './trigger/handle';
import { VERIFICATION_SCHEMES, handleDelivery } from './trigger/handle';
import type { HmacAlgorithm } from './trigger/verify';
import { DEFAULT_TOLERANCE_SECONDS } from './trigger/verify';

const SETUP_NOTICE =
	'The service has no API for webhooks: paste this node\'s URL into its dashboard yourself. ' +
	'1. Copy a URL from Webhook URLs above. The Test URL only listens while you click "Listen for test event"; ' +
	'the Production URL works once the workflow is active. They are different URLs. ' +
	'2. In the service\'s dashboard open Settings > Miscellaneous > Webhooks. ' +
	'3. Paste the URL into the webhook URL field. The field takes several URLs separated by commas, so you can list the test URL and the production URL together. ' +
	'4. Tick the kinds of events this workflow needs, save the settings and reload the service. ' +
	'When you are done testing, remove the test URL from the list: while nobody listens on it, n8n answers it 404 and the service counts failed deliveries.';

const OWN_MESSAGES_NOTICE =
	'New Message deliveries sent as agent, admin or bot are ignored by default: a workflow that answers a message by sending one would otherwise trigger itself again and again. Change it under Options > Ignore Own Messages.';

const eventOptions = [
	{ name: '*', value: ANY_EVENT, description: 'Any event, including ones added later' },
	...EVENTS.map(({ name, value, description }) => ({ name, value, description })),
].sort((a, b) => (a.name === '*' ? -1 : b.name === '*' ? 1 : a.name.localeCompare(b.name)));

const verificationProperties: INodeProperties[] = [
	{
		displayName: 'Verification',
		name: 'verification',
		type: 'options',
		options: [
			{
				name: 'HMAC Signature',
				value: 'hmac',
				description: 'An HMAC of the raw body, keyed with the webhook secret, in a header',
			},
			{
				name: 'None',
				value: 'none',
				description: 'Accept every delivery. Anyone who learns the URL can start the workflow.',
			},
			{
				name: 'Secret Field in Body',
				value: 'bodyField',
				description: 'The webhook secret sent as a field of the body, as some PHP chat services do',
			},
			{
				name: 'Shared Token',
				value: 'token',
				description: 'The webhook secret sent as a token in the URL query or in a header',
			},
			{
				name: 'Standard Webhooks',
				value: 'standardWebhooks',
				description: 'Webhook-ID, webhook-timestamp and webhook-signature headers (standardwebhooks.com)',
			},
		],
		default: 'none',
		description:
			'How to check that a delivery comes from the service. The secret is the Webhook Secret of the credentials; a delivery that fails the check is answered 401 and starts nothing.',
	},
	{
		displayName: 'Timestamp Tolerance (Seconds)',
		name: 'timestampTolerance',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_TOLERANCE_SECONDS,
		description: 'How far the webhook-timestamp may be from this server\'s clock. Older deliveries are refused as replays.',
		displayOptions: { show: { verification: ['standardWebhooks'] } },
	},
	{
		displayName: 'Token Location',
		name: 'tokenLocation',
		type: 'options',
		options: [
			{ name: 'Header', value: 'header' },
			{ name: 'URL Query', value: 'query' },
		],
		default: 'query',
		description:
			'Where the sender puts the token. In the URL query it is part of the URL pasted into the dashboard (…/webhook?token=SECRET), and can end up in server logs.',
		displayOptions: { show: { verification: ['token'] } },
	},
	{
		displayName: 'Query Parameter',
		name: 'queryParameterName',
		type: 'string',
		default: 'token',
		description: 'Name of the URL query parameter that carries the token',
		displayOptions: { show: { verification: ['token'], tokenLocation: ['query'] } },
	},
	{
		displayName: 'Header Name',
		name: 'headerName',
		type: 'string',
		default: 'X-Webhook-Token',
		description: 'Name of the header that carries the token. "Authorization: Bearer TOKEN" works too.',
		displayOptions: { show: { verification: ['token'], tokenLocation: ['header'] } },
	},
	{
		displayName: 'Signature Header',
		name: 'hmacHeader',
		type: 'string',
		default: 'X-Signature',
		description: 'Name of the header that carries the signature',
		displayOptions: { show: { verification: ['hmac'] } },
	},
	{
		displayName: 'Algorithm',
		name: 'hmacAlgorithm',
		type: 'options',
		options: [
			{ name: 'SHA-1', value: 'sha1' },
			{ name: 'SHA-256', value: 'sha256' },
			{ name: 'SHA-512', value: 'sha512' },
		],
		default: 'sha256',
		displayOptions: { show: { verification: ['hmac'] } },
	},
	{
		displayName: 'Encoding',
		name: 'hmacEncoding',
		type: 'options',
		options: [
			{ name: 'Base64', value: 'base64' },
			{ name: 'Hex', value: 'hex' },
		],
		default: 'hex',
		description: 'How the digest is written in the header',
		displayOptions: { show: { verification: ['hmac'] } },
	},
	{
		displayName: 'Signature Prefix',
		name: 'hmacPrefix',
		type: 'string',
		default: '',
		placeholder: 'sha256=',
		description: 'Text before the digest in the header, if any',
		displayOptions: { show: { verification: ['hmac'] } },
	},
	{
		displayName: 'Key Field',
		name: 'keyField',
		type: 'string',
		default: 'key',
		description:
			'Name of the body field that carries the secret, or a dot path such as auth.key. Its value never reaches the output.',
		displayOptions: { show: { verification: ['bodyField'] } },
	},
];

const optionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Deduplication Window (Minutes)',
			name: 'dedupeWindowMinutes',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 1440,
			description:
				'How long a delivery ID (Standard Webhooks ID header, event ID or envelope ID) is remembered, so that a sender\'s retry does not start the workflow twice. 0 turns this off.',
		},
		{
			displayName: 'Ignore Own Messages',
			name: 'ignoreOwnMessages',
			type: 'boolean',
			default: true,
			description:
				'Whether to ignore New Message deliveries sent from the service\'s side: as agent, admin, operator, assistant or bot, or by a user other than the conversation\'s visitor (user_id differs from conversation_user_id). On by default because a workflow that answers a message by sending one (sent as agent) would otherwise hear its own answer and trigger itself in a loop.',
		},
		{
			displayName: 'Ignored Sender IDs',
			name: 'ignoredSenderIds',
			type: 'string',
			default: '',
			placeholder: '12, 57',
			description:
				'Comma-separated user IDs whose messages never start the workflow, such as the user your workflow sends messages as',
		},
		{
			displayName: 'Include Headers',
			name: 'includeHeaders',
			type: 'boolean',
			default: false,
			description: 'Whether to add the request headers to each item. Headers carrying credentials are masked.',
		},
		{
			displayName: 'Unrecognised Events',
			name: 'unknownEvents',
			type: 'options',
			options: [
				{
					name: 'Ignore',
					value: 'ignore',
					description: 'Answer 200 and start nothing',
				},
				{
					name: 'Pass On',
					value: 'passOn',
					description: 'Start the workflow with event set to "unknown"',
				},
			],
			default: 'ignore',
			description: 'What to do with a delivery whose event name the trigger does not recognise',
		},
	],
};

const MESSAGE_EVENTS = ['messageCreated', ANY_EVENT];

export class SupportChatTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Support Chat Trigger',
		name: 'supportChatTrigger',
		icon: { light: 'file:supportChat.svg', dark: 'file:supportChat.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ ($parameter["events"] || []).join(", ") }}',
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
		properties: [
			{
				displayName: SETUP_NOTICE,
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: eventOptions,
				default: [],
				description: 'The events that start the workflow. Deliveries of other events are answered 200 and start nothing.',
			},
			{
				displayName: OWN_MESSAGES_NOTICE,
				name: 'ownMessagesNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { events: MESSAGE_EVENTS } },
			},
			...verificationProperties,
			optionsProperty,
		],
	};

	// There is no API to register a webhook (spec §6: the URL is pasted into the dashboard by hand), so
	// the lifecycle has nothing to create, check or delete remotely.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const settings = await readSettings(this);
		// No await from here on: the process's record of deliveries is checked and written in one
		// synchronous step, so two copies of a delivery in flight together cannot both be accepted.
		const request = this.getRequestObject();
		const node = this.getNode();
		const test = this.getMode() === 'manual';
		const memory = DELIVERY_REGISTRY.scope(scopeKey(this.getWorkflow().id, node.id || node.name, test));
		const decision = handleDelivery(
			{
				rawBody: request.rawBody,
				body: request.body as unknown,
				headers: request.headers,
				query: request.query as unknown,
			},
			settings,
			this.getWorkflowStaticData('node'),
			Date.now(),
			{ memory, test },
		);

		// The answer is written here, at once, before the run starts: a slow workflow must not make the
		// service time out and retry. (Handing it to n8n as webhookResponse does not work in n8n 2.41,
		// which answers such a trigger with the text "firstEntryJson".)
		const response = this.getResponseObject();
		response.writeHead(decision.status, { 'Content-Type': 'application/json; charset=utf-8' });
		response.end(JSON.stringify(decision.body));
		if (decision.action === 'run') return { workflowData: [decision.items], noWebhookResponse: true };
		// No workflowData at all: even an empty list would start (and record) an empty execution.
		return { noWebhookResponse: true };
	}
}

function stringParameter(context: IWebhookFunctions, name: string, fallback: string): string {
	const value = context.getNodeParameter(name, fallback);
	return typeof value === 'string' ? value : fallback;
}

function parseIdList(value: unknown): string[] {
	if (Array.isArray(value)) return value.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
	if (typeof value === 'number') return [String(value)];
	if (typeof value !== 'string') return [];
	return value
		.split(/[\s,;]+/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/** The webhook secret of the credentials; empty when there are none (handleDelivery then refuses). */
async function readSecret(context: IWebhookFunctions): Promise<string> {
	try {
		const credentials = await context.getCredentials<IDataObject>('supportChatApi');
		return typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
	} catch {
		// No credentials selected: deliveries are answered 401 "Webhook secret not configured".
		return '';
	}
}

async function readSettings(context: IWebhookFunctions): Promise<TriggerSettings> {
	const eventsValue = context.getNodeParameter('events', []);
	const events = Array.isArray(eventsValue) ? eventsValue.map(String) : [];
	const verificationValue = stringParameter(context, 'verification', 'none');
	const verification: VerificationScheme = (VERIFICATION_SCHEMES as readonly string[]).includes(verificationValue)
		? (verificationValue as VerificationScheme)
		: 'none';
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const tolerance = Number(context.getNodeParameter('timestampTolerance', DEFAULT_TOLERANCE_SECONDS));
	const window = options.dedupeWindowMinutes === undefined ? 1440 : Number(options.dedupeWindowMinutes);

	return {
		events,
		verification,
		secret: verification === 'none' ? '' : await readSecret(context),
		timestampTolerance: Number.isFinite(tolerance) && tolerance > 0 ? tolerance : DEFAULT_TOLERANCE_SECONDS,
		tokenLocation: stringParameter(context, 'tokenLocation', 'query') === 'header' ? 'header' : 'query',
		queryParameterName: stringParameter(context, 'queryParameterName', 'token'),
		headerName: stringParameter(context, 'headerName', 'X-Webhook-Token'),
		hmacHeader: stringParameter(context, 'hmacHeader', 'X-Signature'),
		hmacAlgorithm: stringParameter(context, 'hmacAlgorithm', 'sha256') as HmacAlgorithm,
		hmacEncoding: stringParameter(context, 'hmacEncoding', 'hex') === 'base64' ? 'base64' : 'hex',
		hmacPrefix: stringParameter(context, 'hmacPrefix', ''),
		keyField: stringParameter(context, 'keyField', 'key'),
		unknownEvents: options.unknownEvents === 'passOn' ? 'passOn' : 'ignore',
		dedupeWindowMinutes: Number.isFinite(window) && window > 0 ? window : 0,
		ignoreOwnMessages: options.ignoreOwnMessages !== false,
		ignoredSenderIds: parseIdList(options.ignoredSenderIds),
		includeHeaders: options.includeHeaders === true,
	};
}
