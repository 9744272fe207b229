import type { INodeProperties } from 'n8n-workflow';

// Defaults are literals because n8n's editor and linter read them statically; they match
// TRIGGER_DEFAULTS in ../triggerSettings (test/unit/trigger/triggerSettings.test.ts checks).

/** The verification scheme and the settings each scheme shows. */
export const verificationProperties: INodeProperties[] = [
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
