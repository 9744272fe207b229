import type { ICredentialDataDecryptedObject, IHttpRequestMethods } from 'n8n-workflow';

import { AnswerDeadlineError, readAnswer } from './answer';
import type { ClientContext, Exchange, RequestSpec } from './exchange';
import { METHODS_THAT_READ, discard, send } from './exchange';

/**
 * The redirect policy: n8n's helper is told never to follow a redirect, since it would carry the token to
 * wherever a Location points (and re-send a POST answered 307). A read follows one here, only on the
 * Base URL's own origin, at most MAX_REDIRECTS times and never in a circle; anything else is refused with
 * what the service pointed at and what to change.
 */

/** Same-origin redirects of a read are followed, at most this many in a row. */
const MAX_REDIRECTS = 5;
/** A redirect to an address longer than this is refused: no API needs one, and the message quotes it. */
const MAX_LOCATION_LENGTH = 2048;

const MOVED =
	'If the service has moved (to https://, to another host name, or to another path), set the Base URL in the Support Chat API credentials to its new address.';

interface Refused {
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
function redirectTarget({ method, location, from, baseUrl, visited }: Redirect): string | Refused {
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

interface Hop {
	ctx: ClientContext;
	credentials: ICredentialDataDecryptedObject;
	spec: RequestSpec;
	url: string;
	baseUrl: string;
	/** One deadline for the whole answer, redirects included: each hop does not start the clock again. */
	timeoutMs: number;
	maxResponseBytes: number;
}

/**
 * Sends one request and reads its answer whole, following redirects by the policy above; a redirect it
 * refuses comes back with its status, for the client to explain.
 */
export async function exchangeFollowingRedirects(
	hop: Hop,
): Promise<Exchange | { status: number; refused: Refused }> {
	const { spec, url, baseUrl } = hop;
	const visited = new Set<string>([url]);
	let current = url;
	const deadline = Date.now() + hop.timeoutMs;
	for (;;) {
		const left = deadline - Date.now();
		if (left <= 0) throw new AnswerDeadlineError('redirects took the whole Timeout');
		const raw = await send(hop.ctx, hop.credentials, spec, current, {
			first: current === url,
			timeoutMs: left,
		});
		const { headers, status } = raw;
		if (status < 300 || status >= 400) {
			return {
				status,
				headers,
				bytes: await readAnswer(raw.body, hop.maxResponseBytes, deadline),
				url: current,
			};
		}
		discard(raw.body);
		const next = redirectTarget({
			method: spec.method,
			location: headers.location,
			from: current,
			baseUrl,
			visited,
		});
		if (typeof next !== 'string') return { status, refused: next };
		current = next;
	}
}
