// @ts-check
'use strict';

const crypto = require('node:crypto');

/**
 * What PHP does to a Support Board request and answer, reproduced where a client can see it: form bodies
 * parsed into nested arrays, `sb_post`'s 'true'/'false', `is_numeric`, `json_encode`'s escaping.
 *
 * @typedef {Record<string, unknown>} Params The request's fields after PHP parsed them (`$_POST`).
 */

/** Deeper brackets than this are kept as a literal key, as PHP's max_input_nesting_level cuts them. */
const MAX_DEPTH = 16;
/** PHP's max_input_vars. */
const MAX_VARS = 1000;

/**
 * `a=1&b[c]=2&d[]=3` as PHP's `$_POST`: `{ a: '1', b: { c: '2' }, d: ['3'] }` (a `[]` list is an object with
 * keys 0, 1, … here, then turned into an array when all its keys are those).
 * @param {string} text
 * @returns {Params}
 */
function parseForm(text) {
	/** @type {Params} */
	const out = {};
	const pairs = text.split('&').slice(0, MAX_VARS);
	for (const pair of pairs) {
		if (pair === '') continue;
		const eq = pair.indexOf('=');
		const rawKey = decode(eq < 0 ? pair : pair.slice(0, eq));
		const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
		const open = rawKey.indexOf('[');
		const base = open > 0 ? rawKey.slice(0, open) : rawKey;
		if (base === '') continue;
		/** @type {string[]} */
		const path = [];
		const rest = open > 0 ? rawKey.slice(open) : '';
		const brackets = /\[([^\]]*)\]/g;
		let m;
		while ((m = brackets.exec(rest)) !== null && path.length < MAX_DEPTH) path.push(m[1]);
		let target = /** @type {Record<string, unknown>} */ (out);
		let key = base;
		for (const part of path) {
			const next = target[key];
			const child =
				typeof next === 'object' && next !== null
					? /** @type {Record<string, unknown>} */ (next)
					: {};
			target[key] = child;
			target = child;
			key = part === '' ? String(Object.keys(child).length) : part;
		}
		target[key] = value;
	}
	return /** @type {Params} */ (listify(out));
}

/** @param {string} s */
function decode(s) {
	try {
		return decodeURIComponent(s.replace(/\+/g, ' '));
	} catch {
		return s;
	}
}

/**
 * Objects whose keys are exactly 0..n-1 become arrays, as json_encode shows PHP lists.
 * @param {unknown} value
 * @returns {unknown}
 */
function listify(value) {
	if (typeof value !== 'object' || value === null) return value;
	const entries = Object.entries(value).map(
		([k, v]) => /** @type {[string, unknown]} */ ([k, listify(v)]),
	);
	const isList = entries.length > 0 && entries.every(([k], i) => k === String(i));
	return isList ? entries.map(([, v]) => v) : Object.fromEntries(entries);
}

/**
 * The request's fields: the form fields, then a JSON object body laid over them (api.php merges both).
 * @param {string} text
 * @param {string | undefined} contentType
 * @returns {Params}
 */
function requestParams(text, contentType) {
	/** @type {Params} */
	let params = /^application\/x-www-form-urlencoded/i.test(contentType ?? '')
		? parseForm(text)
		: {};
	try {
		const json = JSON.parse(text);
		// An empty array or object is falsy to PHP, and a list would merge as numeric keys no function reads.
		if (typeof json === 'object' && json !== null && !Array.isArray(json))
			params = { ...params, ...json };
	} catch {
		// Not JSON: the form fields alone.
	}
	return params;
}

/**
 * `sb_post`: the field, 'true'/'false' as booleans, the default when it is absent or null.
 * @param {Params} params
 * @param {string} key
 * @param {unknown} [fallback]
 */
function post(params, key, fallback = false) {
	const v = params[key];
	if (v === undefined || v === null) return fallback;
	return v === 'false' ? false : v === 'true' ? true : v;
}

/**
 * `sb_isset`: the field unless absent, null or ''.
 * @param {Params} params
 * @param {string} key
 * @param {unknown} [fallback]
 */
function isset(params, key, fallback = false) {
	const v = params[key];
	return v === undefined || v === null || v === '' ? fallback : v;
}

/** @param {unknown} v PHP's is_numeric. */
function isNumeric(v) {
	if (typeof v === 'number') return Number.isFinite(v);
	return typeof v === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(v);
}

/** @param {unknown} v PHP's `empty()`. */
function empty(v) {
	return (
		v === undefined ||
		v === null ||
		v === false ||
		v === 0 ||
		v === '' ||
		v === '0' ||
		(Array.isArray(v) && v.length === 0)
	);
}

/**
 * json_encode: `/` as `\/`; non-ASCII as `\uXXXX` unless `rawUnicode` (the webhooks use JSON_UNESCAPED_UNICODE).
 * @param {unknown} value
 * @param {{ rawUnicode?: boolean }} [options]
 */
function phpJson(value, options = {}) {
	const text = JSON.stringify(value).replace(/\//g, '\\/');
	if (options.rawUnicode) return text;
	return text.replace(
		/[\u0080-\uffff]/g,
		(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
}

/** @param {string} iso An ISO timestamp; answers MySQL's `YYYY-MM-DD HH:MM:SS` (UTC). */
const sqlTime = (iso) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;

const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** @param {Buffer} bytes @param {number} length */
const bcryptBase64 = (bytes, length) =>
	Array.from(bytes.subarray(0, length), (b) => BCRYPT_ALPHABET[b & 63]).join('');

/**
 * A password hash looking like PHP's `password_hash` (`$2y$10$` + salt + digest). Not bcrypt: the sandbox
 * needs the shape and a way to check a login, not the cost.
 * @param {string} password
 * @param {string} [salt]
 */
function hashPassword(password, salt = bcryptBase64(crypto.randomBytes(22), 22)) {
	const digest = crypto.createHash('sha256').update(`${salt}:${password}`).digest();
	return `$2y$10$${salt}${bcryptBase64(digest, 31)}`;
}

/** @param {string} password @param {string} hash */
function verifyPassword(password, hash) {
	if (!/^\$2y\$10\$.{53}$/.test(hash)) return false;
	const again = hashPassword(password, hash.slice(7, 29));
	return crypto.timingSafeEqual(Buffer.from(again), Buffer.from(hash));
}

module.exports = {
	parseForm,
	requestParams,
	post,
	isset,
	isNumeric,
	empty,
	phpJson,
	sqlTime,
	hashPassword,
	verifyPassword,
};
