// @ts-check
'use strict';

const { SandboxError } = require('./errors');

/**
 * @typedef {'users' | 'conversations' | 'tags'} Resource
 * @typedef {Record<string, string | string[]>} Query
 */

/**
 * The page shapes of real APIs (Laravel, JSON:API, HAL, GitHub, Stripe, plain page and offset APIs).
 * Each one really pages, so a client that stops after the first response gets caught.
 */
const PAGINATION_STYLES = Object.freeze(
	/** @type {const} */ ([
		'none',
		'array',
		'link',
		'next-url',
		'links-next',
		'hal',
		'cursor',
		'cursor-meta',
		'has-more',
		'page',
		'page-nototal',
		'page-nototal-404',
		'offset',
		'offset-nototal',
		'header-total',
	]),
);
/** @typedef {(typeof PAGINATION_STYLES)[number]} PaginationStyle */

/**
 * A broken or hostile service, for the node's bounds (issue 8): each mode lies in one way. Kept apart
 * from PAGINATION_STYLES, which lists the styles a client can walk to the end.
 */
const HOSTILE_PAGINATION_STYLES = Object.freeze(
	/** @type {const} */ ([
		'huge-total',
		'offset-huge-total',
		'numeric-cursor',
		'lying-total',
		'no-id-edges',
		'empty-after-more',
		'header-lying-total',
		'empty-middle-page',
	]),
);
/**
 * A service that lies about its pages (issue 8): huge declared counts, numeric cursors, a total never
 * reached, id-less pages with equal first and last records, an empty body after a page promising more;
 * (issue 20) a total in a header never reached, an empty page before the end its Content-Range declares.
 * @typedef {(typeof HOSTILE_PAGINATION_STYLES)[number]} HostilePaginationStyle
 */

/** What `huge-total` declares: far beyond any Max Pages, and beyond what a plan could list. */
const HUGE_PAGES = 1_000_000_000;
const HUGE_TOTAL = 1e12;
/** How many records `lying-total` claims that it never serves. */
const MISSING = 5;

const SIZE_PARAMS = ['per_page', 'limit', 'page_size'];
const START_CURSOR = 'start';

/**
 * @typedef {object} ListRequest
 * @property {PaginationStyle | HostilePaginationStyle} style
 * @property {Resource} resource
 * @property {readonly unknown[]} items
 * @property {(item: unknown) => string} keyOf  The id (the name, for bare tag strings).
 * @property {(key: string) => number | undefined} positionOf  Position of the item with that key, O(1).
 * @property {Query} query
 * @property {(query: Query) => string} urlFor  Absolute URL of this list with another query.
 * @property {number} pageSize
 * @property {number} maxPageSize
 * @property {boolean} [repeat]  The `repeat-cursor` fault: the next pointer leads to this same page.
 */

/**
 * @param {Query} query
 * @param {string} name
 */
