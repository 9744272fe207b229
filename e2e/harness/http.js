// @ts-check
'use strict';

/**
 * @typedef {object} RequestOptions
 * @property {Record<string, string>} [headers]
 * @property {string | Buffer} [rawBody] Sent as is instead of JSON (for signature tests: the exact bytes matter).
 * @property {number} [timeoutMs]
 */

/**
 * @template [T=any]
 * @typedef {object} HttpResponse
 * @property {number} status
 * @property {Headers} headers
 * @property {T} body Parsed JSON when the answer says JSON, else the text.
 * @property {number} ms Round trip in milliseconds.
 */

class HttpError extends Error {
	/**
	 * @param {string} method
	 * @param {string} url
	 * @param {number} status
	 * @param {unknown} body
	 */
	constructor(method, url, status, body) {
		super(
			`${method} ${url} -> ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`.slice(
				0,
				2000,
			),
		);
		this.name = 'HttpError';
		this.method = method;
		this.url = url;
		this.status = status;
		this.body = body;
	}
}

/**
 * One HTTP exchange. Never throws on a status, only on a network failure or timeout.
 * @param {string} method
 * @param {string} url
 * @template [T=any]
 * @param {unknown} [body] sent as JSON unless `options.rawBody` is given
 * @param {RequestOptions} [options]
 * @returns {Promise<HttpResponse<T>>}
 */
async function request(method, url, body, options = {}) {
	/** @type {Record<string, string>} */
	const headers = { accept: 'application/json', ...options.headers };
	/** @type {string | Buffer | undefined} */
	let payload;
	if (options.rawBody !== undefined) {
		payload = options.rawBody;
	} else if (body !== undefined) {
		payload = JSON.stringify(body);
		if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
			headers['content-type'] = 'application/json';
		}
	}
	const started = Date.now();
	const response = await fetch(url, {
		method,
		headers,
		body: payload,
		redirect: 'manual',
		signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
	});
	const text = await response.text();
	/** @type {unknown} */
	let parsed = text;
	if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') {
		try {
			parsed = JSON.parse(text);
		} catch {
			// Keep the text.
		}
	}
	return {
		status: response.status,
		headers: response.headers,
		body: /** @type {T} */ (parsed),
		ms: Date.now() - started,
	};
}

/**
 * Like `request`, but a status of 400 or more is an HttpError.
 * @template [T=any]
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body]
 * @param {RequestOptions} [options]
 * @returns {Promise<HttpResponse<T>>}
 */
async function requestOk(method, url, body, options = {}) {
	/** @type {HttpResponse<T>} */
	const response = await request(method, url, body, options);
	if (response.status >= 400) throw new HttpError(method, url, response.status, response.body);
	return response;
}

module.exports = { HttpError, request, requestOk };
