import type { IHttpRequestMethods } from 'n8n-workflow';

import { METHODS_THAT_READ } from './types';

/**
 * The redirect policy: n8n's helper is told never to follow a redirect, since it would carry the token to
 * wherever a Location points (and re-send a POST answered 307). A read follows one here, only on the
 * Base URL's own origin, at most MAX_REDIRECTS times and never in a circle; anything else is refused with
 * what the service pointed at and what to change. The exchange (./exchange) asks it at every redirect.
 */

/** Same-origin redirects of a read are followed, at most this many in a row. */
const MAX_REDIRECTS = 5;
/** A redirect to an address longer than this is refused: no API needs one, and the message quotes it. */
const MAX_LOCATION_LENGTH = 2048;

const MOVED =
	'If the service has moved (to https://, to another host name, or to another path), set the Base URL in the Support Chat API credentials to its new address.';

export interface Refused {
	/** How the redirect is refused, after "The service answered <request> with a redirect (<status>) ". */
	refused: string;
	description: string;
}

interface Redirect {
	method: IHttpRequestMethods;
	location: string | undefined;
	/** The address that answered with the redirect, which a relative Location is read against. */
	from: string;
	baseUrl: string;
	/** The addresses already asked in this chain; the one followed is added. */
	visited: Set<string>;
}

/** Where to go next, or why not. */
export function redirectTarget({
	method,
	location,
	from,
	baseUrl,
	visited,
}: Redirect): string | Refused {
	const refuse = (refused: string, description = MOVED): Refused => ({ refused, description });
	const typed = location?.trim() ?? '';
	if (typed === '') return refuse('that says nowhere to go');
	// Refused whole rather than cut: a cut address is not where the service pointed, and a token across
	// the cut would escape the mask in the message.
	if (typed.length > MAX_LOCATION_LENGTH)
		return refuse(`to an address longer than ${MAX_LOCATION_LENGTH} characters`);
	let target: URL;
	try {
		target = new URL(typed, from);
	} catch {
		return refuse('to an address that is not a URL');
	}
	const shown = `${target.origin}${target.pathname}`;
	if (target.origin !== new URL(baseUrl).origin) {
		return refuse(
			`to ${shown}, another address than the Base URL's; the node does not follow it, since the API token would go with it`,
		);
	}
	if (!METHODS_THAT_READ.has(method)) {
		return refuse(
			`to ${shown}; the node does not send a ${method} again, so that nothing is done twice`,
			'If the service has moved, set the Base URL in the Support Chat API credentials to its new address. The service may or may not have done it: check before running again.',
		);
	}
	const next = target.toString();
	if (visited.has(next)) return refuse('that lead in a circle; stopped following them');
	if (visited.size > MAX_REDIRECTS)
		return refuse(`after more than ${MAX_REDIRECTS} redirects; stopped following them`);
	visited.add(next);
	return next;
}
