// @ts-check
'use strict';

/**
 * Files the sandbox serves at paths of its own choosing, in both modes: what a message's attachments
 * point to (Support Board keeps them under `{install}/uploads/`). Each file is a lever for a test of
 * the node's downloads: plain bytes, a redirect, a file larger than it says or than any bound, one
 * that trickles. A second sandbox on another port plays another host.
 */

/** @typedef {import('node:http').ServerResponse} ServerResponse */

/**
 * @typedef {object} SandboxFile
 * @property {Buffer | string} [body] The bytes served (default: none).
 * @property {string} [contentType] The Content-Type header; none when unset.
 * @property {number} [status] Default 200 (302 with `location`).
 * @property {string} [location] Answers a redirect to this address.
 * @property {number} [size] Serves this many bytes of `x` instead of `body`, made as they are sent.
 * @property {boolean} [declareLength] Whether Content-Length is sent (default true).
 * @property {number} [trickleMs] Sends the body one byte every this many milliseconds.
 */

const CHUNK = 64 * 1024;

/** Resolves when the client has read what was written, or has gone. @param {ServerResponse} res */
function drained(res) {
	return new Promise((resolve) => {
		const done = () => {
			res.off('drain', done);
			res.off('close', done);
			resolve(undefined);
		};
		res.on('drain', done);
		res.on('close', done);
	});
}

class Files {
	constructor() {
		/** @type {Map<string, SandboxFile>} */
		this.files = new Map();
	}

	/**
	 * Serves `file` at `path`; gives the path as a request names it (percent-encoded).
	 * @param {string} path @param {SandboxFile} file
	 */
	put(path, file) {
		if (!path.startsWith('/')) throw new TypeError('a file path starts with /');
		const encoded = new URL(path, 'http://127.0.0.1').pathname;
		this.files.set(encoded, file);
		return encoded;
	}

	clear() {
		this.files.clear();
	}

	/** @param {string} path */
	has(path) {
		return this.files.has(path);
	}

	/**
	 * Serves the file at `path`; `status` records the answer's status.
	 * @param {string} path
	 * @param {ServerResponse} res
	 * @param {(status: number) => void} status
	 * @param {(ms: number) => Promise<unknown>} delay
	 */
	async serve(path, res, status, delay) {
		const file = /** @type {SandboxFile} */ (this.files.get(path));
		if (file.location !== undefined) {
			status(file.status ?? 302);
			res.writeHead(file.status ?? 302, { location: file.location, 'content-length': '0' });
			res.end();
			return;
		}
		const raw = file.body ?? '';
		const body =
			file.size !== undefined ? null : typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
		const length = body ? body.length : /** @type {number} */ (file.size);
		/** @type {Record<string, string>} */
		const headers = {};
		if (file.contentType !== undefined) headers['content-type'] = file.contentType;
		if (file.declareLength !== false) headers['content-length'] = String(length);
		status(file.status ?? 200);
		res.writeHead(file.status ?? 200, headers);
		if (file.trickleMs !== undefined) {
			for (let i = 0; i < length && !res.destroyed; i++) {
				res.write(body ? body.subarray(i, i + 1) : 'x');
				await delay(file.trickleMs);
			}
		} else if (body) {
			res.write(body);
		} else {
			for (let sent = 0; sent < length && !res.destroyed; sent += CHUNK) {
				const ok = res.write(Buffer.alloc(Math.min(CHUNK, length - sent), 'x'));
				if (!ok) await drained(res);
			}
		}
		res.end();
	}
}

module.exports = { Files };
