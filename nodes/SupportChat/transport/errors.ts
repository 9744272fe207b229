import { isDataObject, isRecord } from '../shared/json';
import { maskUrlsIn } from '../shared/quotedUrls';
import { cut, QUOTE_LENGTH } from '../shared/text';
import { RETRY_RULE } from './retry';

const MESSAGE_KEYS = [
	'message',
	'error_description',
	'error_message',
	'errorMessage',
	'detail',
	'details',
	'title',
	'description',
	'reason',
	'msg',
	'error',
	'errors',
	'response',
	'data',
] as const;

/** How much of an error text is looked at: a message is near the start, and what follows costs time. */
const MAX_SCANNED = 16_384;

/**
 * One line of at most QUOTE_LENGTH characters, the mark of a cut included, from text of any length
 * (already masked of secrets): the URLs it quotes masked (shared/quotedUrls) before it is cut. Of a
 * longer text only the words wholly inside the part looked at are kept, so no URL is cut before that.
 */
export function clipText(text: string): string {
	return cut(maskUrlsIn(wholeWords(text).replace(/\s+/g, ' ').trim()), QUOTE_LENGTH - 1);
}

/** The first MAX_SCANNED characters of a text, without the word the limit cuts through (if any other). */
function wholeWords(text: string): string {
	if (text.length <= MAX_SCANNED) return text;
	let end = MAX_SCANNED;
	while (end > 0 && !/\s/.test(text[end])) end--;
	return text.slice(0, end > 0 ? end : MAX_SCANNED);
}

/**
 * The text between `<tag …>` and `</tag>`, case-insensitive, found with indexOf: linear in the input,
 * where a pattern such as /<title[^>]*>([\s\S]*?)<\/title>/ restarts at every `<` of a hostile page.
 */
function element(html: string, lower: string, tag: string): string | undefined {
	const open = lower.indexOf(`<${tag}`);
	if (open === -1) return undefined;
	const contentStart = lower.indexOf('>', open);
	if (contentStart === -1) return undefined;
	const close = lower.indexOf(`</${tag}`, contentStart);
	return html.slice(contentStart + 1, close === -1 ? undefined : close);
}

/** The page's text without its tags, scripts and styles, in one pass. */
function textOf(html: string, lower: string): string {
	let text = '';
	let index = 0;
	while (index < html.length) {
		const open = html.indexOf('<', index);
		if (open === -1) {
			text += html.slice(index);
			break;
		}
		text += `${html.slice(index, open)} `;
		const skipped = ['script', 'style'].find((tag) => lower.startsWith(tag, open + 1));
		const end =
			skipped === undefined ? lower.indexOf('>', open) : lower.indexOf(`</${skipped}`, open);
		if (end === -1) break;
		index = skipped === undefined ? end + 1 : Math.max(end + 1, lower.indexOf('>', end) + 1);
	}
	return text;
}

const ENTITIES: ReadonlyMap<string, string> = new Map([
	['&nbsp;', ' '],
	['&amp;', '&'],
	['&lt;', '<'],
	['&gt;', '>'],
	['&quot;', '"'],
	['&#39;', "'"],
]);

