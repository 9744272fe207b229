// @ts-check
'use strict';

const ERROR_STYLES = Object.freeze(
	/** @type {const} */ (['message', 'error', 'errors', 'detail', 'text', 'html']),
);
/** @typedef {(typeof ERROR_STYLES)[number]} ErrorStyle */

/** A failure the API answers with a status; `field` names the offending input, when there is one. */
class SandboxError extends Error {
	/**
	 * @param {number} status
	 * @param {string} message
	 * @param {string} [field]
	 */
	constructor(status, message, field) {
		super(message);
		this.name = 'SandboxError';
		this.status = status;
		this.field = field;
	}
}

/** @type {Record<number, string>} */
const REASONS = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	413: 'Payload Too Large',
	422: 'Unprocessable Entity',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

/** @param {number} status */
function reason(status) {
	return REASONS[status] ?? 'Error';
}

/** @param {string} text */
function escapeHtml(text) {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * An HTML error page of the kind a proxy or framework answers instead of JSON.
 * @param {number} status
 * @param {string} [message]
 */
function htmlPage(status, message) {
	const title = `${status} ${reason(status)}`;
	const detail = message ? `<p>${escapeHtml(message)}</p>` : '';
	return `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center>${detail}<hr><center>nginx</center></body></html>\n`;
}

/**
 * The error body in the configured style. Real services disagree on this shape, which is why the
 * client's error mapping has to read all of them.
 * @param {ErrorStyle} style
 * @param {number} status
 * @param {string} message
 * @param {string} [field]
 * @returns {{ contentType: string, body: string }}
 */
function errorBody(style, status, message, field) {
	const json = 'application/json; charset=utf-8';
	switch (style) {
		case 'error':
			return { contentType: json, body: JSON.stringify({ error: message }) };
		case 'errors':
			return {
				contentType: json,
				body: JSON.stringify({ errors: [{ message, field: field ?? null }] }),
			};
		case 'detail':
			return { contentType: json, body: JSON.stringify({ detail: message }) };
		case 'text':
			return { contentType: 'text/plain; charset=utf-8', body: message };
		case 'html':
			return { contentType: 'text/html; charset=utf-8', body: htmlPage(status, message) };
		case 'message':
		default:
			return { contentType: json, body: JSON.stringify({ message }) };
	}
}

module.exports = { ERROR_STYLES, SandboxError, errorBody, htmlPage, reason };
