import { cut } from '../shared/text';
import {
	addressKey,
	bareName,
	unbracketed,
	isAddressLiteral,
	isForbiddenHost,
	isForbiddenAddress,
} from './addresses';
import type { IHttpRequestOptions, NodeEgressFilter } from 'n8n-workflow';
import { beforeDeadline } from '../transport/exchange';
import { isSsrfRefusal } from '../transport/errors';

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
function serviceOf(url: URL): string {
	const port = url.port || (url.protocol === 'https:' ? '443' : '80');
	return port === '80' || port === '443' ? 'web' : port;
}

/**
 * Another port of the Base URL's machine: another of its services (a container API, n8n itself),
 * which a firewall may keep from the internet but not from the machine; never a file host. Judged
 * here as written, and at connection as resolved (below).
 */
const otherPortOfHome = (shown: string) =>
	new FileRefused(
		`The attachment ${shown} is on another port of the Base URL's host`,
		"Files are downloaded from the Base URL's host only at its own origin (scheme, host and port): its other ports are other services of the same machine.",
	);

/** Whether two hosts as written are one: the same name, or the same address however spelt. */
function sameHostAsWritten(a: string, b: string): boolean {
	if (bareName(a) === bareName(b)) return true;
	const key = (host: string) => addressKey(unbracketed(host));
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

const FORBIDDEN_HINT =
	"Files from another origin than the Base URL's are never downloaded from a loopback, private, link-local, shared or reserved address.";

/**
 * How a download from another origin reaches its server. n8n 2.x offers nodes its egress filter, whose
 * secure lookup resolves a name through n8n (its DNS cache, its own blocked ranges): every address a
 * name resolves to is then judged by ./addresses, and the request is sent to the address judged, with
 * the name in the Host header and, over https, as the TLS server name, so that certificates are still
 * verified against the name. Node code may not resolve names itself; n8n 1.x has no such filter, and
 * there a name is judged only as written (only N8N_SSRF_PROTECTION_ENABLED closes the rest).
 */

/** The request helper without credentials, and n8n's name lookup where n8n offers one. */
export interface Network {
	send(options: IHttpRequestOptions): Promise<unknown>;
	resolve?(hostname: string): Promise<string[]>;
}

/** The helpers of every context that runs the node: the action's, the webhook's, the poll's. */
export interface NetworkHelpers {
	httpRequest(options: IHttpRequestOptions): Promise<unknown>;
	/** n8n 2.x only. */
	getSecureEgressFilter?(policy?: 'safe' | 'enforced' | 'unsafe'): NodeEgressFilter;
}

export function networkOf(helpers: NetworkHelpers): Network {
	const send = async (options: IHttpRequestOptions) => await helpers.httpRequest(options);
	if (typeof helpers.getSecureEgressFilter !== 'function') return { send };
	// 'enforced': resolved through n8n's SSRF policy even while N8N_SSRF_PROTECTION_ENABLED is off.
	const lookup = helpers.getSecureEgressFilter('enforced').createSecureLookup();
	const resolve = async (hostname: string) =>
		await new Promise<string[]>((resolved, failed) => {
			lookup(hostname, { all: true }, (error, addresses) => {
				if (error) failed(error);
				// With `all`, Node's lookup answers a list; a single address is the answer without it.
				else
					resolved(
						Array.isArray(addresses) ? addresses.map((entry) => entry.address) : [addresses],
					);
			});
		});
	return { send, resolve };
}

/**
 * Every failure of a download from another origin, a name that resolves to a forbidden address among
 * them: one text, so that no message tells whoever chose the URL what a name resolves to inside the
 * network (a name only the network's own DNS knows), whether a name exists, or whether a port is open.
 */
export const unreachable = (shown: string) =>
	new FileRefused(
		`The attachment ${shown} could not be downloaded: no answer from its server`,
		`Check that its server is reachable from n8n (and allowed by n8n's SSRF protection, if it is on). ${FORBIDDEN_HINT} A host name that resolves to one reads the same, so that no message tells what a name resolves to.`,
	);

/** Every address a name resolves to, each judged; within the request's deadline. */
async function judgedAddresses(
	resolve: (hostname: string) => Promise<string[]>,
	hostname: string,
	deadline: number,
	shown: string,
): Promise<string[]> {
	const addresses = await beforeDeadline(resolve(bareName(hostname)), deadline).catch(
		(error: unknown) => {
			// n8n's own blocked ranges refuse in the lookup: the same text, without n8n's, which names the address.
			throw isSsrfRefusal(error) ? unreachable(shown) : error;
		},
	);
	if (addresses.length === 0) throw new Error('The name resolves to no address');
	if (addresses.some(isForbiddenAddress)) throw unreachable(shown);
	return addresses;
}

/**
 * Refuses a URL on another port of the Base URL's machine (./urls judges it as written): here by
 * any name or address that reaches one of the machine's addresses, where n8n resolves names.
 */
async function refuseHomeMachine(
	network: Network,
	url: URL,
	addresses: string[],
	home: string,
	deadline: number,
	shown: string,
): Promise<void> {
	const base = new URL(home);
	if (serviceOf(base) === serviceOf(url) || addresses.length === 0) return;
	let homeAddresses: string[] = [];
	if (isAddressLiteral(base.hostname)) homeAddresses = [unbracketed(base.hostname)];
	else if (network.resolve)
		homeAddresses = await beforeDeadline(network.resolve(bareName(base.hostname)), deadline).catch(
			() => [],
		);
	const keys = new Set(homeAddresses.map(addressKey));
	if (addresses.some((address) => keys.has(addressKey(address)))) throw otherPortOfHome(shown);
}

/**
 * The request sent to the address the URL's name resolves to, once every address it resolves to was
 * judged; as it is when the host is an address already (judged by ./urls) or n8n resolves nothing
 * for nodes (n8n 1.x). Never to another port of the Base URL's machine (`home`). The lookups count
 * against the request's timeout: a file host answers for its own name, and may answer slowly.
 */
export async function pinnedRequest(
	network: Network,
	options: IHttpRequestOptions,
	shown: string,
	home?: string,
): Promise<IHttpRequestOptions> {
	const url = new URL(options.url);
	const deadline = Date.now() + (options.timeout ?? Number.POSITIVE_INFINITY);
	const literal = isAddressLiteral(url.hostname);
	let addresses: string[] = [];
	if (literal) addresses = [unbracketed(url.hostname)];
	else if (network.resolve)
		addresses = await judgedAddresses(network.resolve, url.hostname, deadline, shown);
	if (home !== undefined) await refuseHomeMachine(network, url, addresses, home, deadline, shown);
	if (literal || addresses.length === 0) return options;
	const target = new URL(url);
	const [address] = addresses;
	target.hostname = address.includes(':') ? `[${address}]` : address;
	return {
		...options,
		url: target.toString(),
		headers: { ...options.headers, host: url.host },
		...(url.protocol === 'https:' ? { agentOptions: { servername: bareName(url.hostname) } } : {}),
	};
}
