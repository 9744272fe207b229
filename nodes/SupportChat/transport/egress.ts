import type { IHttpRequestOptions, NodeEgressFilter } from 'n8n-workflow';

import { bareName, isAddressLiteral, isForbiddenAddress } from './addresses';
import { isSsrfRefusal } from './errors';
import { FORBIDDEN_HINT, FileRefused } from './fileUrls';

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

type Lookup = (
	hostname: string,
	options: { all: true },
	done: (error: Error | null, addresses: Array<{ address: string }>) => void,
) => void;

export function networkOf(helpers: NetworkHelpers): Network {
	const send = async (options: IHttpRequestOptions) => await helpers.httpRequest(options);
	if (typeof helpers.getSecureEgressFilter !== 'function') return { send };
	// 'enforced': resolved through n8n's SSRF policy even while N8N_SSRF_PROTECTION_ENABLED is off.
	const lookup = helpers
		.getSecureEgressFilter('enforced')
		.createSecureLookup() as unknown as Lookup;
	const resolve = async (hostname: string) =>
		await new Promise<string[]>((resolved, failed) => {
			lookup(hostname, { all: true }, (error, addresses) => {
				if (error) failed(error);
				else resolved(addresses.map((entry) => entry.address));
			});
		});
	return { send, resolve };
}

/** A name that resolved to a forbidden address: said without the address. */
const forbiddenAnswer = (shown: string) =>
	new FileRefused(
		`The attachment ${shown} is on a host whose name resolves to a private or loopback address`,
		FORBIDDEN_HINT,
	);

/**
 * The request sent to the address the URL's name resolves to, once every address it resolves to was
 * judged; as it is when the host is an address already (judged by ./fileUrls) or n8n resolves nothing
 * for nodes (n8n 1.x).
 */
export async function pinnedRequest(
	network: Network,
	options: IHttpRequestOptions,
	shown: string,
): Promise<IHttpRequestOptions> {
	const url = new URL(options.url);
	if (network.resolve === undefined || isAddressLiteral(url.hostname)) return options;
	const addresses = await network.resolve(bareName(url.hostname)).catch((error: unknown) => {
		// n8n's own blocked ranges refuse in the lookup: the same refusal, without n8n's text, which names the address.
		throw isSsrfRefusal(error) ? forbiddenAnswer(shown) : error;
	});
	if (addresses.length === 0) throw new Error('The name resolves to no address');
	if (addresses.some(isForbiddenAddress)) throw forbiddenAnswer(shown);
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
