import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { IGNORE_OWN_MESSAGES_DEFAULT, readLoopOptions } from '../shared/ownMessages';
import type { HmacAlgorithm, HmacEncoding } from './verify';
import { DEFAULT_TOLERANCE_SECONDS } from './verify';
import { credentialSecrets } from '../shared/secrets';
import { nodeCollection } from '../shared/parameters';

/**
 * What the trigger's settings are: their shape as `handleDelivery` takes them, the verification
 * schemes offered, every parameter's default, and `readSettings`, which fills them from the node's
 * parameters; readDelivery (delivery.ts) verifies with them.
 */

/** The verification schemes the trigger offers; delivery.ts says which check each one makes. */
export const VERIFICATION_SCHEMES = [
	'none',
	'standardWebhooks',
	'token',
	'hmac',
	'bodyField',
] as const;
export type VerificationScheme = (typeof VERIFICATION_SCHEMES)[number];

/**
 * The trigger's settings as `handleDelivery` takes them: every field set, each default applied once
 * (readSettings, from TRIGGER_DEFAULTS), so nothing downstream falls back again.
 */
export interface TriggerSettings {
	/** Selected event values; `*` selects every event. */
	events: string[];
	verification: VerificationScheme;
	/** The `webhookSecret` of the credentials; empty when none is set. */
	secret: string;
	/**
	 * Every secret the credentials hold (the Webhook Secret, the Admin or API Token), masked by value
	 * in every item and answer whatever the verification: a sender may echo any of them.
	 */
	credentialSecrets?: readonly string[];
	/** Standard Webhooks: allowed clock difference, in seconds. */
	timestampTolerance: number;
	/** Shared token: where the sender puts it. */
	tokenLocation: 'query' | 'header';
	queryParameterName: string;
	headerName: string;
	/** HMAC of the raw body. */
	hmacHeader: string;
	/** As the parameter gives it: an expression may give one verifyHmac refuses (not in HMAC_ALGORITHMS). */
	hmacAlgorithm: string;
	hmacEncoding: HmacEncoding;
	hmacPrefix: string;
	/** Secret field in the body: its name or dot path. */
	keyField: string;
	/** What to do with a delivery whose event is not recognised. */
	unknownEvents: 'ignore' | 'passOn';
	/** How long a delivery id is remembered to suppress repeats, in minutes; 0 turns it off. */
	dedupeWindowMinutes: number;
	/** Leave out New Message deliveries sent as agent, admin or bot. */
	ignoreOwnMessages: boolean;
	/** Leave out New Message deliveries sent by these user ids. */
	ignoredSenderIds: string[];
	/** Add the request headers (credentials masked) to each item. */
	includeHeaders: boolean;
}

/**
 * The trigger's parameter defaults, in one place. The description repeats them as literals because
 * n8n's editor and linter read defaults statically; test/unit/trigger/triggerSettings.test.ts checks that the
 * two agree. `readSettings` (below) falls back to these when a parameter is missing or unusable.
 */
export const TRIGGER_DEFAULTS = {
	verification: 'none' satisfies VerificationScheme,
	timestampTolerance: DEFAULT_TOLERANCE_SECONDS,
	tokenLocation: 'query' satisfies 'query' | 'header',
	queryParameterName: 'token',
	headerName: 'X-Webhook-Token',
	hmacHeader: 'X-Signature',
	hmacAlgorithm: 'sha256' satisfies HmacAlgorithm,
	hmacEncoding: 'hex' satisfies HmacEncoding,
	hmacPrefix: '',
	keyField: 'key',
	options: {
		dedupeWindowMinutes: 1440,
		ignoreOwnMessages: IGNORE_OWN_MESSAGES_DEFAULT,
		ignoredSenderIds: '',
		includeHeaders: false,
		unknownEvents: 'ignore' satisfies TriggerSettings['unknownEvents'],
	},
} as const;

