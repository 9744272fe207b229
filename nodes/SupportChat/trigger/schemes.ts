import type { PlainObject } from '../shared/json';
import { isRecord } from '../shared/json';
import type { TriggerSettings } from './settings';
import type { HeaderMap } from './util';
import type { VerifyResult } from './verify';
import {
	verifyBodyField,
	verifyHeaderToken,
	verifyHmac,
	verifyQueryToken,
	verifyStandardWebhooks,
} from './verify';

/**
 * Which check of ./verify.ts each verification scheme (settings.ts) makes with the node's settings.
 * Two steps, because a secret field can only be read once the body is parsed, and
 * every other scheme must pass before the body is read at all.
 */

/** What a check before parsing reads: the raw bytes, the headers and the query string. */
interface UnparsedDelivery {
	rawBody: Buffer;
	headers: HeaderMap;
	query: unknown;
}

/** Checks the schemes that read only headers, query and raw bytes; `checkBodyFields` runs after parsing. */
export function checkBeforeParsing(
	delivery: UnparsedDelivery,
	settings: TriggerSettings,
	now: number,
): VerifyResult {
	const { rawBody, headers } = delivery;
	const { secret } = settings;
	switch (settings.verification) {
		case 'standardWebhooks':
			return verifyStandardWebhooks(rawBody, headers, secret, now, settings.timestampTolerance);
		case 'token':
			return settings.tokenLocation === 'header'
				? verifyHeaderToken(headers, settings.headerName, secret)
				: verifyQueryToken(
						isRecord(delivery.query) ? delivery.query : {},
						settings.queryParameterName,
						secret,
					);
		case 'hmac':
			return verifyHmac(rawBody, headers, secret, {
				header: settings.hmacHeader,
				algorithm: settings.hmacAlgorithm,
				encoding: settings.hmacEncoding,
				prefix: settings.hmacPrefix,
			});
		default:
			return { ok: true };
	}
}

/** The secret field scheme: every event of a batch must carry the secret, or none starts. */
export function checkBodyFields(entries: PlainObject[], settings: TriggerSettings): VerifyResult {
	if (settings.verification !== 'bodyField') return { ok: true };
	for (const entry of entries) {
		const result = verifyBodyField(entry, settings.keyField, settings.secret);
		if (!result.ok) return result;
	}
	return { ok: true };
}
