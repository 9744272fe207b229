// @ts-check
'use strict';

const crypto = require('node:crypto');
const { hashPassword, isNumeric, sqlTime } = require('./supportBoardPhp');

/**
 * The sandbox's store seen as Support Board's tables. Records keep the store's ids (`u_0008`) and the
 * product's id is their number (`"8"`), so seeding, the control API and the request log work unchanged.
 * Product fields live on the store's records (`first_name`, `user_type`, `status_code`, …); a record made
 * without them (seeded, or by the REST-style control routes) gets them derived when read.
 *
 * @typedef {import('./store').Store} Store
 * @typedef {import('./store').User} User
 * @typedef {import('./store').Conversation} Conversation
 * @typedef {import('./store').Message} Message
 * @typedef {'visitor' | 'lead' | 'user' | 'agent' | 'admin' | 'bot'} UserType
 * @typedef {Record<string, [string, string]>} Extra Extra fields by slug: [value, label].
 * @typedef {{ admin: User, agent: User, bot: User }} Staff
 */

const USER_TYPES = Object.freeze(
	/** @type {const} */ (['visitor', 'user', 'lead', 'agent', 'admin', 'bot']),
);
/** The install predates every seeded record. */
const INSTALL_TIME = '2023-12-31T00:00:00.000Z';
const STATUS_OF = /** @type {const} */ ({ active: 0, pending: 2, closed: 3 });

/** @param {string} storeId `u_0008` → `"8"` */
const productId = (storeId) => String(Number(storeId.slice(2)));

/** @param {number} n */
const pad = (n) => String(n).padStart(4, '0');

/**
 * The store id for a product id given by a client (`8`, `"8"`), or null when it is no number.
 * @param {'u' | 'c' | 'm'} prefix
 * @param {unknown} id
 */
function storeId(prefix, id) {
	if (!isNumeric(id) || !Number.isInteger(Number(id)) || Number(id) < 1) return null;
	return `${prefix}_${pad(Number(id))}`;
}

class SupportBoardData {
	/**
	 * @param {{ store: Store, installUrl: () => string, adminToken: () => string }} options
	 */
	constructor({ store, installUrl, adminToken }) {
		this.store = store;
		this.installUrl = installUrl;
		this.adminToken = adminToken;
		/** @type {Staff | null} */
		this.staff = null;
		/** Conversation notes by the conversation id as given (the product's `notes-{id}` settings). @type {Map<string, Record<string, unknown>[]>} */
		this.notes = new Map();
	}

	/** After every seed: the admin owning the API token, an agent and the bot, as a fresh install has them. */
	addStaff() {
		const make = (
			/** @type {string} */ first,
			/** @type {string} */ last,
			/** @type {UserType} */ type,
			/** @type {string | null} */ email,
		) => {
			const id = `u_${pad(++this.store.counters.user)}`;
			/** @type {User} */
			const user = {
				id,
				name: `${first} ${last}`,
				email,
				phone: null,
				tags: [],
				first_name: first,
				last_name: last,
				user_type: type,
				created_at: INSTALL_TIME,
				updated_at: INSTALL_TIME,
			};
			this.store.userIndex.set(id, this.store.state.users.length);
			this.store.state.users.push(user);
			return user;
		};
		const admin = make('Sam', 'Admin', 'admin', 'admin@example.com');
		admin.password = hashPassword('admin-password');
		const agent = make('Alex', 'Agent', 'agent', 'agent@example.com');
		const bot = make('Bot', '', 'bot', null);
		this.staff = { admin, agent, bot };
		this.notes.clear();
	}

	get admin() {
		return /** @type {Staff} */ (this.staff).admin;
	}

	/** @param {unknown} id */
	user(id) {
		const key = storeId('u', id);
		const at = key === null ? undefined : this.store.userIndex.get(key);
		return at === undefined ? undefined : this.store.state.users[at];
	}

	/** @param {unknown} id */
	conversation(id) {
		const key = storeId('c', id);
		const at = key === null ? undefined : this.store.conversationIndex.get(key);
		return at === undefined ? undefined : this.store.state.conversations[at];
	}

	/** @param {User} u @returns {UserType} */
	userType(u) {
		const t = /** @type {UserType | undefined} */ (u.user_type);
		return t ?? (u.email ? 'user' : 'visitor');
	}

	/** @param {User} u */
	names(u) {
		if (typeof u.first_name === 'string')
			return { first: u.first_name, last: String(u.last_name ?? '') };
		const name = (u.name ?? '').trim();
		if (name === '') return { first: 'User', last: `#${(Number(u.id.slice(2)) * 7919) % 100000}` };
		const space = name.indexOf(' ');
		return space > 0
			? { first: name.slice(0, space), last: name.slice(space + 1).trim() }
			: { first: name, last: '' };
	}

	/** @param {User} u */
	token(u) {
		if (this.staff && u.id === this.staff.admin.id) return this.adminToken();
		if (typeof u.token === 'string') return u.token;
		return crypto.createHash('sha1').update(`sandbox-user-token:${u.id}`).digest('hex');
	}

	/** @param {User} u @returns {Extra} */
	extra(u) {
		const own = /** @type {Extra | undefined} */ (u.extra) ?? {};
		return u.phone ? { ...own, phone: [u.phone, own.phone?.[1] ?? 'Phone'] } : own;
	}

