import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { AnswerDeadlineError, discard, flattenHeaders, readAnswer } from './answer';
import type { ClientSettings } from './limits';
import type { Refused } from './redirects';
import { redirectTarget } from './redirects';
import type { ClientContext, RequestSpec } from './types';
import { CREDENTIALS_TYPE } from './types';

/**
 * One HTTP exchange, as the client has every request sent: through n8n's helper, redirects followed by
 * the policy of ./redirects, and the answer read whole under the client's bounds (./answer). A redirect
 * the policy refuses is a value the exchange hands back; what it throws is what n8n's helper or the
 * reading threw, for the client to explain (./failures).
 */

/** What every exchange of one client shares. */
export interface Connection {
	ctx: ClientContext;
	credentials: ICredentialDataDecryptedObject;
	/** The Base URL as the API's wire turned it: a redirect is followed only on its origin. */
	baseUrl: string;
	/** Timeout, one deadline for the whole answer, redirects included; Max Response Size. */
	settings: Pick<ClientSettings, 'timeoutMs' | 'maxResponseBytes'>;
}

/** What one exchange came to: an answer read whole, or a redirect refused, with its status. */
export type Exchanged =
	| { status: number; headers: Record<string, string>; bytes: Buffer; url: string }
	| { status: number; refused: Refused };

interface FullResponse {
	body: unknown;
	headers: Record<string, unknown>;
	statusCode: number;
}

/**
 * One request through n8n's helper: the body as a stream (read under the client's own bounds), every
 * status handed back, redirects never followed by the helper (it would carry the token wherever a
 * Location points), and the credentials read once by connect(): without them n8n decrypts them again
 * for every request, which is most of a page's cost on a long list.
 */
async function send(
	{ ctx, credentials }: Connection,
	spec: RequestSpec,
	url: string,
	{ first, timeoutMs }: { first: boolean; timeoutMs: number },
) {
	const raw = (await ctx.helpers.httpRequestWithAuthentication.call(
		ctx,
		CREDENTIALS_TYPE,
		{
			method: spec.method,
			url,
			// A redirect's Location is a whole URL: the query is not sent again.
			qs: first ? spec.qs : undefined,
			body: spec.upload?.bytes ?? spec.body,
			json: spec.upload === undefined,
			headers: spec.upload === undefined ? undefined : { 'content-type': spec.upload.contentType },
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
			timeout: timeoutMs,
		},
		{ credentialsDecrypted: { id: '', name: '', type: CREDENTIALS_TYPE, data: credentials } },
	)) as FullResponse;
	return { status: raw.statusCode, headers: flattenHeaders(raw.headers), body: raw.body };
}

/** Sends `spec` to `url` and reads its answer whole, following redirects by the policy of ./redirects. */
export async function exchange(
	connection: Connection,
	spec: RequestSpec,
	url: string,
): Promise<Exchanged> {
	const visited = new Set<string>([url]);
	let current = url;
	const deadline = Date.now() + connection.settings.timeoutMs;
	for (;;) {
		const left = deadline - Date.now();
		if (left <= 0) throw new AnswerDeadlineError('redirects took the whole Timeout');
		const raw = await send(connection, spec, current, { first: current === url, timeoutMs: left });
		const { headers, status } = raw;
		if (status < 300 || status >= 400) {
			return {
				status,
				headers,
				bytes: await readAnswer(raw.body, connection.settings.maxResponseBytes, deadline),
				url: current,
			};
		}
		discard(raw.body);
		const next = redirectTarget({
			method: spec.method,
			location: headers.location,
			from: current,
			baseUrl: connection.baseUrl,
			visited,
		});
		if (typeof next !== 'string') return { status, refused: next };
		current = next;
	}
}
