// @ts-check
'use strict';

const { USER_TYPES, productId } = require('./supportBoardRecords');
const { empty, hashPassword, isNumeric, post } = require('./supportBoardPhp');
const { fatal, ok, refused } = require('./supportBoardResult');

/**
 * The user functions of the Web API, as users.php answers them through api.php.
 * @typedef {import('./supportBoardResult').CallContext} CallContext
 * @typedef {import('./supportBoardResult').Outcome} Outcome
 * @typedef {import('./supportBoardRecords').Extra} Extra
 * @typedef {import('./store').User} User
 */

const PAGE = 100;
const MAIN_FIELDS = [
	'id',
	'first_name',
	'last_name',
	'email',
	'profile_image',
	'user_type',
	'creation_time',
	'last_activity',
	'department',
];
const SETTINGS = /** @type {const} */ ([
	'first_name',
	'last_name',
	'email',
	'profile_image',
	'password',
	'user_type',
	'department',
]);

/** api.php decodes these arguments when they come as JSON text; text that is not JSON becomes null. @param {unknown} v */
function jsonArgument(v) {
	if (typeof v !== 'string' || v === '') return v;
	try {
		return JSON.parse(v);
	} catch {
		return null;
	}
}

/** `sb_string_slug($slug, 'string')`: `postal_code` → `Postal code`. @param {string} slug */
const label = (slug) => {
	const text = slug.replace(/[-_]+/g, ' ').trim();
	return text.charAt(0).toUpperCase() + text.slice(1);
};

/**
 * An `extra` / `settings_extra` argument as [value, label] pairs; a bare value gets its slug as label.
 * @param {unknown} raw
 * @returns {Extra}
 */
function extraPairs(raw) {
	/** @type {Extra} */
	const out = {};
	if (typeof raw !== 'object' || raw === null) return out;
	for (const [slug, v] of Object.entries(raw)) {
		const pair = Array.isArray(v) ? v : [v, label(slug)];
		out[slug] = [
			pair[0] === null || pair[0] === undefined ? '' : String(pair[0]),
			String(pair[1] ?? label(slug)),
		];
	}
	return out;
}

/** MySQL's case-insensitive collation. @param {unknown} a @param {unknown} b */
const same = (a, b) =>
	typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/** @param {CallContext} ctx @param {string} phone @param {User} [except] */
function findByPhone(ctx, phone, except) {
	const alt = phone.includes('+') ? phone.replace(/\+/g, '00') : `+${phone}`;
	return ctx.store.state.users.find((u) => u !== except && (u.phone === phone || u.phone === alt));
}

/** @param {CallContext} ctx @returns {Outcome} */
function getUsers(ctx) {
	const { data, params } = ctx;
	const sorting = post(params, 'sorting', ['creation_time', 'DESC']);
	const field = Array.isArray(sorting) ? String(sorting[0]) : '';
	const direction = Array.isArray(sorting) ? String(sorting[1] ?? '').toUpperCase() : 'ASC';
	if (MAIN_FIELDS.includes(field) && direction !== 'ASC' && direction !== 'DESC')
		return fatal(`sorting direction ${direction} is no SQL`);
	const types = jsonArgument(post(params, 'user_types', []));
	const typeList = Array.isArray(types) ? types.map(String) : [];
	const search = post(params, 'search', '');
	const found = search ? new Set(searchUsers(ctx, String(search)).map((u) => u.id)) : null;
	if (found && found.size === 0) return ok([]);
	const ids = post(params, 'users_id', false);
	const idList = Array.isArray(ids)
		? new Set(ids.map((id) => `u_${String(id).padStart(4, '0')}`))
		: null;
	let users = ctx.store.state.users.filter((u) => {
		const type = data.userType(u);
		return (
			type !== 'bot' &&
			(typeList.length === 0 || typeList.includes(type)) &&
			(!found || found.has(u.id)) &&
			(!idList || idList.has(u.id))
		);
	});
	let rows = users.map((u) => data.userRow(u));
	if (MAIN_FIELDS.includes(field)) {
		const key = /** @type {keyof (typeof rows)[number]} */ (field);
		const sign = direction === 'DESC' ? -1 : 1;
		const value = (/** @type {(typeof rows)[number]} */ r) =>
			field === 'id' ? Number(r.id) : r[key] === null ? null : String(r[key]).toLowerCase();
		const order = rows.map((r, i) => ({ r, i, v: value(r) }));
		order.sort(
			(a, b) =>
				(a.v === b.v ? 0 : a.v === null ? -sign : b.v === null ? sign : a.v < b.v ? -sign : sign) ||
				a.i - b.i,
		);
		rows = order.map((o) => o.r);
	}
	const page = Number(post(params, 'pagination', 0));
	const start = (Number.isInteger(page) && page > 0 ? page : 0) * PAGE;
	const slice = rows.slice(start, start + PAGE);
	if (post(params, 'extra', false)) {
		return ok(
			slice.map((r) => {
				const extra = Object.fromEntries(
					Object.entries(data.extra(/** @type {User} */ (data.user(r.id)))).map(([slug, [v]]) => [
						slug,
						v,
					]),
				);
				return { ...r, extra: Object.keys(extra).length > 0 ? extra : [] };
			}),
		);
	}
	return ok(slice);
}

