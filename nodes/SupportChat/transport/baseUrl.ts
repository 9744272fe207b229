/** The fixed path every endpoint of the service hangs under (spec §4). */
const API_PREFIX = '/script/include/api';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase();
	return (
		LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host)
	);
}

/**
 * What a person typed into the credentials as a service address: trimmed, checked, its trailing slashes
 * dropped. The spec allows HTTPS only; plain HTTP is accepted for loopback hosts (tests, a service on
 * the same machine) or when the user opted in explicitly. A refusal carries a message that tells the
 * user what to change; `example` shows what the Base URL should look like.
 */
export function parseServiceUrl(
	raw: unknown,
	allowHttp: boolean,
	example: string,
): { ok: true; origin: string; path: string } | { ok: false; message: string } {
	const typed = typeof raw === 'string' ? raw.trim() : '';
	if (typed === '') {
		return { ok: false, message: 'The Base URL in the Support Chat API credentials is empty' };
	}
	let url: URL;
	try {
		url = new URL(typed);
	} catch {
		return {
			ok: false,
			message: `The Base URL "${typed}" in the Support Chat API credentials is not a valid URL; it should look like ${example}`,
		};
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return { ok: false, message: `The Base URL must start with https:// (got ${url.protocol}//)` };
	}
	if (url.protocol === 'http:' && !allowHttp && !isLoopbackHost(url.hostname)) {
		return {
			ok: false,
			message: `The Base URL uses http://, but the service is only reachable over HTTPS and the token would travel unencrypted. Use https://${url.host}${url.pathname}, or turn on "Allow Plain HTTP" in the credentials for a service inside a trusted network`,
		};
	}
	let path = url.pathname;
	while (path.endsWith('/')) path = path.slice(0, -1);
	return { ok: true, origin: `${url.protocol}//${url.host}`, path };
}

/** The REST API's base URL: the typed address with the fixed API prefix appended once. */
export function normalizeBaseUrl(
	raw: unknown,
	allowHttp = false,
): { ok: true; url: string } | { ok: false; message: string } {
	const parsed = parseServiceUrl(raw, allowHttp, `https://chat.example.com${API_PREFIX}`);
	if (!parsed.ok) return parsed;
	let { path } = parsed;
	if (path.toLowerCase().endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length);
	return { ok: true, url: `${parsed.origin}${path}${API_PREFIX}` };
}
