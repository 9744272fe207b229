import { rewrite } from './json';
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
 * one stays empty: it hides nothing); the value itself when nothing needed masking.
 */
export function maskSecretFields<T>(value: T, maxDepth = 256): T {
	const field = (key: string, entry: unknown) =>
		isSecretField(key) && entry !== '' && entry !== null && entry !== undefined
			? REDACTED
			: undefined;
	return rewrite(value, { field }, maxDepth) as T;
}
