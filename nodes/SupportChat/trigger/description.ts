import type { INodeProperties } from 'n8n-workflow';

import { sortedByName } from '../descriptions/common';
import { attachmentOptions } from '../files/downloadOptions';
import { TRIGGER_EVENT_OPTIONS } from '../shared/eventFacts';
import { ANY_EVENT } from '../shared/events';

/*
 * The webhook trigger's parameters, in the order the editor shows them (`triggerProperties`, at the
 * end): the set-up notice, Events, the own-messages notice, the verification scheme and its settings,
 * Set Up Webhook, and the Options collection.
 */

/**
 * The editor renders a notice's text as HTML with only `a`, `ul` and `li` kept (n8n 2.41's Notice):
 * the steps go in a list, numbered in their text (a version that drops the list still reads them in
 * order). The button is named as n8n 2.x shows it, with n8n 1.x's name after it; "Listening for test
 * event" is what both show while they wait.
 */
const SETUP_STEPS = [
	'Copy a URL from Webhook URLs above. The Test URL works only while the editor shows "Listening for test event": ' +
		'click "Execute step" (n8n 1.x: "Listen for test event"), then send one event. ' +
		'The Production URL works once the workflow is published (active). They are different URLs.',
	"In the service's dashboard open Settings → Miscellaneous → Webhooks.",
	'Paste one URL into the webhook URL field: the Test URL while you build the workflow, the Production URL in its place once it is published. ' +
		'The field takes one URL, whatever the service\'s description says: a comma list such as "url1, url2" is refused by its HTTP client, so nothing reaches either URL, and "url1,url2" is sent to one wrong address.',
	'Tick the kinds of events this workflow needs, save the settings and reload the service.',
];

/**
 * What the real product (Support Board 3.8.7) does: each delivery is posted once, with no retry and no
 * delivery ID. So the trigger cannot catch up on what it missed, and must not drop identical bodies as
 * duplicates (two archives of one conversation are byte-identical).
 */
const DELIVERY_FACTS =
	'The service sends each delivery once, with no retry and no delivery ID: a delivery sent while n8n is down, or to the test URL while nobody listens, is lost. ' +
	'Identical deliveries are separate events, and each starts a run.';

const SETUP_NOTICE =
	"Paste this node's URL into the service's dashboard yourself, or, with Support Board Web API credentials, turn on Set Up Webhook in Support Board below and publish the workflow." +
	`<ul>${SETUP_STEPS.map((step, index) => `<li>${index + 1}. ${step}</li>`).join('')}</ul>` +
	`${DELIVERY_FACTS} When you are done testing, put the production URL in place of the test URL.`;

const OWN_MESSAGES_NOTICE =
	'New Message deliveries sent as agent, admin or bot are ignored by default: a workflow that answers a message by sending one would otherwise trigger itself again and again. Change it under Options → Ignore Own Messages.';

const MESSAGE_EVENTS = ['messageCreated', ANY_EVENT];

/** How to paste the node's URL into the service, shown first: the service has no API to do it. */
const setupNotice: INodeProperties = {
	displayName: SETUP_NOTICE,
	name: 'setupNotice',
	type: 'notice',
	default: '',
};

/** Shown while New Message (or any event) is selected, because of the default that prevents loops. */
const ownMessagesNotice: INodeProperties = {
	displayName: OWN_MESSAGES_NOTICE,
	name: 'ownMessagesNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { events: MESSAGE_EVENTS } },
};

/**
 * `*`, the service's six kinds, then Support Board's own events, each group sorted by name: the six
 * first, because they are what every service sends; `*` selects the six and never Support Board's own.
 * The list is built from the event table (shared/eventFacts.ts), so n8n's lint (which reads literal option lists) does not sort it across groups.
 */
const eventOptions = [
	{
		name: '*',
		value: ANY_EVENT,
		description:
			"Any of the service's six kinds, including kinds added later; Support Board's own events are selected by name",
	},
	...TRIGGER_EVENT_OPTIONS,
];

/** What the subtitle calls `*`: the option's own name is `*`, as n8n's node panel expects of it. */
const ANY_EVENT_LABEL = 'Any Event';

/**
 * The node's subtitle on the canvas: the selected events by the names the Events list shows, never
 * their values (`leadCaptured`). Built from the option list, so a new event needs no edit here. Looked
 * up in a list of pairs, not an object, so that no value can reach an object's built-ins; a value the
 * list does not know (an expression's result) is shown as it is.
 */
