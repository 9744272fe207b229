// @ts-check
'use strict';

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The whole request body as text; `tooLarge` when it passed the limit (the rest is drained, not kept).
 * @param {IncomingMessage} req
 * @returns {Promise<{ text: string, bytes: Buffer, tooLarge: boolean }>}
 */
function readBody(req) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size <= MAX_BODY_BYTES) chunks.push(chunk);
		});
		req.on('end', () => {
			const bytes = Buffer.concat(chunks);
			resolve({ text: bytes.toString('utf8'), bytes, tooLarge: size > MAX_BODY_BYTES });
		});
		req.on('error', reject);
	});
}

/**
 * @param {URLSearchParams} params
 * @returns {Record<string, string | string[]>}
 */
function queryObject(params) {
	/** @type {Record<string, string | string[]>} */
	const query = {};
	for (const [key, value] of params) {
		const prev = query[key];
		query[key] =
			prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
	}
	return query;
}

/**
 * @param {Record<string, string | string[]>} query
 */
function queryString(query) {
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(query)) {
		for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
	}
	const text = params.toString();
	return text ? `?${text}` : '';
}

/**
 * @param {ServerResponse} res
 * @param {number} status
 * @param {Record<string, string>} headers
 * @param {string} [body]
 */
function send(res, status, headers, body) {
	if (res.headersSent || res.destroyed) return;
	const out = { ...headers };
	if (body !== undefined) out['content-length'] = String(Buffer.byteLength(body));
	res.writeHead(status, out);
	res.end(body);
}

/**
 * @param {ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
function sendJson(res, status, body, headers = {}) {
	send(
		res,
		status,
		{ 'content-type': 'application/json; charset=utf-8', ...headers },
		JSON.stringify(body),
	);
}

/** @param {string | undefined} address */
function isLoopback(address) {
	return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

module.exports = { readBody, queryObject, queryString, send, sendJson, isLoopback };
