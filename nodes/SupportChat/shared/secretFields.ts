import { isRecord, rewrite } from './json';
import { PASSWORD_SETTINGS, SECRET_EXTERNAL_SETTINGS } from './passwordSettings';
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

const fold = (key: string) => key.toLowerCase().replaceAll('-', '_');

/** The product's password settings (./passwordSettings), compared as secret fields are. */
const PASSWORD_SETTING_IDS: ReadonlySet<string> = new Set(PASSWORD_SETTINGS.map(fold));

const isPasswordSetting = (key: string) => PASSWORD_SETTING_IDS.has(fold(key));

function isSecretField(key: string): boolean {
	return SECRET_FIELDS.has(fold(key)) || isPasswordSetting(key);
}

/**
 * The fields of a channel's conversation (by its `source`) where the product keeps that channel's own
 * token, which no credential holds and which has no shape to be known by (LINE's is plain base64):
 * apps/telegram/post.php creates a conversation with the bot token as `extra_3`, apps/line/post.php
 * with the channel access token as `extra_2` (its functions.php reads `extra_2`, then `extra_3`).
 */
const CHANNEL_TOKEN_FIELDS: ReadonlyMap<string, readonly string[]> = new Map([
	['tg', ['extra_3']],
	['ln', ['extra_2', 'extra_3']],
]);

/** Whether `key` of this record is where its channel's token is kept. */
function isChannelTokenField(record: Readonly<Record<string, unknown>>, key: string): boolean {
	const source = Object.hasOwn(record, 'source') ? record.source : undefined;
	return typeof source === 'string' && CHANNEL_TOKEN_FIELDS.get(source)?.includes(key) === true;
}

/** Whether a list is a setting as an `[id, value]` pair whose id is a password setting's. */
function isPasswordPair(list: readonly unknown[]): boolean {
	return list.length === 2 && typeof list[0] === 'string' && isPasswordSetting(list[0]);
}

/** Whether a value hides nothing: masking it would only say that it is empty. */
const isBlank = (value: unknown) => value === '' || value === null || value === undefined;

/**
 * A password setting's value masked in the shape it came in, so that the row keeps its form: the
 * product's `[value, type]`, `{type, value}` (either of which may hold the other), or the bare value.
 */
function maskedSetting(value: unknown, depth = 0): unknown {
	if (isBlank(value) || depth > 2) return isBlank(value) ? value : REDACTED;
	if (Array.isArray(value))
		return value.length === 0 ? value : [maskedSetting(value[0], depth + 1), ...value.slice(1)];
	if (isRecord(value) && Object.hasOwn(value, 'value'))
		return { ...value, value: maskedSetting(value.value, depth + 1) };
	return REDACTED;
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
		if (isPasswordPair(value)) return true;
		for (const entry of value) if (holdsSecretField(entry, maxDepth - 1)) return true;
		return false;
	}
	for (const key in value) {
		if (isSecretKey(key) || isChannelTokenField(value as Record<string, unknown>, key)) return true;
		const entry = (value as Record<string, unknown>)[key];
		if (typeof entry === 'object' && entry !== null && holdsSecretField(entry, maxDepth - 1))
			return true;
	}
	return false;
}

/**
 * A copy of a JSON-like value with the value of every secret field replaced by `[redacted]` (an empty
 * one stays empty: it hides nothing), a password setting's in its own shape, as a field or as an
 * `[id, value]` pair; the value itself when nothing needed masking.
 */
export function maskSecretFields<T>(value: T, maxDepth = 256): T {
	const field = (key: string, entry: unknown, record: Readonly<Record<string, unknown>>) => {
		if (isPasswordSetting(key)) return maskedSetting(entry);
		const secret = isSecretField(key) || isChannelTokenField(record, key);
		return secret && !isBlank(entry) ? REDACTED : undefined;
	};
	const list = (entry: readonly unknown[]) =>
		isPasswordPair(entry) ? [entry[0], maskedSetting(entry[1])] : undefined;
	return rewrite(value, { field, list }, maxDepth) as T;
}

/**
 * The Web API functions that answer one setting's value by the id an argument names (api.php:
 * `get-setting` → sb_get_setting, `get-multi-setting` → sb_get_multi_setting, `get-external-setting`
 * → sb_get_external_setting), with the ids that name a secret there. The answer carries no key, so a
 * secret's value would pass the masks by name: the argument is the only name it has.
 */
const SETTING_READERS: ReadonlyMap<string, [readonly string[], (id: string) => boolean]> = new Map([
	['get-setting', [['setting'], (id: string) => isPasswordSetting(id)]],
	['get-multi-setting', [['id', 'sub_id'], (id: string) => isPasswordSetting(id)]],
	['get-external-setting', [['setting'], (id: string) => SECRET_EXTERNAL_SETTINGS.includes(id)]],
]);

/** The answer of Web API function `name`, masked whole when its arguments name a password setting. */
export function maskReadSetting(
	name: string,
	args: Readonly<Record<string, unknown>>,
	answer: unknown,
): unknown {
	const reader = SETTING_READERS.get(name);
	if (reader === undefined) return answer;
	const [names, isSecret] = reader;
	const named = names.some((arg) => typeof args[arg] === 'string' && isSecret(args[arg]));
	return named ? maskedSetting(answer) : answer;
}
