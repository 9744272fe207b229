import type { PlainObject } from '../shared/json';
import { getObjectPath, isRecord } from '../shared/json';
import { REDACTED, SecretMask } from '../shared/secrets';
import type { TriggerSettings } from './triggerSettings';
import type { HeaderMap } from './deliveryHeaders';

/** What of a delivery is masked by value or by place: the webhook secret, its body field, credential headers. */

/** Headers that carry credentials of some kind; masked when headers are included in the output. */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key'];

/**
 * The forms of the webhook secret to mask: as configured, trimmed, and a Standard Webhooks secret's
 * base64 part on its own (a sender may echo the key without its `whsec_` prefix); and every other
 * secret the credentials hold, as they hold it.
 */
export function secretMask(secret: unknown, others: readonly string[] = []): SecretMask {
	const raw = typeof secret === 'string' ? secret : '';
	const trimmed = raw.trim();
	const key = trimmed.startsWith('whsec_') ? trimmed.slice('whsec_'.length) : undefined;
	return new SecretMask([raw, trimmed, key, ...others, ...others.map((other) => other.trim())]);
}

/** Masks the body field that carried the secret, whatever its type. */
export function maskField(entry: PlainObject, field: string): void {
	const path = field.trim();
	if (Object.hasOwn(entry, path)) {
		entry[path] = REDACTED;
		return;
	}
	const keys = path.split('.');
	const node = getObjectPath(entry, keys.slice(0, -1).join('.'));
	const last = keys[keys.length - 1];
	if (isRecord(node) && Object.hasOwn(node, last)) node[last] = REDACTED;
}

/** The headers for an item: credential headers, and any header holding the secret in any form, masked whole. */
export function maskHeaders(
	headers: HeaderMap,
	settings: TriggerSettings,
	mask: SecretMask,
): PlainObject {
	const secretHeaders = new Set(SECRET_HEADERS);
	if (settings.verification === 'token' && settings.tokenLocation === 'header') {
		secretHeaders.add(settings.headerName.toLowerCase());
	}
	const masked: PlainObject = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		const texts = Array.isArray(value) ? value : [value];
		const leaks = texts.some((text) => mask.found(text));
		// defineProperty: a header named `__proto__` stays a plain field of the item.
		Object.defineProperty(masked, name, {
			value: secretHeaders.has(name) || leaks ? REDACTED : value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return masked;
}
