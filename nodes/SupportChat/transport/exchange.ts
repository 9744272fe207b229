import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import type { ClientSettings } from './limits';
import type { Refused } from './redirects';
import { redirectTarget } from './redirects';
import type { ClientContext, RequestSpec } from './types';
import { CREDENTIALS_TYPE } from './types';

/**
 * Reading an answer of the service: its headers, its bytes, bounded in size and time, and what they are
 * (or letting go of a body the node does not read). Every answer is untrusted: it may trickle, inflate
 * (a gzip bomb), or be a proxy's HTML page labelled as anything.
 */

export class AnswerTooLargeError extends Error {}

/** The part of a Node stream the reader uses (n8n's helper hands the body over as a stream). */
interface BodyStream {
	on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
	on(event: 'end', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
	off(event: string, listener: (...args: never[]) => void): unknown;
	destroy(): unknown;
}

export class AnswerDeadlineError extends Error {}

interface Waiting {
	deadline: number;
	expire: () => void;
}

/**
 * One timer for every answer being read, armed for the earliest deadline and armed again, when it
 * fires, for the earliest one left. A list reads its pages one after another, each with a deadline
 * later than the last: a page read in time only adds and removes an entry, where a timer of its own
 * cost more than reading a small page and stayed pending for the whole Timeout after it. An
 * AbortSignal's timer does not keep the process alive and needs no global timer functions.
 */
class DeadlineWatch {
	private readonly waiting = new Set<Waiting>();

	private signal: AbortSignal | undefined;

	private armedFor = Number.POSITIVE_INFINITY;

	/** Calls `expire` once `deadline` (milliseconds since the epoch) has passed; the returned function cancels it. */
	watch(deadline: number, expire: () => void): () => void {
		const entry: Waiting = { deadline, expire };
		this.waiting.add(entry);
		if (deadline < this.armedFor) this.arm(deadline);
		return () => this.waiting.delete(entry);
	}

	private arm(deadline: number): void {
		this.signal?.removeEventListener('abort', this.fired);
		this.armedFor = deadline;
		this.signal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
		this.signal.addEventListener('abort', this.fired, { once: true });
	}

	private readonly fired = (): void => {
		this.signal = undefined;
		this.armedFor = Number.POSITIVE_INFINITY;
		const now = Date.now();
		let next = Number.POSITIVE_INFINITY;
		for (const entry of [...this.waiting]) {
			if (entry.deadline <= now) {
				this.waiting.delete(entry);
				entry.expire();
			} else next = Math.min(next, entry.deadline);
		}
		if (next !== Number.POSITIVE_INFINITY) this.arm(next);
	};
}

const deadlines = new DeadlineWatch();

/**
 * `work`'s result, or an AnswerDeadlineError once `deadline` has passed, whichever comes first: for a
 * wait no timeout of n8n's covers (its name lookup has none), so that the deadline holds whatever is
 * waited for. What `work` waited for ends on its own, its result unread.
 */
export async function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
	let cancel = (): unknown => undefined;
	const expired = new Promise<never>((_resolve, reject) => {
		cancel = deadlines.watch(deadline, () => reject(new AnswerDeadlineError('deadline')));
	});
	try {
		return await Promise.race([work, expired]);
	} finally {
		cancel();
	}
}

/**
 * Reads a body to its end, holding at most `maxBytes` (counted after decompression, which n8n's request
 * helper applies while streaming) and stopping at the `deadline` (milliseconds since the epoch): the
 * request's own Timeout covers only the wait for the headers, and a service sending one byte at a time
 * would otherwise keep the node waiting forever.
 */
export async function readAnswer(
	body: unknown,
	maxBytes: number,
	deadline: number,
): Promise<Buffer> {
	if (body === undefined || body === null) return Buffer.alloc(0);
	if (Buffer.isBuffer(body)) return body;
	if (typeof body === 'string') return Buffer.from(body, 'utf8');
	const stream = body as BodyStream;
	if (typeof stream.on !== 'function') return Buffer.from(JSON.stringify(body) ?? '', 'utf8');

	// Written so that a deadline that is not a number counts as passed: the watch never fires for one.
	if (!(deadline > Date.now())) {
		stream.destroy();
		throw new AnswerDeadlineError('deadline');
	}
	return await new Promise<Buffer>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const finish = (error?: Error) => {
			cancel();
			stream.off('data', onData);
			stream.off('end', onEnd);
			stream.off('error', onError);
			if (error) {
				stream.destroy();
				reject(error);
			} else {
				// Most pages arrive in one chunk: it is the body as it is, with no copy.
				resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
			}
		};
		const onData = (chunk: Buffer | string) => {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			size += bytes.length;
			if (size > maxBytes) finish(new AnswerTooLargeError(`more than ${maxBytes} bytes`));
			else chunks.push(bytes);
		};
		const onEnd = () => finish();
		const onError = (error: Error) => finish(error);
		const cancel = deadlines.watch(deadline, () => finish(new AnswerDeadlineError('deadline')));
		stream.on('data', onData);
		stream.on('end', onEnd);
		stream.on('error', onError);
	});
}

/** An answer's headers by lower-case name, each one text (values a header repeats joined by commas). */
export function flattenHeaders(
	headers: Record<string, unknown> | undefined,
): Record<string, string> {
	const flat: Record<string, string> = {};
	if (!headers) return flat;
	const source =
		typeof (headers as { toJSON?: () => Record<string, unknown> }).toJSON === 'function'
			? (headers as { toJSON: () => Record<string, unknown> }).toJSON()
			: headers;
	for (const [key, value] of Object.entries(source)) {
		if (value === undefined || value === null) continue;
		flat[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return flat;
}

/** Lets go of a body the node will not read (a redirect's), so its connection is not held open. */
export function discard(body: unknown): void {
	const stream = body as { destroy?: () => void } | null | undefined;
	if (stream && typeof stream.destroy === 'function') stream.destroy();
}

/** What an answer's bytes are; the one place that decides it. */
export type Answer =
	| { kind: 'empty' }
	| { kind: 'json'; value: unknown; text: string }
	| { kind: 'html'; text: string }
	| { kind: 'malformed'; text: string }
	| { kind: 'text'; text: string };

/**
 * Classifies an answer:
 * - nothing but white space: empty;
 * - an HTML page (text starting with `<`, or labelled HTML and not a JSON object or list: Support Board,
 *   like much PHP, labels its JSON text/html): html, whatever status it came with;
 * - JSON: json; text that claims JSON (a JSON content type, or starting with `{`, `[` or `"`) but does
 *   not parse: malformed, whatever its content type says;
 * - anything else: text.
 */
export function classifyAnswer(bytes: Buffer, contentType: string | undefined): Answer {
	const text = bytes
		.toString('utf8')
		.replace(/^\uFEFF/, '')
		.trim();
	if (text === '') return { kind: 'empty' };
	if (text.startsWith('<')) return { kind: 'html', text };
	const mime = (contentType ?? '').toLowerCase();
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		if (mime.includes('html')) return { kind: 'html', text };
		const claimsJson =
			mime.includes('json') || text.startsWith('{') || text.startsWith('[') || text.startsWith('"');
		return claimsJson ? { kind: 'malformed', text } : { kind: 'text', text };
	}
	// A bare value labelled HTML is a page's text; an object or a list is an API's answer.
	if (mime.includes('html') && (typeof value !== 'object' || value === null))
		return { kind: 'html', text };
	return { kind: 'json', value, text };
}

/**
 * One HTTP exchange, as the client has every request sent: through n8n's helper, redirects followed by
 * the policy of ./redirects, and the answer read whole under the client's bounds (above). A redirect
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
