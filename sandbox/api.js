// @ts-check
'use strict';

const { SandboxError } = require('./errors');
const { paginate } = require('./pagination');
const { CONVERSATION_STATUSES } = require('./store');

/**
 * @typedef {import('./sandbox').SandboxConfig} SandboxConfig
 * @typedef {import('./pagination').Resource} Resource
 * @typedef {import('./store').Conversation} Conversation
 * @typedef {import('./store').Store} Store
 * @typedef {Record<string, string | string[]>} Query
 *
 * @typedef {object} Ctx
 * @property {Store} store
 * @property {SandboxConfig} config
 * @property {string[]} params  Decoded path parameters.
 * @property {Query} query
 * @property {Record<string, unknown>} body  `{}` when the request had none.
 * @property {boolean} repeat  The `repeat-cursor` fault applies.
 * @property {(query: Query) => string} urlFor  Absolute URL of the requested path with another query.
 *
 * @typedef {{ type: 'record', status: number, record: unknown }
 *   | { type: 'page', page: { body: unknown, headers: Record<string, string> } }
 *   | { type: 'deleted', id: string }} Result
 *
 * @typedef {{ method: string, pattern: RegExp, handle: (ctx: Ctx) => Result }} Route
 */

/**
 * @param {Ctx} ctx
 * @param {Resource} resource
 * @param {readonly unknown[]} items
 * @param {(item: unknown) => string} keyOf
 * @param {(key: string) => number | undefined} positionOf
 * @returns {Result}
 */
function list(ctx, resource, items, keyOf, positionOf) {
	const { config } = ctx;
	const page = paginate({
		style: config.pagination,
		resource,
		items,
		keyOf,
		positionOf,
		query: ctx.query,
		urlFor: ctx.urlFor,
		pageSize: config.pageSize,
		maxPageSize: config.maxPageSize,
		repeat: ctx.repeat,
	});
	return { type: 'page', page };
}

/** @param {unknown} item */
const idOf = (item) => /** @type {{ id: string }} */ (item).id;

/**
 * @param {unknown} record
 * @param {number} [status]
 * @returns {Result}
 */
const record = (record, status = 200) => ({ type: 'record', status, record });

/**
 * GET /conversations with the optional `status` (one or a comma list) and `user_id` filters.
 * @param {Ctx} ctx
 */
function listConversations(ctx) {
	const { store, query } = ctx;
	const one = (/** @type {string} */ name) => {
		const v = query[name];
		return Array.isArray(v) ? v.join(',') : v;
	};
	const statusParam = one('status');
	const userId = one('user_id');
	if (!statusParam && !userId) {
		return list(ctx, 'conversations', store.state.conversations, idOf, (id) =>
			store.conversationIndex.get(id),
		);
	}
	const statuses = statusParam
		? statusParam
				.split(',')
				.map((s) => s.trim())
				.filter(Boolean)
		: [];
	for (const s of statuses) {
		if (!CONVERSATION_STATUSES.includes(/** @type {Conversation['status']} */ (s))) {
			throw new SandboxError(
				422,
				`status must be one of ${CONVERSATION_STATUSES.join(', ')}`,
				'status',
			);
		}
	}
	const filtered = store.state.conversations.filter(
		(c) =>
			(statuses.length === 0 || statuses.includes(c.status)) && (!userId || c.user_id === userId),
	);
	/** @type {Map<string, number> | undefined} */
	let index;
	return list(ctx, 'conversations', filtered, idOf, (id) => {
		index ??= new Map(filtered.map((c, i) => [c.id, i]));
		return index.get(id);
	});
}

/** @type {Route[]} */
const ROUTES = [
	{
		method: 'GET',
		pattern: /^\/users$/,
		handle: (ctx) =>
			list(ctx, 'users', ctx.store.state.users, idOf, (id) => ctx.store.userIndex.get(id)),
	},
	{
		method: 'POST',
		pattern: /^\/users$/,
		handle: (ctx) => record(ctx.store.createUser(ctx.body, 'api'), 201),
	},
	{
		method: 'GET',
		pattern: /^\/users\/([^/]+)$/,
		handle: (ctx) => record(ctx.store.getUser(ctx.params[0])),
	},
	{
		method: 'PUT',
		pattern: /^\/users\/([^/]+)$/,
		handle: (ctx) => record(ctx.store.updateUser(ctx.params[0], ctx.body, 'api')),
	},
	{
		method: 'DELETE',
		pattern: /^\/users\/([^/]+)$/,
		handle: (ctx) => ({ type: 'deleted', id: ctx.store.deleteUser(ctx.params[0], 'api').id }),
	},
	{ method: 'GET', pattern: /^\/conversations$/, handle: listConversations },
	{
		method: 'POST',
		pattern: /^\/conversations$/,
		handle: (ctx) => record(ctx.store.createConversation(ctx.body, 'api').conversation, 201),
	},
	{
		method: 'GET',
		pattern: /^\/conversations\/([^/]+)$/,
		handle: (ctx) => record(ctx.store.getConversation(ctx.params[0])),
	},
	{
		method: 'POST',
		pattern: /^\/conversations\/([^/]+)\/assign$/,
		handle: (ctx) => record(ctx.store.assignConversation(ctx.params[0], ctx.body, 'api')),
	},
	{
		method: 'POST',
		pattern: /^\/conversations\/([^/]+)\/close$/,
		handle: (ctx) => record(ctx.store.closeConversation(ctx.params[0], 'api')),
	},
	{
		method: 'POST',
		pattern: /^\/messages$/,
		handle: (ctx) => record(ctx.store.addMessage(ctx.body, 'api'), 201),
	},
	{
		method: 'POST',
		pattern: /^\/tags$/,
		// 201 when the tag was applied, 200 when the user already had it.
		handle: (ctx) => {
			const { user, added } = ctx.store.applyTag(ctx.body, 'api');
			return record(user, added ? 201 : 200);
		},
	},
	{
		method: 'GET',
		pattern: /^\/tags$/,
		handle: (ctx) => {
			const { store } = ctx;
			if (ctx.config.tagShape === 'strings') {
				const names = store.state.tags.map((t) => t.name);
				return list(
					ctx,
					'tags',
					names,
					(name) => String(name),
					(name) => store.tagNameIndex.get(name),
				);
			}
			return list(ctx, 'tags', store.state.tags, idOf, (id) => store.tagIdIndex.get(id));
		},
	},
];

/**
 * @param {string} method
 * @param {string} path  Without the prefix and trailing slashes.
 * @returns {{ route: Route, params: string[] } | { allowed: string[] } | undefined}
 */
function matchRoute(method, path) {
	/** @type {string[]} */
	const allowed = [];
	for (const route of ROUTES) {
		const m = route.pattern.exec(path);
		if (!m) continue;
		if (route.method === method) {
			const params = m.slice(1).map((p) => {
				try {
					return decodeURIComponent(p);
				} catch {
					return p;
				}
			});
			return { route, params };
		}
		allowed.push(route.method);
	}
	return allowed.length > 0 ? { allowed } : undefined;
}

module.exports = { ROUTES, matchRoute };