function one(query, name) {
	const value = query[name];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * @param {Query} query
 * @param {string} name
 * @param {number} min
 * @param {number} fallback
 */
function intParam(query, name, min, fallback) {
	const raw = one(query, name);
	if (raw === undefined || raw === '') return fallback;
	const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
	if (!Number.isSafeInteger(n) || n < min) {
		throw new SandboxError(400, `${name} must be an integer of at least ${min}`, name);
	}
	return n;
}

/**
 * @param {Query} query
 * @param {number} pageSize
 * @param {number} maxPageSize
 */
function sizeOf(query, pageSize, maxPageSize) {
	for (const name of SIZE_PARAMS) {
		if (one(query, name) !== undefined && one(query, name) !== '') {
			return Math.min(intParam(query, name, 1, pageSize), maxPageSize);
		}
	}
	return Math.min(pageSize, maxPageSize);
}

/** @param {string} key */
function encodeCursor(key) {
	return Buffer.from(`after:${key}`, 'utf8').toString('base64url');
}

/**
 * @param {string | undefined} cursor
 * @param {(key: string) => number | undefined} positionOf
 * @param {string} param
 * @returns {number} position of the first item of the page
 */
function decodeCursor(cursor, positionOf, param) {
	if (cursor === undefined || cursor === '' || cursor === START_CURSOR) return 0;
	const text = Buffer.from(cursor, 'base64url').toString('utf8');
	const at = text.startsWith('after:') ? positionOf(text.slice('after:'.length)) : undefined;
	if (at === undefined)
		throw new SandboxError(400, `${param} is not valid (unknown or expired)`, param);
	return at + 1;
}

/**
 * One page of a list in the given style: the body (before the envelope) and headers.
 * @param {ListRequest} r
 * @returns {{ body: unknown, headers: Record<string, string> }}
 */
function paginate(r) {
	const { items, query, resource, repeat = false } = r;
	const total = items.length;
	const size = sizeOf(query, r.pageSize, r.maxPageSize);
	const lastPage = Math.max(1, Math.ceil(total / size));
	/** @param {Record<string, string>} changes */
	const urlWith = (changes) => r.urlFor({ ...query, ...changes });
	const self = r.urlFor(query);
	/** @param {number} n */
	const pageUrl = (n) => urlWith({ page: String(n) });
	// Page-numbered styles read `page` only when they need it, so a stray `page` does not fail others.
	// Under the repeat fault the page and offset parameters are ignored, as by a server that lost them.
	const numbered = () => {
		const page = repeat ? 1 : intParam(query, 'page', 1, 1);
		const start = (page - 1) * size;
		const more = start + size < total;
		return {
			page,
			slice: items.slice(start, start + size),
			nextUrl: repeat ? self : more ? pageUrl(page + 1) : null,
		};
	};

	switch (r.style) {
		case 'none':
			return { body: items, headers: {} };
		case 'array':
			return { body: numbered().slice, headers: {} };
		case 'link': {
			const { page, slice, nextUrl } = numbered();
			// GitHub's order and relations: https://docs.github.com/rest/using-the-rest-api/using-pagination-in-the-rest-api
			const parts = [];
			if (nextUrl) parts.push(`<${nextUrl}>; rel="next"`, `<${pageUrl(lastPage)}>; rel="last"`);
			if (page > 1)
				parts.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(page - 1)}>; rel="prev"`);
			return { body: slice, headers: parts.length > 0 ? { link: parts.join(', ') } : {} };
		}
		case 'next-url': {
			const { page, slice, nextUrl } = numbered();
			return {
				body: {
					data: slice,
					current_page: page,
					last_page: lastPage,
					per_page: size,
					total,
					next_page_url: nextUrl,
					prev_page_url: page > 1 ? pageUrl(page - 1) : null,
				},
				headers: {},
			};
		}
		case 'links-next': {
			const { slice, nextUrl } = numbered();
			return { body: { data: slice, links: { self, next: nextUrl } }, headers: {} };
		}
		case 'hal': {
			const { slice, nextUrl } = numbered();
			/** @type {Record<string, { href: string }>} */
			const links = { self: { href: self } };
			if (nextUrl) links.next = { href: nextUrl };
			return { body: { _embedded: { [resource]: slice }, _links: links }, headers: {} };
		}
		case 'cursor':
		case 'cursor-meta': {
			const given = one(query, 'cursor');
			const from = decodeCursor(given, r.positionOf, 'cursor');
			const rows = items.slice(from, from + size);
			const end = from + rows.length;
			const next = repeat
				? given || START_CURSOR
				: end < total && rows.length > 0
					? encodeCursor(r.keyOf(rows[rows.length - 1]))
					: null;
			const body =
				r.style === 'cursor'
					? { data: rows, next_cursor: next }
					: { [resource]: rows, meta: { next_cursor: next } };
			return { body, headers: {} };
		}
		case 'has-more': {
			// Stripe: https://docs.stripe.com/api/pagination
			const after = repeat ? undefined : one(query, 'starting_after');
			let from = 0;
			if (after !== undefined && after !== '') {
				const at = r.positionOf(after);
				if (at === undefined)
					throw new SandboxError(400, `starting_after: no such object ${after}`, 'starting_after');
				from = at + 1;
			}
			const rows = items.slice(from, from + size);
			return {
				body: { object: 'list', data: rows, has_more: from + rows.length < total },
				headers: {},
			};
		}
		case 'page': {
			const { page, slice } = numbered();
			return {
				body: { [resource]: slice, page, per_page: size, total_pages: Math.ceil(total / size) },
				headers: {},
			};
		}
		case 'page-nototal': {
			const { page, slice } = numbered();
			return { body: { results: slice, page }, headers: {} };
		}
		case 'page-nototal-404': {
			// Django REST Framework's answer to a page past the last: https://www.django-rest-framework.org/api-guide/pagination/
			const { page, slice } = numbered();
			if (page > lastPage) throw new SandboxError(404, 'Invalid page.', 'page');
			return { body: { results: slice, page }, headers: {} };
		}
		case 'huge-total': {
			const { page, slice } = numbered();
			return {
				body: {
					[resource]: slice,
					page,
					per_page: size,
					total_pages: HUGE_PAGES,
					total: HUGE_TOTAL,
				},
				headers: {},
			};
		}
		case 'offset-huge-total': {
			const offset = intParam(query, 'offset', 0, 0);
			return {
				body: { items: items.slice(offset, offset + size), offset, limit: size, total: HUGE_TOTAL },
				headers: {},
			};
		}
		case 'numeric-cursor': {
			// The position itself is the cursor, as a JSON number.
			const from = intParam(query, 'cursor', 0, 0);
			const rows = items.slice(from, from + size);
			const end = from + rows.length;
			return { body: { data: rows, next_cursor: end < total ? end : null }, headers: {} };
		}
		case 'lying-total': {
			const offset = intParam(query, 'offset', 0, 0);
			return {
				body: {
					items: items.slice(offset, offset + size),
					offset,
					limit: size,
					total: total + MISSING,
				},
				headers: {},
			};
		}
		case 'no-id-edges': {
			// Records without ids, each page opening and closing with the same rows: only the middle differs.
			const { page, slice } = numbered();
			const rows = slice.map((item) => {
				const { id: _id, ...rest } = /** @type {Record<string, unknown>} */ (item);
				return rest;
			});
			return {
				body: { results: [{ section: resource }, ...rows, { section: 'end' }], page },
				headers: {},
			};
		}
		case 'header-total': {
			// json-server: a bare array, the list's size in X-Total-Count.
			return { body: numbered().slice, headers: { 'x-total-count': String(total) } };
		}
		case 'header-lying-total':
			return { body: numbered().slice, headers: { 'x-total-count': String(total + MISSING) } };
		case 'empty-middle-page': {
			// Page 2 comes back an empty array while the Content-Range (PostgREST's, with a unit) declares
			// the whole list; the pages after it are served as usual.
			const { page, slice } = numbered();
			const start = (page - 1) * size;
			const rows = page === 2 ? [] : slice;
			const range =
				rows.length > 0 ? `items ${start}-${start + rows.length - 1}/${total}` : `items */${total}`;
			return { body: rows, headers: { 'content-range': range } };
		}
		case 'empty-after-more': {
			// Page 1 promises more; page 2 comes back 200 with no body at all.
			const { page, slice } = numbered();
			if (page === 2) return { body: undefined, headers: {} };
			return {
				body: { [resource]: slice, page, per_page: size, total_pages: lastPage },
				headers: {},
			};
		}
		case 'offset':
		case 'offset-nototal': {
			const offset = repeat ? 0 : intParam(query, 'offset', 0, 0);
			const rows = items.slice(offset, offset + size);
			const body =
				r.style === 'offset'
					? { items: rows, offset, limit: size, total }
					: { records: rows, offset, limit: size };
			return { body, headers: {} };
		}
		default:
			throw new SandboxError(500, `unknown pagination style ${String(r.style)}`);
	}
}

module.exports = { PAGINATION_STYLES, HOSTILE_PAGINATION_STYLES, paginate, encodeCursor };
