/**
 * Masking secrets wherever a service or a sender echoed them: in error messages, in output items, in
 * answers to a delivery. One rule for the whole package, in two parts.
 *
 * By value (`SecretMask`): the credentials' secrets (the API token, the webhook secret), in their raw
 * form and in the encodings a service may echo them in: URL-encoded (`%2B`, or `+` for a space as in
 * form bodies) and base64 or base64url, at each of the three byte alignments a copy can have inside a
 * longer base64 text (`Bearer <token>` encoded whole, say); and spelt through escapes of any encoder, in
 * any mix (./escapes: `%3a`, PHP's `%21`, `%253A`, `\/`). The channels' own tokens, which no credential
 * holds, are masked by their shape (`CHANNEL_TOKENS`).
 *
 * By field name (`maskSecretFields`): a person's secrets, whose value no one knows in advance (a
 * visitor's password, a login token, the product's password settings).
 */

import { hasEscapes, latin1Bytes, maskEscaped } from './escapes';
import { isRecord, rewrite } from './json';
import { PASSWORD_SETTINGS, SECRET_EXTERNAL_SETTINGS } from './passwordSettings';
import { cut } from './text';

export const REDACTED = '[redacted]';

/** `[redacted]` as a URL encoder writes it: the mark is shown as itself, never as a riddle. */
const ENCODED_REDACTED = /%5Bredacted%5D/gi;

/**
 * The channels' own tokens, which the product holds (a Telegram conversation keeps its bot's token in
 * `extra_3`, and its webhooks carry it) and the credentials do not: masking by value cannot catch them,
 * so they are masked by shape, raw or percent-encoded (`%3A`, `%3D`, once or twice). Meta's access
 * tokens (`EAA…`, Graph quotes a malformed one in its error); the Bot API's bot token (`<bot id>:AA…`,
 * in the URL of every Telegram call: its secret part begins with `AA`, which keeps a message such as
 * `Order 1234567:…` out of it); and the value of any `access_token=`.
 */
