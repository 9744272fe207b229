/**
 * URLs as a message may quote them: one rule for every URL a message shows (another consumer's webhook
 * URL, an address in the product's or a channel's error). A secret travels in a URL's user and
 * password, its query (`?token=`) and its path (Slack's `/services/T…/B…/…`, Zapier's
 * `/hooks/catch/…/…`, Make's `/…`, n8n's own), so a quoted URL shows its scheme and host only, with
 * `/…` for whatever followed; an address that does not parse as one is not shown at all. Nothing is
 * asked of the URL's shape beyond that: no list of hosts, no guess at which segment is a secret.
 */

import { hasEscapes, unescaped } from './escapes';
import { REDACTED } from './secrets';
import { cut } from './text';

/** How long a URL quoted in a message may be. */
const SHOWN_URL_LENGTH = 120;

/** A scheme written before `//`; without one, curl (and so the product) reads the address as http. */
const HAS_SCHEME = /^[a-z][\d+.a-z-]*:\/\//i;

/** A URL, written with or without a scheme, as a message may show it (see above), cut to `max`. */
export function maskUrl(url: string, max = SHOWN_URL_LENGTH): string {
	const trimmed = url.trim();
	let parsed: URL;
	try {
		parsed = new URL(HAS_SCHEME.test(trimmed) ? trimmed : `http://${trimmed}`);
	} catch {
		return REDACTED;
	}
	if (parsed.host === '') return REDACTED;
	const origin = `${parsed.protocol}//${parsed.host}`;
	const bare = parsed.href === origin || parsed.href === `${origin}/`;
	return cut(bare ? origin : `${origin}/…`, max);
}

/** What ends a word of free text: no URL quoted in a message runs across one. */
const WORD_BREAKS = /([\s"'()<>]+)/;

/** A host name as written before a path (`hooks.slack.com`): labels joined by dots. */
const HOST_NAME = /^[\da-z-]+(?:\.[\da-z-]+)+$/i;

/** A port after a host (`:8443`); with one, a single label (`localhost:5678`) is a host too. */
const PORT = /:\d{1,5}$/;
const LABEL = /^[\da-z-]+$/i;

/** Whether text before a path or query (`hooks.slack.com`, `n8n.local:5678`) names a host. */
function isHost(text: string): boolean {
	if (!PORT.test(text)) return HOST_NAME.test(text);
	const host = text.replace(PORT, '');
	return HOST_NAME.test(host) || LABEL.test(host);
}

/** Where a host written without a scheme ends: at its path, query or fragment. */
function hostEnd(word: string): number {
	const ends = [word.indexOf('/'), word.indexOf('?'), word.indexOf('#')].filter((at) => at > 0);
	return ends.length === 0 ? -1 : Math.min(...ends);
}

const isSchemeCharacter = (character: string) => /^[\d+.a-z-]$/i.test(character);

/**
 * A word of free text with the URL in it masked: one with a scheme (what precedes the scheme is kept),
 * a user and password without one (`alice:pw@host`), or a host name followed by a path
 * (`hooks.slack.com/services/…`); any other word as it is.
 */
function maskedWord(word: string): string {
	const separator = word.indexOf('://');
	if (separator !== -1) {
		let start = separator;
		while (start > 0 && isSchemeCharacter(word[start - 1])) start--;
		return `${word.slice(0, start)}${maskUrl(word.slice(start), Number.MAX_SAFE_INTEGER)}`;
	}
	const slash = word.indexOf('/');
	const at = word.indexOf('@');
	// An `@` before the path is a user's (an e-mail address, with neither, is left as it is).
	const userinfo = at !== -1 && ((slash !== -1 && at < slash) || word.lastIndexOf(':', at) !== -1);
	const end = hostEnd(word);
	const hostPath = end > 0 && isHost(word.slice(0, end));
	return userinfo || hostPath ? maskUrl(word, Number.MAX_SAFE_INTEGER) : word;
}

/**
 * A word with its URL masked, also when the URL is escaped (`https:\/\/…` as PHP's json_encode writes
 * it, `https%3A%2F%2F…` in a query): such a word is shown unescaped, its URL masked.
 */
function maskedWordOrEscaped(word: string): string {
	const masked = maskedWord(word);
	if (masked !== word || !hasEscapes(word)) return masked;
	const plain = unescaped(word);
	const maskedPlain = maskedWord(plain);
	return maskedPlain === plain ? word : maskedPlain;
}

/** Text with every URL in it masked whole by `maskUrl` (message text is masked before it is cut). */
export function maskUrlsIn(text: string): string {
	if (!text.includes('/') && !text.includes('@') && !text.includes('?') && !hasEscapes(text))
		return text;
	return text
		.split(WORD_BREAKS)
		.map((part, index) => (index % 2 === 1 ? part : maskedWordOrEscaped(part)))
		.join('');
}
