import { cut } from '../shared/text';
import { addressKey, bareName, isAddressLiteral, isForbiddenHost } from './addresses';

/**
 * Which attachment URLs are fetched, and with the credentials or without. An attachment's URL is
 * untrusted (a visitor may write any URL into a message): the credentials go to the Base URL's own
 * origin only, and there only to the product's files, never to its API; another origin is reached
 * only over https, never at a private or loopback address (./addresses).
 */

/**
 * An attachment URL longer than this is refused, fetched or sent: no file server needs one, messages
 * quote it, and a reply hands it on to its channel.
 */
export const MAX_FILE_URL_LENGTH = 2048;

/** How much of an address a message quotes, once masked. */
const SHOWN_LENGTH = 200;

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

/** Where the service's own files are, as the checks need it. */
export interface FileOrigin {
	/** The address the API is called at (the wire's endpoint): its origin is the only exempt one. */
	baseUrl: string;
	allowHttp: boolean;
	/** Masks the credentials' secrets in whatever a message quotes. */
	mask?(text: string): string;
}

/** An address as messages quote it: without its query, masked, then cut (a cut through a secret would hide it from the mask). */
export function shownUrl(url: URL, source: FileOrigin | undefined): string {
	const text = `${url.origin}${url.pathname}`;
	return cut(source?.mask ? source.mask(text) : text, SHOWN_LENGTH);
}

/**
 * A path's segments as a web server reads them: percent-decoded once, case and backslashes folded,
 * path parameters (`;…`, which servlet containers drop) cut off, `.` and `..` resolved, empty segments
 * and Windows' trailing dots and spaces dropped. Comparing these leaves no spelling of the API's
 * folder unnoticed.
 */
function segmentsOf(path: string): string[] {
	let text = path;
	try {
		text = decodeURIComponent(path);
	} catch {
		// A malformed escape is read as written, as servers refuse or keep it.
	}
	const out: string[] = [];
	for (const raw of text.toLowerCase().split(/[/\\]/)) {
		const parameters = raw.indexOf(';');
		const bare = parameters === -1 ? raw : raw.slice(0, parameters);
		let end = bare.length;
		while (end > 0 && (bare[end - 1] === '.' || bare[end - 1] === ' ')) end--;
		const segment = bare === '..' ? bare : bare.slice(0, end);
		if (segment === '..') out.pop();
		else if (segment !== '') out.push(segment);
	}
	return out;
}

/**
 * Whether a URL on the Base URL's origin is in the folder that holds the API's endpoint: REST's
 * `…/script/include/api` and Support Board's `…/include/api.php` both live in the product's
 * `include/` folder, beside ajax.php and upload.php. Nothing there is a file a message attaches, and
 * a request there with the credentials would be an API call made for the visitor who wrote the URL.
 */
function isApiLocation(url: URL, baseUrl: string): boolean {
	const folder = segmentsOf(new URL(baseUrl).pathname).slice(0, -1);
	const path = segmentsOf(url.pathname);
	return path.length >= folder.length && folder.every((segment, i) => path[i] === segment);
}

/**
 * The service a URL reaches on its host: its port, where the web's own two (80 and 443, the scheme's
 * when none is written) are one, the same site over http and https.
 */
export function serviceOf(url: URL): string {
	const port = url.port || (url.protocol === 'https:' ? '443' : '80');
	return port === '80' || port === '443' ? 'web' : port;
}

/**
 * Another port of the Base URL's machine: another of its services (a container API, n8n itself),
 * which a firewall may keep from the internet but not from the machine; never a file host. Judged
 * here as written, and by ./egress as resolved.
 */
export const otherPortOfHome = (shown: string) =>
	new FileRefused(
		`The attachment ${shown} is on another port of the Base URL's host`,
		"Files are downloaded from the Base URL's host only at its own origin (scheme, host and port): its other ports are other services of the same machine.",
	);

/** Whether two hosts as written are one: the same name, or the same address however spelt. */
function sameHostAsWritten(a: string, b: string): boolean {
	if (bareName(a) === bareName(b)) return true;
	const key = (host: string) => addressKey(host.startsWith('[') ? host.slice(1, -1) : host);
	return isAddressLiteral(a) && isAddressLiteral(b) && key(a) === key(b);
}

/** Whether a URL as written is on another port of the Base URL's host (a forbidden host aside: it says so itself). */
function onOtherPortOfHome(url: URL, baseUrl: string): boolean {
	const base = new URL(baseUrl);
	return (
		serviceOf(base) !== serviceOf(url) &&
		!isForbiddenHost(url.hostname) &&
		sameHostAsWritten(url.hostname, base.hostname)
	);
}

export type FileUrlVerdict = { ok: true; url: string; withCredentials: boolean } | FileRefused;

/**
 * Whether an attachment URL may be fetched, and with the credentials or without: http(s) only, with
 * no user name. On the Base URL's origin (scheme, host and port), with the credentials, outside the
 * API's folder. Elsewhere only with `otherHosts`, never with the credentials, never at a forbidden
 * host as written (what a name resolves to is judged by ./download), and over https unless Allow
 * Plain HTTP is on.
 */
export function checkFileUrl(
	raw: string,
	relativeTo: string | undefined,
	source: FileOrigin | undefined,
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
		const mask = source?.mask ?? ((text: string) => text);
		return refuse(`URL "${cut(mask(typed), 100)}" is not a URL`, 'It is not downloaded.');
	}
	const shown = shownUrl(url, source);
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return refuse(`${shown} is not http(s)`, 'Only http:// and https:// are fetched.');
	if (url.username !== '' || url.password !== '')
		return refuse(`URL carries a user name or password`, 'It is not downloaded.');
	if (source && url.origin === new URL(source.baseUrl).origin) {
		if (isApiLocation(url, source.baseUrl))
			return refuse(
				`${shown} is in the folder of the service's API`,
				'Files are downloaded from the Base URL only outside its API; nothing there is downloaded with the credentials.',
			);
		return { ok: true, url: url.toString(), withCredentials: true };
	}
	if (source && onOtherPortOfHome(url, source.baseUrl)) return otherPortOfHome(shown);
	if (!otherHosts)
		return refuse(
			`${shown} is on another host than the Base URL`,
			'Turn on Options → Download From Other Hosts to download it (without the API token).',
		);
	if (isForbiddenHost(url.hostname))
		return refuse(`${shown} is at a private or loopback address`, FORBIDDEN_HINT);
	if (url.protocol === 'http:' && !source?.allowHttp)
		return refuse(
			`${shown} is on plain http://`,
			'Turn on Allow Plain HTTP in the Support Chat API credentials to download files over plain http:// inside a trusted network.',
		);
	return { ok: true, url: url.toString(), withCredentials: false };
}

export const FORBIDDEN_HINT =
	"Files from another origin than the Base URL's are never downloaded from a loopback, private, link-local, shared or reserved address.";
