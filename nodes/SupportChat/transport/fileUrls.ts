import { cut } from '../shared/text';

/**
 * Which attachment URLs are fetched, and with the credentials or without. An attachment's URL is
 * untrusted (a visitor may write any URL into a message): the credentials go to the Base URL's own
 * origin only, and another host is reached only over https, never at a private address.
 */

/**
 * An attachment URL longer than this is refused, fetched or sent: no file server needs one, messages
 * quote it, and a reply hands it on to its channel.
 */
export const MAX_FILE_URL_LENGTH = 2048;

/** A download that cannot be done: what is wrong, and in `description` what to change. */
export class FileRefused extends Error {
	constructor(
		message: string,
		readonly description: string,
		readonly status?: number,
	) {
		super(message);
	}
}

const LOOPBACK_NAMES = new Set(['localhost', '[::1]', '[::]']);

/**
 * Whether a host is a loopback, private, link-local or unspecified address written as such (IPv4 as
 * the URL parser writes any form of it, IPv6 in brackets). A name that resolves to one is n8n's SSRF
 * protection's to refuse (N8N_SSRF_PROTECTION_ENABLED): resolving names is not a node's to do.
 */
function isPrivateAddress(hostname: string): boolean {
	const host = hostname.toLowerCase();
	if (LOOPBACK_NAMES.has(host) || host.endsWith('.localhost')) return true;
	const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
	if (v4) {
		const [a, b] = [Number(v4[1]), Number(v4[2])];
		return (
			a === 0 ||
			a === 10 ||
			a === 127 ||
			(a === 100 && b >= 64 && b <= 127) ||
			(a === 169 && b === 254) ||
			(a === 172 && b >= 16 && b <= 31) ||
			(a === 192 && b === 168)
		);
	}
	if (!host.startsWith('[')) return false;
	const v6 = host.slice(1, -1);
	// An IPv4-mapped address is whatever IPv4 address it maps: all of them are refused, to be sure.
	if (v6.startsWith('::ffff:')) return true;
	return /^(?:f[cd]|fe[89ab])/.test(v6) || v6 === '::1' || v6 === '::';
}

export type FileUrlVerdict = { ok: true; url: string; withCredentials: boolean } | FileRefused;

/**
 * Whether an attachment URL may be fetched, and with the credentials or without: http(s) only, https
 * unless it is the Base URL's origin, a loopback address, or Allow Plain HTTP is on; on another origin
 * only with `otherHosts`, never with the credentials, and never at a private address other than the
 * Base URL's own host.
 */
export function checkFileUrl(
	raw: string,
	relativeTo: string | undefined,
	source: { baseUrl: string; allowHttp: boolean } | undefined,
	otherHosts: boolean,
): FileUrlVerdict {
	const typed = raw.trim();
	const refuse = (why: string, description: string) =>
		new FileRefused(`The attachment ${why}`, description);
	if (typed.length > MAX_FILE_URL_LENGTH)
		return refuse(`URL is longer than ${MAX_FILE_URL_LENGTH} characters`, 'It is not downloaded.');
	let url: URL;
	try {
		url = new URL(typed, relativeTo ?? source?.baseUrl);
	} catch {
		return refuse(`URL "${cut(typed, 100)}" is not a URL`, 'It is not downloaded.');
	}
	const shown = `${url.origin}${url.pathname}`;
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return refuse(`${cut(shown, 200)} is not http(s)`, 'Only http:// and https:// are fetched.');
	if (url.username !== '' || url.password !== '')
		return refuse(`URL carries a user name or password`, 'It is not downloaded.');
	const base = source ? new URL(source.baseUrl) : undefined;
	const sameOrigin = base !== undefined && url.origin === base.origin;
	if (url.protocol === 'http:' && !sameOrigin && !source?.allowHttp && !isLoopback(url.hostname))
		return refuse(
			`${cut(shown, 200)} is on plain http://`,
			'Turn on Allow Plain HTTP in the Support Chat API credentials to download files over plain http:// inside a trusted network.',
		);
	if (!sameOrigin && !otherHosts)
		return refuse(
			`${cut(shown, 200)} is on another host than the Base URL`,
			'Turn on Options → Download From Other Hosts to download it (without the API token).',
		);
	if (!sameOrigin && isPrivateAddress(url.hostname) && url.hostname !== base?.hostname)
		return refuse(
			`${cut(shown, 200)} is at a private or loopback address`,
			"Files are downloaded from such an address only on the Base URL's own host.",
		);
	return { ok: true, url: url.toString(), withCredentials: sameOrigin };
}

function isLoopback(hostname: string): boolean {
	return LOOPBACK_NAMES.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
