import { IGNORE_OWN_MESSAGES_DEFAULT } from '../shared/loopOptions';
import type { HmacAlgorithm, HmacEncoding } from './verify';
import { DEFAULT_TOLERANCE_SECONDS } from './verify';

/**
 * What the trigger's settings are: their shape as `handleDelivery` takes them, the verification
 * schemes offered, and every parameter's default. readSettings.ts fills them from the node's
 * parameters; schemes.ts verifies with them. Nothing here reads n8n or a delivery.
 */

/** The verification schemes the trigger offers; schemes.ts says which check each one makes. */
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
 * n8n's editor and linter read defaults statically; test/unit/trigger/readSettings.test.ts checks that the
 * two agree. `readSettings` (readSettings.ts) falls back to these when a parameter is missing or unusable.
 */
export const TRIGGER_DEFAULTS = {
	verification: 'none' as VerificationScheme,
	timestampTolerance: DEFAULT_TOLERANCE_SECONDS,
	tokenLocation: 'query' as 'query' | 'header',
	queryParameterName: 'token',
	headerName: 'X-Webhook-Token',
	hmacHeader: 'X-Signature',
	hmacAlgorithm: 'sha256' satisfies HmacAlgorithm,
	hmacEncoding: 'hex' as HmacEncoding,
	hmacPrefix: '',
	keyField: 'key',
	options: {
		dedupeWindowMinutes: 1440,
		ignoreOwnMessages: IGNORE_OWN_MESSAGES_DEFAULT,
		ignoredSenderIds: '',
		includeHeaders: false,
		unknownEvents: 'ignore' as TriggerSettings['unknownEvents'],
	},
} as const;

/**
 * The defaults of Set Up Webhook in Support Board and Replace Another URL, read by selfSetup.ts when the
 * workflow is published, never by a delivery (test/unit/trigger/readSettings.test.ts checks them too).
 */
export const SELF_SETUP_DEFAULTS = {
	setUpWebhook: false,
	replaceOtherUrl: false,
} as const;
