/**
 * Reading an answer of the service: its bytes, bounded in size and time, and what they are. Every answer
 * is untrusted: it may trickle, inflate (a gzip bomb), or be a proxy's HTML page labelled as anything.
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

	const remaining = deadline - Date.now();
	if (remaining <= 0) {
		stream.destroy();
		throw new AnswerDeadlineError('deadline');
	}
	// An AbortSignal's timer does not keep the process alive and needs no global timer functions.
	const timer = AbortSignal.timeout(remaining);
	return await new Promise<Buffer>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const finish = (error?: Error) => {
			timer.removeEventListener('abort', onDeadline);
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
		const onDeadline = () => finish(new AnswerDeadlineError('deadline'));
		const onData = (chunk: Buffer | string) => {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			size += bytes.length;
			if (size > maxBytes) finish(new AnswerTooLargeError(`more than ${maxBytes} bytes`));
			else chunks.push(bytes);
		};
		const onEnd = () => finish();
		const onError = (error: Error) => finish(error);
		timer.addEventListener('abort', onDeadline, { once: true });
		stream.on('data', onData);
		stream.on('end', onEnd);
		stream.on('error', onError);
	});
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
		value = JSON.parse(text) as unknown;
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