/**
 * The defaults of Set Up Webhook in Support Board and Replace Another URL, read by selfSetup.ts when the
 * workflow is published, never by a delivery (test/unit/trigger/triggerSettings.test.ts checks them too).
 */
export const SELF_SETUP_DEFAULTS = {
	setUpWebhook: false,
	replaceOtherUrl: false,
} as const;

type StringParameter = {
	[K in keyof typeof TRIGGER_DEFAULTS]: (typeof TRIGGER_DEFAULTS)[K] extends string ? K : never;
}[keyof typeof TRIGGER_DEFAULTS];

function stringParameter(context: IWebhookFunctions, name: StringParameter): string {
	const fallback = TRIGGER_DEFAULTS[name];
	const value = context.getNodeParameter(name, fallback);
	return typeof value === 'string' ? value : fallback;
}

type NameParameter =
	| 'queryParameterName'
	| 'headerName'
	| 'hmacHeader'
	| 'hmacAlgorithm'
	| 'keyField';

/** A name the trigger looks a secret up by (header, query parameter, field) or an algorithm: left empty, the default. */
function nameParameter(context: IWebhookFunctions, name: NameParameter): string {
	return stringParameter(context, name) || TRIGGER_DEFAULTS[name];
}

/**
 * The webhook secret of the credentials, empty when there are none (handleDelivery then refuses), and
 * every secret they hold, to be masked.
 */
async function readSecrets(context: IWebhookFunctions): Promise<{ secret: string; all: string[] }> {
	try {
		const credentials = await context.getCredentials<IDataObject>('supportChatApi');
		const secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
		return { secret, all: credentialSecrets(credentials) };
	} catch {
		// No credentials selected: deliveries are answered 401 "Webhook secret not configured".
		return { secret: '', all: [] };
	}
}

/** The node's parameters as the pure `handleDelivery` takes them, every missing one at its default. */
export async function readSettings(context: IWebhookFunctions): Promise<TriggerSettings> {
	const defaults = TRIGGER_DEFAULTS;
	const eventsValue = context.getNodeParameter('events', []);
	const events = Array.isArray(eventsValue) ? eventsValue.map(String) : [];
	const verificationValue = stringParameter(context, 'verification');
	const verification: VerificationScheme =
		VERIFICATION_SCHEMES.find((scheme) => scheme === verificationValue) ?? defaults.verification;
	const options = nodeCollection(context, 'options');
	const tolerance = Number(
		context.getNodeParameter('timestampTolerance', defaults.timestampTolerance),
	);
	const window =
		options.dedupeWindowMinutes === undefined
			? defaults.options.dedupeWindowMinutes
			: Number(options.dedupeWindowMinutes);

	const loop = readLoopOptions(options);
	const secrets = await readSecrets(context);
	return {
		events,
		verification,
		secret: verification === 'none' ? '' : secrets.secret,
		credentialSecrets: secrets.all,
		timestampTolerance:
			Number.isFinite(tolerance) && tolerance > 0 ? tolerance : defaults.timestampTolerance,
		tokenLocation: stringParameter(context, 'tokenLocation') === 'header' ? 'header' : 'query',
		queryParameterName: nameParameter(context, 'queryParameterName'),
		headerName: nameParameter(context, 'headerName'),
		hmacHeader: nameParameter(context, 'hmacHeader'),
		hmacAlgorithm: nameParameter(context, 'hmacAlgorithm'),
		hmacEncoding: stringParameter(context, 'hmacEncoding') === 'base64' ? 'base64' : 'hex',
		hmacPrefix: stringParameter(context, 'hmacPrefix'),
		keyField: nameParameter(context, 'keyField'),
		unknownEvents: options.unknownEvents === 'passOn' ? 'passOn' : 'ignore',
		dedupeWindowMinutes: Number.isFinite(window) && window > 0 ? window : 0,
		ignoreOwnMessages: loop.ignoreOwnTypes,
		ignoredSenderIds: loop.ignoredSenderIds,
		includeHeaders: options.includeHeaders === true,
	};
}