const subtitleNames = eventOptions.map(({ name, value }) => [
	value,
	value === ANY_EVENT ? ANY_EVENT_LABEL : name,
]);
export const eventsSubtitle = `={{ (Array.isArray($parameter["events"]) ? $parameter["events"] : []).map((event) => (${JSON.stringify(subtitleNames)}.find((pair) => pair[0] === event) || [event, event])[1]).join(", ") }}`;

const eventsProperty: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	options: eventOptions,
	default: [],
	description:
		'The events that start the workflow. Deliveries of other events are answered 200 and start nothing.',
};

// Defaults are literals because n8n's editor and linter read them statically; they match
// TRIGGER_DEFAULTS in ../triggerSettings (test/unit/trigger/triggerSettings.test.ts checks).

/** The verification scheme and the settings each scheme shows. */
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
				description:
					'Webhook-ID, webhook-timestamp and webhook-signature headers (standardwebhooks.com)',
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
		default: 300,
		description:
			"How far the webhook-timestamp may be from this server's clock. Older deliveries are refused as replays.",
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
		description:
			'Name of the header that carries the token. "Authorization: Bearer TOKEN" works too.',
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

/**
 * Set Up Webhook in Support Board (../selfSetup.ts). Shown whatever the credentials' API: the editor
 * cannot show a parameter by a credential's field, so REST credentials are refused at publishing.
 */
const selfSetupProperties: INodeProperties[] = [
	{
		displayName: 'Set Up Webhook in Support Board',
		name: 'setUpWebhook',
		type: 'boolean',
		default: false,
		description:
			"Whether to write this node's Production URL, the Webhook Secret of the credentials (as the Secret key) and the selected events into Support Board's webhook settings when the workflow is published, and to put back what was there when it is unpublished. Support Board Web API credentials and Verification Secret Field in Body only. Support Board holds one webhook URL, so one Support Board feeds one workflow this way; the Poll Trigger has no such limit. The Test URL is never written.",
	},
	{
		displayName: 'Replace Another URL',
		name: 'replaceOtherUrl',
		type: 'boolean',
		default: false,
		description:
			"Whether to replace a webhook URL that Support Board already sends to, such as another workflow's. Off, publishing is refused and the error names the other URL's host. The replaced settings are put back when this workflow is unpublished, unless neither the Admin Token nor the Webhook Secret opens them any more: then Support Board's webhooks are turned off.",
		displayOptions: { show: { setUpWebhook: [true] } },
	},
];

// Defaults are literals because n8n's editor and linter read them statically; they match
// TRIGGER_DEFAULTS.options in ../triggerSettings (test/unit/trigger/triggerSettings.test.ts checks).

/**
 * Which New Message events are the workflow's own: the same options, names and defaults in the webhook
 * trigger and the poll trigger, read by `readLoopOptions` and judged by `isOwnMessage` for both.
 */
export const ownMessageOptions: INodeProperties[] = [
	{
		displayName: 'Ignore Own Messages',
		name: 'ignoreOwnMessages',
		type: 'boolean',
		default: true,
		description:
			"Whether to ignore New Message events sent from the service's side: as agent, admin, operator, assistant or bot, or by a user other than the conversation's visitor (user_id differs from conversation_user_id). On by default because a workflow that answers a message by sending one (sent as agent) would otherwise hear its own answer and trigger itself in a loop.",
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
];

const optionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: sortedByName([
		...attachmentOptions,
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 60,
			description:
				'With Download Attachments: how long one file may take in all, from sending the request to its last byte',
		},
		{
			displayName: 'Deduplication Window (Minutes)',
			name: 'dedupeWindowMinutes',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 1440,
			description:
				"How long a delivery ID (Standard Webhooks ID header, event ID or envelope ID) is remembered, so that a sender's retry does not start the workflow twice. A delivery without an ID is never taken for a repeat, even when its body is identical to an earlier one. 0 turns this off.",
		},
		...ownMessageOptions,
		{
			displayName: 'Include Headers',
			name: 'includeHeaders',
			type: 'boolean',
			default: false,
			description:
				'Whether to add the request headers to each item. Headers carrying credentials are masked.',
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
	]),
};

/** The trigger's parameters, in the order the editor shows them. */
export const triggerProperties: INodeProperties[] = [
	setupNotice,
	eventsProperty,
	ownMessagesNotice,
	...verificationProperties,
	...selfSetupProperties,
	optionsProperty,
];