	/** A row of `SELECT_FROM_USERS`: what get-users, get-new-users and get-user-by answer. @param {User} u */
	userRow(u) {
		const { first, last } = this.names(u);
		return {
			id: productId(u.id),
			first_name: first,
			last_name: last,
			email: u.email ?? null,
			profile_image:
				typeof u.profile_image === 'string'
					? u.profile_image
					: `${this.installUrl()}/media/user.svg`,
			user_type: this.userType(u),
			creation_time: sqlTime(u.created_at),
			last_activity: sqlTime(typeof u.last_activity === 'string' ? u.last_activity : u.created_at),
			department: u.department === undefined || u.department === null ? null : String(u.department),
			token: this.token(u),
		};
	}

	/** get-user: the row and the password hash (`""` when none was set). @param {User} u */
	userWithPassword(u) {
		return { ...this.userRow(u), password: typeof u.password === 'string' ? u.password : '' };
	}

	/** search-users answers `SELECT *`: the table's columns in its order. @param {User} u */
	userTableRow(u) {
		const r = this.userRow(u);
		return {
			id: r.id,
			first_name: r.first_name,
			last_name: r.last_name,
			password: typeof u.password === 'string' ? u.password : '',
			email: r.email,
			profile_image: r.profile_image,
			user_type: r.user_type,
			creation_time: r.creation_time,
			token: r.token,
			last_activity: r.last_activity,
			typing: '-1',
			department: r.department,
		};
	}

	/** `details` of get-user with extra: [{ slug, name, value }], slugs in alphabetical order as the table gives them. @param {User} u */
	details(u) {
		return Object.entries(this.extra(u))
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
			.map(([slug, [value, name]]) => ({ slug, name, value }));
	}

	/** @param {Conversation} c @returns {number} */
	statusCode(c) {
		return typeof c.status_code === 'number' ? c.status_code : STATUS_OF[c.status];
	}

	/** The assigned agent's store id: a seeded `agent_3` stands for the sandbox's agent. @param {Conversation} c */
	agentId(c) {
		const a = c.assignee_id;
		if (a === null || a === undefined) return null;
		return this.store.userIndex.has(a) ? a : /** @type {Staff} */ (this.staff).agent.id;
	}

	/** The sender's store id: seeded messages name only a type. @param {Message} m @param {Conversation} c */
	senderId(m, c) {
		const own = /** @type {string | undefined} */ (
			/** @type {Record<string, unknown>} */ (m).user_id
		);
		if (own) return own;
		if (m.type === 'user' && c.user_id) return c.user_id;
		return this.agentId(c) ?? this.admin.id;
	}

	/** @param {Message} m @param {string} field @returns {string} */
	messageField(m, field) {
		const v = /** @type {Record<string, unknown>} */ (m)[field];
		return typeof v === 'string' ? v : '';
	}

	/** A message of get-conversation / get-new-messages. @param {Message} m @param {Conversation} c */
	messageRow(m, c) {
		const sender = this.store.state.users[this.store.userIndex.get(this.senderId(m, c)) ?? -1];
		const s = sender ? this.userRow(sender) : null;
		return {
			id: productId(m.id),
			user_id: productId(this.senderId(m, c)),
			message: m.message,
			creation_time: sqlTime(m.created_at),
			status_code: '0',
			attachments: this.messageField(m, 'attachments'),
			payload: this.messageField(m, 'payload'),
			conversation_id: productId(c.id),
			first_name: s?.first_name ?? null,
			last_name: s?.last_name ?? null,
			profile_image: s?.profile_image ?? null,
			user_type: s?.user_type ?? null,
		};
	}

	/**
	 * get-conversation's `details`. An agent (the API's admin) sees tags as a list and the notes; the widget
	 * sees the raw tags text and no notes.
	 * @param {Conversation} c
	 * @param {{ agentView: boolean }} view
	 */
	conversationDetails(c, view) {
		const owner = c.user_id
			? this.store.state.users[this.store.userIndex.get(c.user_id) ?? -1]
			: undefined;
		const u = owner ? this.userRow(owner) : null;
		const agent = this.agentId(c);
		const tags = typeof c.sb_tags === 'string' && c.sb_tags !== '' ? c.sb_tags : null;
		/** @type {Record<string, unknown>} */
		const details = {
			user_id: c.user_id ? productId(c.user_id) : null,
			first_name: u?.first_name ?? null,
			last_name: u?.last_name ?? null,
			profile_image: u?.profile_image ?? null,
			user_type: u?.user_type ?? null,
			id: productId(c.id),
			title: typeof c.subject === 'string' ? c.subject : '',
			creation_time: sqlTime(c.created_at),
			status_code: String(this.statusCode(c)),
			department: c.department === undefined || c.department === null ? null : String(c.department),
			agent_id: agent ? productId(agent) : null,
			source: typeof c.source === 'string' ? c.source : '',
			extra: typeof c.extra === 'string' && c.extra !== '' ? c.extra : null,
			// A channel's conversation keeps more here: Telegram's keeps its bot's token in extra_3.
			extra_2: typeof c.extra_2 === 'string' && c.extra_2 !== '' ? c.extra_2 : null,
			extra_3: typeof c.extra_3 === 'string' && c.extra_3 !== '' ? c.extra_3 : null,
			tags: view.agentView ? (tags ? tags.split(',') : []) : tags,
			busy: false,
		};
		if (view.agentView) details.notes = this.notes.get(productId(c.id)) ?? [];
		return details;
	}

	/** @param {Conversation} c */
	messagesOf(c) {
		return this.store.state.messages.filter((m) => m.conversation_id === c.id);
	}

	/** get-conversation / new-conversation: `{ messages, details }`. @param {Conversation} c @param {{ agentView: boolean }} view */
	conversationObject(c, view) {
		return {
			messages: this.messagesOf(c).map((m) => this.messageRow(m, c)),
			details: this.conversationDetails(c, view),
		};
	}
}

module.exports = { SupportBoardData, USER_TYPES, INSTALL_TIME, productId, storeId, pad };