function fromHtml(page: string): string | undefined {
	const html = page.slice(0, MAX_SCANNED);
	const lower = html.toLowerCase();
	const part = element(html, lower, 'h1') ?? element(html, lower, 'title');
	const text = part === undefined ? textOf(html, lower) : textOf(part, part.toLowerCase());
	const flat = clipText(
		text.replace(/&(?:nbsp|amp|lt|gt|quot|#39);/g, (entity) => ENTITIES.get(entity) ?? entity),
	);
	return flat === '' ? undefined : flat;
}

function fromValue(value: unknown, depth: number): string | undefined {
	if (depth > 4 || value === null || value === undefined || value === false || value === true) {
		return undefined;
	}
	if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') return undefined;
		if (text.startsWith('<')) return fromHtml(text);
		return clipText(text);
	}
	if (typeof value === 'number') return undefined;
	if (Array.isArray(value)) {
		const parts = value.map((entry) => fromValue(entry, depth + 1)).filter(Boolean);
		return parts.length > 0 ? clipText(parts.join('; ')) : undefined;
	}
	if (isDataObject(value)) {
		for (const key of MESSAGE_KEYS) {
			const found = fromValue(value[key], depth + 1);
			if (found !== undefined) {
				const field = value.field ?? value.param ?? value.attribute ?? value.path;
				return typeof field === 'string' && !found.includes(field)
					? clipText(`${field}: ${found}`)
					: found;
			}
		}
		// A validation map such as { email: ["is invalid"] }.
		const entries = Object.entries(value).filter(
			([, v]) =>
				typeof v === 'string' || (Array.isArray(v) && v.every((e) => typeof e === 'string')),
		);
		if (entries.length > 0 && entries.length <= 10) {
			return clipText(
				entries.map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`).join('; '),
			);
		}
	}
	return undefined;
}

/**
 * Finds the service's own explanation in an error body of whatever shape it has: a JSON object
 * (`message`, `error`, `error.message`, `errors[]`, `detail`, a `{success:false, response}` envelope,
 * a field → messages map), plain text, or an HTML error page (its heading or title).
 */
export function extractErrorMessage(body: unknown): string | undefined {
	return fromValue(body, 0);
}

/**
 * A message and its hint as one line, for where only one text is shown (a model's tool answer, the
 * credential dialog): a full stop between them unless the message ends a sentence already, and the
 * hint once only.
 */
export function withHint(message: string, hint: unknown): string {
	const text = message.trim();
	if (typeof hint !== 'string' || hint.trim() === '' || text.includes(hint.trim())) return text;
	return `${text}${/[.!?…]$/.test(text) ? '' : '.'} ${hint.trim()}`;
}

/**
 * A 404 on a request that names no record (a list, the credential test): nothing is at that path, so
 * the Base URL is what to check.
 */
const NO_API_AT_BASE_URL =
	'There is no Support Chat API at this Base URL. Enter the address of your service; the path /script/include/api is added when missing. If your service is Support Board, choose Support Board Web API under API in the Support Chat API credentials.';

/**
 * The advice for a network fault: no answer came. The Base URL is advice for this and for the wrong
 * address (404, 405, an HTML page), never for a refusal the service answered with its reason.
 */
export const UNREACHABLE_HINT =
	'Check the Base URL in the credentials and that the service is reachable from n8n.';

/**
 * What a person should look at first, by HTTP status (undefined: no answer came, a network fault);
 * `resourceLabel` names the record a request names.
 */
export function hintForStatus(status: number | undefined, resourceLabel?: string): string {
	if (status === undefined) return UNREACHABLE_HINT;
	if (status === 401) {
		return 'The service rejected the API token. Check the token in the Support Chat API credentials; it may have been rotated or revoked.';
	}
	if (status === 403) {
		return 'The token is valid but not allowed to do this. Check the permissions of the account the token belongs to.';
	}
	if (status === 404) {
		if (resourceLabel === undefined) return NO_API_AT_BASE_URL;
		return `The ${resourceLabel} was not found. Check the ID, and that the Base URL in the credentials points at your service.`;
	}
	if (status === 400 || status === 409 || status === 422) {
		return 'The service rejected the data sent. Check the field named in the message; for undocumented fields, adjust "Extra Body Fields".';
	}
	if (status === 429) {
		return 'The service is throttling requests. Lower "Requests per Second" or raise "Max Retry Wait" in the node options, or run the workflow less often.';
	}
	if (status !== undefined && status >= 500) {
		// The rule in its own words (./retry), never paraphrased.
		return `The service failed on its side. Requests are retried automatically by this rule: ${RETRY_RULE} Where one was not retried, check in the service whether it was done before running again.`;
	}
	if (status === 405) {
		return 'The service does not take this request at this address. Check that the Base URL in the credentials points at your service.';
	}
	// An answer with its reason (a 2xx that says it failed, another 4xx): the address was reached.
	return 'The service received the request and refused it, for the reason in the message. Check the values sent.';
}

const SSRF_REFUSALS: ReadonlySet<unknown> = new Set([
	'SsrfBlockedIpError',
	'SsrfBlockedHostnameError',
]);

/**
 * n8n 2.x's SSRF protection refuses an address before any request (@n8n/backend-network's
 * SsrfBlockedIpError, SsrfBlockedHostnameError, handed over as the cause of a NodeApiError); told by
 * name, since a community package cannot import n8n's classes.
 */
export function isSsrfRefusal(error: unknown): boolean {
	const named = (value: unknown) =>
		isRecord(value) && typeof value.name === 'string' && SSRF_REFUSALS.has(value.name);
	return named(error) || (error instanceof Error && named(error.cause));
}
