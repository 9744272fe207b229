import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { credentialSecrets } from '../shared/secrets';
import { readLoopOptions } from '../shared/loopOptions';
import type { TriggerSettings, VerificationScheme } from './settings';
import { TRIGGER_DEFAULTS, VERIFICATION_SCHEMES } from './settings';

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
	const verification: VerificationScheme = (VERIFICATION_SCHEMES as readonly string[]).includes(
		verificationValue,
	)
		? (verificationValue as VerificationScheme)
		: defaults.verification;
	const options = context.getNodeParameter('options', {}) as IDataObject;
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