/** @param {CallContext} ctx @param {string} text @returns {User[]} */
function searchUsers(ctx, text) {
	const words = text.trim().split(' ').filter(Boolean);
	if (words.length === 0) words.push('');
	const like = (/** @type {unknown} */ v, /** @type {string} */ w) =>
		typeof v === 'string' && v.toLowerCase().includes(w.toLowerCase());
	return ctx.store.state.users.filter((u) => {
		if (ctx.data.userType(u) === 'bot') return false;
		const { first, last } = ctx.data.names(u);
		if (words.some((w) => like(first, w) || like(last, w))) return true;
		return (
			like(u.email, words[0]) || Object.values(ctx.data.extra(u)).some(([v]) => like(v, words[0]))
		);
	});
}

/** @param {CallContext} ctx @returns {Outcome} */
function getUser(ctx) {
	const id = ctx.params.user_id;
	if (empty(id)) return ok(false);
	if (!isNumeric(id)) return fatal('user_id is not numeric');
	const user = ctx.data.user(id);
	if (!user) return ok(false);
	const row = ctx.data.userWithPassword(user);
	return ok(post(ctx.params, 'extra', false) ? { ...row, details: ctx.data.details(user) } : row);
}

/**
 * get-user-extra: with a `slug`, that field's value (`default`, else false, when the user has none);
 * without, every field as `[{ slug, name, value }]`.
 * @param {CallContext} ctx @returns {Outcome}
 */
function getUserExtra(ctx) {
	const id = ctx.params.user_id;
	if (empty(id)) return ok(false);
	const user = isNumeric(id) ? ctx.data.user(id) : undefined;
	const rows = user ? ctx.data.details(user) : [];
	const slug = post(ctx.params, 'slug', false);
	if (slug === false) return ok(rows);
	const row = rows.find((r) => r.slug === slug);
	return ok(row ? row.value : post(ctx.params, 'default', false));
}

/** @param {CallContext} ctx @returns {Outcome} */
function getUserBy(ctx) {
	const by = String(ctx.params.by);
	const value = ctx.params.value;
	if (empty(value)) return ok(false);
	const v = String(value);
	const users = ctx.store.state.users;
	/** @type {User | undefined} */
	let found;
	if (by === 'email') found = users.find((u) => same(u.email, v));
	else if (by === 'first_name' || by === 'last_name')
		found = users.find((u) => same(ctx.data.names(u)[by === 'first_name' ? 'first' : 'last'], v));
	else if (by === 'phone') found = findByPhone(ctx, v);
	else found = users.find((u) => ctx.data.extra(u)[by]?.[0] === v);
	// No row: sb_db_get answers its empty default, a string.
	return ok(found ? ctx.data.userRow(found) : '');
}

/** @param {CallContext} ctx @returns {Outcome} */
function search(ctx) {
	return ok(searchUsers(ctx, String(ctx.params.search)).map((u) => ctx.data.userTableRow(u)));
}

/**
 * The arguments add-user and update-user read: the settings, each a string (a list gives its first entry).
 * @param {CallContext} ctx
 */
function settingsOf(ctx) {
	/** @type {Partial<Record<(typeof SETTINGS)[number], string>>} */
	const s = {};
	for (const key of SETTINGS) {
		const v = ctx.params[key];
		if (v === undefined || v === null) continue;
		s[key] = Array.isArray(v) ? String(v[0] ?? '').trim() : String(v);
	}
	return s;
}

/** @param {string} first */
const splitName = (first) => {
	const space = first.indexOf(' ');
	return space > 0 ? [first.slice(0, space).trim(), first.slice(space).trim()] : [first, ''];
};

/** @param {CallContext} ctx @returns {Outcome} */
function addUser(ctx) {
	const s = settingsOf(ctx);
	const extra = extraPairs(jsonArgument(post(ctx.params, 'extra', {})));
	const email = s.email ?? '';
	if (email && ctx.store.state.users.some((u) => same(u.email, email)))
		return refused('duplicate-email');
	const phone = extra.phone?.[0];
	if (phone && findByPhone(ctx, phone)) return refused('duplicate-phone');
	let first = s.first_name ?? '';
	let last = s.last_name ?? '';
	if (!first) {
		first = 'User';
		last = `#${Math.floor(Math.random() * 100000)}`;
	}
	const type = s.user_type || (email ? 'user' : 'visitor');
	if (!USER_TYPES.includes(/** @type {import('./supportBoardRecords').UserType} */ (type)))
		return refused('invalid-user-type');
	if (type === 'user' && first && (!last || last.startsWith('#'))) [first, last] = splitName(first);
	const { phone: _phone, ...rest } = extra;
	const own = Object.fromEntries(Object.entries(rest).filter(([, [v]]) => v && v !== 'null'));
	const user = ctx.store.createUser(
		{
			name: `${first} ${last}`.trim(),
			email: email || null,
			phone: phone && phone !== 'null' ? phone : null,
			first_name: first,
			last_name: last,
			user_type: type,
			password: s.password ? hashPassword(s.password) : '',
			department: s.department && isNumeric(s.department) ? s.department : null,
			...(s.profile_image ? { profile_image: s.profile_image } : {}),
			extra: own,
		},
		'api',
	);
	return ok(Number(productId(user.id)));
}