const CHANNEL_TOKENS: ReadonlyArray<[RegExp, string]> = [
	[/(?:(?<![\dA-Za-z])|(?<=%[\dA-Fa-f]{2}))EAA[\dA-Za-z]{20,}/g, REDACTED],
	// A bot id begins after a non-digit or a percent escape (`%20`, whose `0` is no part of it).
	[/(?:(?<!\d)|(?<=%[\dA-Fa-f]{2}))\d{6,12}(?::|%(?:25)?3[Aa])AA[\w-]{28,}/g, REDACTED],
	// A value already `[redacted]` is left: the mask finds nothing in its own output.
	[/(access_token(?:=|%(?:25)?3D))(?:[^\s"%&'[]|%(?!(?:25)?26)[\dA-F]{2})+/gi, `$1${REDACTED}`],
];

/**
 * Whether a text may hold a channel token, by `includes` alone: the test run on every string of an
 * answer, and on a whole page's text before its strings are walked.
 */
function mayHoldChannelToken(text: string): boolean {
	return text.includes('AA') || text.includes('ccess_') || text.includes('CCESS_');
}

function holdsChannelToken(text: string): boolean {
	return (
		mayHoldChannelToken(text) &&
		CHANNEL_TOKENS.some(([shape]) => {
			shape.lastIndex = 0;
			return shape.test(text);
		})
	);
}

/** The text with every channel token masked, and `[redacted]` written as itself. */
function withoutChannelTokens(text: string): string {
	let masked = text;
	if (mayHoldChannelToken(masked))
		for (const [shape, by] of CHANNEL_TOKENS) masked = masked.replace(shape, by);
	return masked.includes('%') ? masked.replace(ENCODED_REDACTED, REDACTED) : masked;
}

/**
 * Secrets shorter than this are masked only where a whole value equals them: inside longer text a
 * short string matches too often by chance to be told apart from the secret.
 */
const MIN_MASKED_LENGTH = 6;

/** A base64 run shorter than this is too likely to occur by chance to be masked as a copy of a secret. */
const MIN_BASE64_CORE = 8;

function base64Cores(secret: string): string[] {
	const bytes = Buffer.from(secret, 'utf8');
	const cores: string[] = [];
	for (let offset = 0; offset < 3; offset++) {
		const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
		// Only the 4-character groups made of the secret's bytes alone are the same wherever it stands.
		const start = offset === 0 ? 0 : 4;
		const end = Math.floor((offset + bytes.length) / 3) * 4;
		const core = encoded.slice(start, end);
		if (core.length >= MIN_BASE64_CORE) {
			cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
		}
	}
	return cores;
}

/** The forms of a secret to look for, longest first so that a longer copy is masked whole. */
function secretVariants(secret: string): string[] {
	if (secret.length < MIN_MASKED_LENGTH) return [];
	const encoded = encodeURIComponent(secret);
	const variants = new Set([secret, encoded, encoded.replace(/%20/g, '+'), ...base64Cores(secret)]);
	return [...variants].sort((a, b) => b.length - a.length);
}

/**
 * Masks one or more secrets. Built once per client or delivery (the variants are computed here), then
 * used on every text and value that may reach a user.
 */
export class SecretMask {
	private readonly exact: ReadonlySet<string>;

	private readonly variants: readonly string[];

	/** Secrets too short to have variants: only a whole value equal to one is masked. */
	private readonly short: readonly string[];

	/** The secrets with variants, as their bytes: looked for again once a text's escapes are undone. */
	private readonly spelt: readonly string[];

	constructor(secrets: ReadonlyArray<string | undefined>) {
		const present = secrets.filter(
			(secret): secret is string => typeof secret === 'string' && secret !== '',
		);
		this.exact = new Set(present);
		this.short = [...this.exact].filter((secret) => secretVariants(secret).length === 0);
		this.spelt = [...this.exact].filter((secret) => !this.short.includes(secret)).map(latin1Bytes);
		this.variants = [...new Set(present.flatMap(secretVariants))].sort(
			(a, b) => b.length - a.length,
		);
	}

	/** Whether the text holds a secret in any of its forms, a channel token, or `[redacted]` encoded. */
	found(text: string): boolean {
		return (
			this.exact.has(text) ||
			this.variants.some((variant) => text.includes(variant)) ||
			holdsChannelToken(text) ||
			(text.includes('%') && /%5Bredacted%5D/i.test(text)) ||
			this.escaped(text)
		);
	}

	/**
	 * Whether a secret is spelt through escapes (`%3a`, PHP's `%21`, `%253A`, `\u0041`, `\/`, `&#58;`),
	 * in any mix: the variants are the forms of one encoder each, and a service may use another.
	 */
	private escaped(text: string): boolean {
		return (
			this.spelt.length > 0 && hasEscapes(text) && maskEscaped(text, this.spelt, REDACTED) !== text
		);
	}

	/**
	 * Whether JSON parsed from this raw text can hold a secret: some form of one occurs in the text, or
	 * the text has escapes (`\\u0041`, `\\/`), through which a decoded string can differ from the raw
	 * bytes, or what a channel token or an encoded mark needs (`AA`, `access_`, `%`). When it cannot, the
	 * parsed value needs no walk: a page is searched whole, not string by string.
	 */
	mayBeInJson(raw: string): boolean {
		if (hasEscapes(raw) || mayHoldChannelToken(raw)) return true;
		// A secret with variants is one of them: each form is looked for once in a page's text.
		for (const secret of this.short) if (raw.includes(secret)) return true;
		for (const variant of this.variants) if (raw.includes(variant)) return true;
		return false;
	}

	/**
	 * The text masked, then cut to `max` characters for people to read: the one order that is safe, since
	 * a cut through a secret would leave a part that no mask recognises.
	 */
	quote(text: string, max: number): string {
		return cut(this.text(text), max);
	}

	/** The text with every form of every secret, and every channel token, replaced by `[redacted]`. */
	text(text: string): string {
		if (this.exact.has(text)) return REDACTED;
		let result = text;
		for (const variant of this.variants) {
			if (result.includes(variant)) result = result.split(variant).join(REDACTED);
		}
		if (this.spelt.length > 0 && hasEscapes(result))
			result = maskEscaped(result, this.spelt, REDACTED);
		return withoutChannelTokens(result);
	}

	/**
	 * A copy of a JSON-like value with secrets masked in every string, keys included (see `rewrite`); the
	 * value itself when nothing needed masking.
	 */
	value<T>(value: T, maxDepth = 256): T {
		// `text` gives back an equal string when there is nothing to mask: asking `found` first would
		// undo a text's escapes twice whenever it holds a secret.
		const mask = (text: string) => this.text(text);
		return rewrite(value, { text: mask, key: mask }, maxDepth) as T;
	}
}

/** The fields of the credentials that hold a secret: each is masked by value wherever the token is. */
const CREDENTIAL_SECRETS = ['apiToken', 'webhookSecret'] as const;

/** Every secret the credentials hold, as they hold it (an empty one is left out by SecretMask). */
export function credentialSecrets(credentials: Readonly<Record<string, unknown>>): string[] {
	return CREDENTIAL_SECRETS.map((field) =>
		typeof credentials[field] === 'string' ? credentials[field] : '',
	);
}

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

const NO_FIELDS: readonly string[] = [];

/** The fields of this record where its channel's token is kept: none for most records. */
function channelTokenFields(record: Readonly<Record<string, unknown>>): readonly string[] {
	const source = Object.hasOwn(record, 'source') ? record.source : undefined;
	return (typeof source === 'string' && CHANNEL_TOKEN_FIELDS.get(source)) || NO_FIELDS;
}

/** Whether `key` of this record is where its channel's token is kept. */
const isChannelTokenField = (record: Readonly<Record<string, unknown>>, key: string): boolean =>
	channelTokenFields(record).includes(key);

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
	// The record's source is read once, not for each of its keys: this walk runs on every page.
	const tokenFields = channelTokenFields(value as Record<string, unknown>);
	for (const key in value) {
		if (isSecretKey(key) || tokenFields.includes(key)) return true;
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
