import type { IHttpRequestOptions, NodeEgressFilter } from 'n8n-workflow';

import { addressKey, bareName, isAddressLiteral, isForbiddenAddress } from './addresses';
import { beforeDeadline } from '../transport/exchange';
import { isSsrfRefusal } from '../transport/errors';
import { FORBIDDEN_HINT, FileRefused, otherPortOfHome, serviceOf } from './urls';

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

/** A URL's host as an address: an IPv6 one without its brackets. */
const literalOf = (hostname: string) =>
	hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;

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
	if (isAddressLiteral(base.hostname)) homeAddresses = [literalOf(base.hostname)];
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
	if (literal) addresses = [literalOf(url.hostname)];
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
