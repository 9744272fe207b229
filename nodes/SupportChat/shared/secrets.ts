/**
 * Masking secrets (the API token, the webhook secret) wherever a service or a sender echoed them: in
 * error messages, in output items, in answers to a delivery. One rule for the whole package.
 *
 * A secret is masked in its raw form and in the encodings a service may echo it in: URL-encoded
 * (`%2B`, or `+` for a space as in form bodies) and base64 or base64url, at each of the three byte
 * alignments a copy can have inside a longer base64 text (`Bearer <token>` encoded whole, say); and
 * spelt through escapes of any encoder, in any mix (./escapes: `%3a`, PHP's `%21`, `%253A`, `\/`).
 * The channels' own tokens, which no credential holds, are masked by their shape (`CHANNEL_TOKENS`).
 */

import { hasEscapes, latin1Bytes, maskEscaped } from './escapes';
import { rewrite } from './json';
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
		const mask = (text: string) => (this.found(text) ? this.text(text) : text);
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
