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

/** Verdicts of `isSecretField` by key, at most this many kept: the keys come from the service. */
const MAX_KEY_VERDICTS = 2_000;

const keyVerdicts = new Map<string, boolean>();

/** `isSecretField`, remembered: the records of a list share their keys, so most keys are looked up, not folded. */
function isSecretKey(key: string): boolean {
	let verdict = keyVerdicts.get(key);
	if (verdict === undefined) {
		verdict = isSecretField(key);
		if (keyVerdicts.size < MAX_KEY_VERDICTS) keyVerdicts.set(key, verdict);
	}
	return verdict;
}

/**
 * Whether a value JSON.parse gave has a secret field at any depth down to `maxDepth`: the masking walk,
 * which copies, is skipped for one that has none. Keys are read as parsed, so one written with escapes
 * (`"p\u0061ssword"`) is seen for what it is; an inherited key can only make the answer true, which
 * costs the walk, never a field left unmasked.
 */
export function holdsSecretField(value: unknown, maxDepth = 256): boolean {
	if (maxDepth <= 0 || typeof value !== 'object' || value === null) return false;
	if (Array.isArray(value)) {
		for (const entry of value) if (holdsSecretField(entry, maxDepth - 1)) return true;
		return false;
	}
	for (const key in value) {
		if (isSecretKey(key)) return true;
		const entry = (value as Record<string, unknown>)[key];
		if (typeof entry === 'object' && entry !== null && holdsSecretField(entry, maxDepth - 1))
			return true;
	}
	return false;
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