/** @param {CallContext} ctx @returns {Outcome} */
function updateUser(ctx) {
	const id = ctx.params.user_id;
	if (!isNumeric(id)) return fatal('user_id is not numeric');
	const s = settingsOf(ctx);
	const extra = extraPairs(jsonArgument(post(ctx.params, 'settings_extra', {})));
	const user = ctx.data.user(id);
	const email = s.email ? s.email.trim() : '';
	if (email && ctx.store.state.users.some((u) => u !== user && same(u.email, email)))
		return refused('duplicate-email');
	if (extra.phone?.[0] && findByPhone(ctx, extra.phone[0], user)) return refused('duplicate-phone');
	/** @type {Record<string, unknown>} */
	const patch = {};
	if (email) patch.email = email;
	if (s.user_type) patch.user_type = s.user_type;
	if (s.profile_image) patch.profile_image = s.profile_image;
	let first = (s.first_name ?? '').trim();
	let last = (s.last_name ?? '').trim();
	if (first) {
		if (!last || last.startsWith('#')) [first, last] = splitName(first);
		patch.first_name = first.charAt(0).toUpperCase() + first.slice(1);
	}
	if (last || patch.first_name) patch.last_name = last.charAt(0).toUpperCase() + last.slice(1);
	if (s.password && s.password !== '********') patch.password = hashPassword(s.password);
	if (s.department !== undefined) patch.department = s.department === '' ? null : s.department;
	const written = Object.keys(patch).length > 0;
	if (!user) return ok(written);
	if (patch.first_name !== undefined || patch.last_name !== undefined) {
		const names = ctx.data.names(user);
		patch.name = `${patch.first_name ?? names.first} ${patch.last_name ?? names.last}`.trim();
	}
	const own = { .../** @type {Extra} */ (user.extra ?? {}) };
	for (const [slug, pair] of Object.entries(extra)) {
		if (SETTINGS.includes(/** @type {never} */ (slug))) continue;
		if (slug === 'phone') patch.phone = pair[0] || null;
		else if (pair[0] === '') delete own[slug];
		else own[slug] = pair;
	}
	if (Object.keys(extra).length > 0) patch.extra = own;
	if (Object.keys(patch).length > 0) ctx.store.updateUser(user.id, patch, 'api');
	return ok(written);
}

/** @param {CallContext} ctx @returns {Outcome} */
function deleteUser(ctx) {
	const id = ctx.params.user_id;
	if (!isNumeric(id)) return fatal('user_id is not numeric');
	const user = ctx.data.user(id);
	if (user) removeUser(ctx, user);
	return ok(true);
}

/**
 * Deletes the user and, as the database's foreign keys do, their conversations and messages; their
 * assignments are cleared.
 * @param {{ store: import('./store').Store }} ctx
 * @param {User} user
 */
function removeUser({ store }, user) {
	const s = store.state;
	const gone = new Set(s.conversations.filter((c) => c.user_id === user.id).map((c) => c.id));
	for (const c of s.conversations) if (c.assignee_id === user.id) c.assignee_id = null;
	const kept = s.conversations.filter((c) => !gone.has(c.id));
	s.conversations.length = 0;
	s.conversations.push(...kept);
	store.conversationIndex.clear();
	kept.forEach((c, i) => store.conversationIndex.set(c.id, i));
	const messages = s.messages.filter((m) => !gone.has(m.conversation_id));
	s.messages.length = 0;
	s.messages.push(...messages);
	store.deleteUser(user.id, 'api');
}

/** @param {CallContext} ctx @returns {Outcome} */
function getNewUsers(ctx) {
	const since = ctx.params.datetime;
	const byId = isNumeric(since);
	const rows = ctx.store.state.users
		.filter((u) => ctx.data.userType(u) !== 'bot')
		.map((u) => ctx.data.userRow(u))
		.filter((r) => (byId ? Number(r.id) > Number(since) : r.creation_time > String(since)));
	return ok(rows.sort((a, b) => Number(b.id) - Number(a.id)));
}

/** @type {Record<string, (ctx: CallContext) => Outcome>} */
const USER_FUNCTIONS = {
	'get-users': getUsers,
	'get-user': getUser,
	'get-user-by': getUserBy,
	'get-user-extra': getUserExtra,
	'search-users': search,
	'add-user': addUser,
	'update-user': updateUser,
	'delete-user': deleteUser,
	'get-new-users': getNewUsers,
};

module.exports = { USER_FUNCTIONS, removeUser, jsonArgument };
