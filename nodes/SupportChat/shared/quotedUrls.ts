/**
 * URLs as a message may quote them: one rule for every URL the nodes did not choose (another consumer's
 * webhook URL, an address in the product's or a channel's error). A URL carries its credentials in
 * three places, each masked without asking a parser, since one that fails (no scheme, a space) must
 * not show the URL raw: the user and password before the host's `@` (with or without a scheme, as curl
 * reads `alice:pw@host/in`), every query value, and the path segments that are not plain words (the
 * secrets of Slack's `/services/T…/B…/…`, Zapier's `/hooks/catch/…/…`, Make's `/…`, n8n's own). The
 * fragment is dropped. Masked whole, then cut.
 */

import { REDACTED } from './secrets';
import { cut } from './text';

/** How long a URL quoted in a message may be. */
export const SHOWN_URL_LENGTH = 120;

/**
 * A path segment shown as it is: a lower-case word of at most 16 characters (`services`, `webhook`,
 * `api.php`), which no service's secret is; a segment with a digit, a capital or more length is masked.
 */
const PLAIN_SEGMENT = /^[a-z][.a-z_~-]{0,15}$/;

/** A scheme as RFC 3986 spells it. */
const SCHEME = /^[a-z][\d+.a-z-]*$/i;

const shownSegment = (segment: string) =>
	segment.length <= 3 || PLAIN_SEGMENT.test(segment) ? segment : REDACTED;

/** `name=value&…` with every value masked; a part without a name is masked whole. */
function maskedQuery(query: string): string {
	return query
		.split('&')
		.map((part) => {
			const equals = part.indexOf('=');
			if (equals === -1) return part === '' ? part : REDACTED;
			return `${cut(part.slice(0, equals), 40)}=${REDACTED}`;
		})
		.join('&');
}

/** `user:password@host:port` with what precedes the last `@`, and a port that is no number, masked. */
function maskedAuthority(authority: string): string {
	const at = authority.lastIndexOf('@');
	const host = at === -1 ? authority : authority.slice(at + 1);
	const colon = host.lastIndexOf(':');
	const port = colon > host.lastIndexOf(']') ? host.slice(colon + 1) : '';
	const shownHost = /^\d*$/.test(port) ? host : `${host.slice(0, colon + 1)}${REDACTED}`;
	return at === -1 ? shownHost : `${REDACTED}@${shownHost}`;
}

/** A URL, written with or without a scheme, masked whole (see the file's comment), then cut to `max`. */
export function maskUrl(url: string, max = SHOWN_URL_LENGTH): string {
	const hash = url.indexOf('#');
	let rest = hash === -1 ? url : url.slice(0, hash);
	const question = rest.indexOf('?');
	const query = question === -1 ? undefined : maskedQuery(rest.slice(question + 1));
	if (question !== -1) rest = rest.slice(0, question);
	const schemeEnd = rest.indexOf('://');
	const scheme =
		schemeEnd !== -1 && SCHEME.test(rest.slice(0, schemeEnd)) ? rest.slice(0, schemeEnd + 3) : '';
	rest = rest.slice(scheme.length);
	// A backslash ends the host as a slash does: WHATWG URLs read it so for http and https.
	const slashes = [rest.indexOf('/'), rest.indexOf('\\')].filter((at) => at !== -1);
	const pathStart = slashes.length > 0 ? Math.min(...slashes) : rest.length;
	const path = rest
		.slice(pathStart)
		.split(/([/\\])/)
		.map((part) => (part === '/' || part === '\\' ? part : shownSegment(part)))
		.join('');
	const shown = `${scheme}${maskedAuthority(rest.slice(0, pathStart))}${path}`;
	return cut(query === undefined ? shown : `${shown}?${query}`, max);
}

/** What ends a word of free text: no URL quoted in a message runs across one. */
const WORD_BREAKS = /([\s"'()<>]+)/;

/** A host name as written before a path (`hooks.slack.com`): labels joined by dots. */
const HOST_NAME = /^[\da-z-]+(?:\.[\da-z-]+)+$/i;

const isSchemeCharacter = (character: string) => SCHEME.test(`a${character}`);

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
	const userinfo = at !== -1 && (slash === -1 || at < slash) && word.lastIndexOf(':', at) !== -1;
	const hostPath = slash > 0 && HOST_NAME.test(word.slice(0, slash));
	return userinfo || hostPath ? maskUrl(word, Number.MAX_SAFE_INTEGER) : word;
}

/** Text with every URL in it masked whole by `maskUrl` (message text is masked before it is cut). */
export function maskUrlsIn(text: string): string {
	if (!text.includes('/') && !text.includes('@')) return text;
	return text
		.split(WORD_BREAKS)
		.map((part, index) => (index % 2 === 1 ? part : maskedWord(part)))
		.join('');
}
