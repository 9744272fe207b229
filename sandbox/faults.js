// @ts-check
'use strict';

const FAULT_KINDS = Object.freeze(
	/** @type {const} */ ([
		'429',
		'500',
		'503',
		'status',
		'slow',
		'malformed',
		'html',
		'success-false',
		'repeat-cursor',
		'reset',
		'drop-after-write',
		'redirect',
		'raw',
		'trickle',
		'gzip-bomb',
		'echo-token',
	]),
);
/** @typedef {(typeof FAULT_KINDS)[number]} FaultKind */

/**
 * @typedef {object} FaultSpec
 * @property {string} [method] Default: any method.
 * @property {string | RegExp} [path] Exact path without the API prefix (e.g. `/users`), or a pattern tested against it. Default: any.
 * @property {FaultKind} kind
 * @property {number} [times] Matching requests that get the fault: default 1, and Infinity for `repeat-cursor`.
 * @property {number | Date | string} [retryAfter] 429: seconds, or a Date sent as an HTTP-date, or a string sent as it is. No header when omitted.
 * @property {string} [location] redirect: where to (absolute, or relative to the request); the status defaults to 302.
 * @property {string} [body] raw: the body sent as it is (default empty), with `contentType` (default none) and `status` (default 200).
 * @property {string} [contentType] raw: the content type (default none).
 * @property {number} [intervalMs] trickle: a JSON page sent one byte every `intervalMs` (default 300) after the headers, `bytes` long.
 * @property {number} [bytes] trickle: the page's length (default 200).
 * @property {number} [inflatedBytes] gzip-bomb: a gzip body that inflates to this many bytes of JSON-looking padding (default 600 MB).
 * @property {number} [delayMs] slow: delay before the normal answer (default 1000); redirect: delay before the redirect (default none).
 * @property {number} [status] status: the status to answer; html: overrides 502; drop-after-write: overrides 500; redirect: 301/302/307/308; raw: overrides 200.
 * @property {string} [message] Text of the error body.
 * @property {number} [pagination] Only a list's page of this number: in Support Board mode the call's `pagination` argument, in REST mode the `page` query parameter (0 when absent).
 */

/**
 * @typedef {Omit<FaultSpec, 'times'> & {
 *   id: number,
 *   remaining: number,
 * }} QueuedFault A queued fault; `remaining`: matching requests that still get it.
 */

/**
 * Faults queued for requests that match them; the first matching fault in the queue applies.
 */
class FaultQueue {
	constructor() {
		/** @type {QueuedFault[]} */
		this.queue = [];
		this.nextId = 1;
	}

	/**
	 * @param {FaultSpec} spec
	 * @returns {QueuedFault}
	 */
	add(spec) {
		if (typeof spec !== 'object' || spec === null) throw new TypeError('a fault must be an object');
		const { times, ...rest } = spec;
		if (!FAULT_KINDS.includes(spec.kind)) {
			throw new TypeError(
				`fault kind must be one of ${FAULT_KINDS.join(', ')}; got ${String(spec.kind)}`,
			);
		}
		// A repeated page is meant to trap a client forever; the other faults are one-offs by default.
		const remaining = times ?? (spec.kind === 'repeat-cursor' ? Infinity : 1);
		if (!(remaining === Infinity || (Number.isInteger(remaining) && remaining > 0))) {
			throw new TypeError('fault times must be a positive integer or Infinity');
		}
		if (
			spec.path !== undefined &&
			typeof spec.path !== 'string' &&
			!(spec.path instanceof RegExp)
		) {
			throw new TypeError('fault path must be a string or a RegExp');
		}
		if (
			spec.pagination !== undefined &&
			!(Number.isInteger(spec.pagination) && Number(spec.pagination) >= 0)
		)
			throw new TypeError('fault pagination must be a page number (0 or more)');
		if (spec.method !== undefined && typeof spec.method !== 'string')
			throw new TypeError('fault method must be a string');
		if (
			spec.kind === 'status' &&
			!(Number.isInteger(spec.status) && Number(spec.status) >= 100 && Number(spec.status) <= 599)
		) {
			throw new TypeError('a status fault needs status (100-599)');
		}
		if (spec.retryAfter !== undefined) {
			const ra = spec.retryAfter;
			// A string goes out as it is, so that malformed headers (`-5`, `2.`) can be served too.
			const ok =
				typeof ra === 'number'
					? ra >= 0
					: ra instanceof Date
						? !isNaN(ra.getTime())
						: typeof ra === 'string';
			if (!ok) throw new TypeError('fault retryAfter must be seconds, a Date or a header string');
		}
		if (spec.kind === 'redirect' && !(typeof spec.location === 'string' && spec.location !== '')) {
			throw new TypeError('a redirect fault needs location');
		}
		/** @type {QueuedFault} */
		const fault = { ...rest, id: this.nextId++, remaining };
		this.queue.push(fault);
		return { ...fault };
	}

	/**
	 * Takes one use of the first fault matching the request.
	 * @param {string} method
	 * @param {string} path  Without the API prefix.
	 * @param {unknown} [pagination] The page asked for: Support Board's `pagination` argument, REST's `page` query parameter.
	 * @returns {QueuedFault | undefined}
	 */
	take(method, path, pagination) {
		const index = this.queue.findIndex((f) => {
			if (f.method !== undefined && f.method.toUpperCase() !== method) return false;
			if (f.pagination !== undefined && Number(pagination ?? 0) !== f.pagination) return false;
			if (f.path === undefined) return true;
			if (typeof f.path === 'string') return f.path === path;
			f.path.lastIndex = 0; // a /g or /y pattern keeps its position between tests
			return f.path.test(path);
		});
		if (index < 0) return undefined;
		const fault = this.queue[index];
		fault.remaining -= 1;
		if (fault.remaining <= 0) this.queue.splice(index, 1);
		return fault;
	}

	list() {
		return this.queue.map((f) => ({ ...f }));
	}

	clear() {
		this.queue.length = 0;
	}
}

/**
 * The Retry-After header value: delta-seconds or an HTTP-date (RFC 9110 §10.2.3); a string as it is.
 * @param {number | Date | string} value
 */
function retryAfterHeader(value) {
	if (typeof value === 'number') return String(Math.ceil(value));
	if (typeof value === 'string') return value;
	return value.toUTCString();
}

module.exports = { FAULT_KINDS, FaultQueue, retryAfterHeader };
