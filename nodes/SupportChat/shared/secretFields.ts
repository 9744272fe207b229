import { REDACTED } from './secrets';

/**
 * Fields that hold a person's secret whatever their value: a visitor's password (Support Board's
 * `registration` delivery carries it in plain text), its hash (`get-user` answers it), a login or
 * session token (every Support Board user record carries one, and an agent's is an admin token).
 * Masked by name, in answers and deliveries alike, because no value can be known in advance.
 * Compared lower-cased, with `-` read as `_`.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
	'password',
	'password_hash',
	// Support Board's registration form sends the password twice: `password` and `password-check`.
	'password_check',
	'passwordcheck',
	// Its one-time code, when the registration form asks for one.
	'otp',
	'passwordhash',
	'pass',
	'token',
	'login_token',
	'logintoken',
	'login_cookie',
	'access_token',
	'accesstoken',
	'refresh_token',
	'refreshtoken',
	'session_token',
	'api_key',
	'apikey',
	'secret',
	'client_secret',
]);

function isSecretField(key: string): boolean {
	return SECRET_FIELDS.has(key.toLowerCase().replaceAll('-', '_'));
}

/** A word every name in SECRET_FIELDS contains; a case-insensitive test that copies nothing. */
const SECRET_WORDS = /pass|token|login|key|secret|otp/i;

/** Whether raw JSON text may hold a secret field: the walk is skipped for an answer that names none. */
export function mayHoldSecretFields(raw: string): boolean {
	return SECRET_WORDS.test(raw);
}

/**
 * A copy of a JSON-like value with the value of every secret field replaced by `[redacted]` (an empty
 * one stays empty: it hides nothing); the value itself when nothing needed masking. Depth is bounded
 * as in SecretMask.value.
 */
export function maskSecretFields<T>(value: T, maxDepth = 256): T {
	return walk(value, maxDepth) as T;
}

function walk(value: unknown, depth: number): unknown {
	if (depth <= 0 || typeof value !== 'object' || value === null) return value;
	if (Array.isArray(value)) {
		let copy: unknown[] | undefined;
		value.forEach((entry, index) => {
			const masked = walk(entry, depth - 1);
			if (masked !== entry) {
				copy ??= [...value];
				copy[index] = masked;
			}
		});
		return copy ?? value;
	}
	if (Buffer.isBuffer(value) || value instanceof Date) return value;
	let copy: Record<string, unknown> | undefined;
	for (const [key, entry] of Object.entries(value)) {
		const hidden = isSecretField(key) && entry !== '' && entry !== null && entry !== undefined;
		const masked = hidden ? REDACTED : walk(entry, depth - 1);
		if (masked !== entry) {
			copy ??= Object.fromEntries(Object.entries(value));
			// defineProperty: a key such as "__proto__" from parsed JSON stays a plain field.
			Object.defineProperty(copy, key, { value: masked, enumerable: true, writable: true, configurable: true });
		}
	}
	return copy ?? value;
}
