// @ts-check
'use strict';

const { EventEmitter } = require('node:events');
const { SandboxError } = require('./errors');

const CONVERSATION_STATUSES = Object.freeze(/** @type {const} */ (['active', 'pending', 'closed']));
/** @typedef {(typeof CONVERSATION_STATUSES)[number]} ConversationStatus */

/**
 * The records. User and Conversation keep fields a client set beyond the known ones.
 * @typedef {{
 *   id: string,
 *   name: string | null,
 *   email: string | null,
 *   phone: string | null,
 *   tags: string[],
 *   created_at: string,
 *   updated_at: string,
 *   [field: string]: unknown,
 * }} User
 * @typedef {{
 *   id: string,
 *   user_id: string | null,
 *   status: ConversationStatus,
 *   assignee_id: string | null,
 *   subject?: string,
 *   created_at: string,
 *   updated_at: string,
 *   closed_at: string | null,
 *   [field: string]: unknown,
 * }} Conversation
 * @typedef {{ id: string, conversation_id: string, message: string, type: string, created_at: string }} Message
 * @typedef {{ id: string, name: string }} Tag
 */

/**
 * Live arrays: they keep their identity across `seed`, `reset` and every change.
 * @typedef {object} SandboxState
 * @property {User[]} users
 * @property {Conversation[]} conversations
 * @property {Message[]} messages
 * @property {Tag[]} tags
 */

/**
 * @typedef {object} SeedOptions
 * @property {number} [users]
 * @property {number} [conversations]
 * @property {string[]} [tags] The tag list; seeded users carry some of these.
 * @property {number} [messagesPerConversation] Messages in each seeded conversation (default 1).
 */

/**
 * Contact details a visitor left: through the lead form (`captureLead`), or written into a chat message.
 * @typedef {object} Lead
 * @property {string | null} email
 * @property {string | null} phone
 * @property {'form' | 'message'} via
 */

/** @typedef {'api' | 'visitor' | 'control'} EventSource */

/**
 * What each kind of change carries. leadCaptured: `lead` holds what the visitor left; `message` is the
 * chat message it was found in (via `message`).
 * @typedef {{
 *   userCreated: { user: User },
 *   userUpdated: { user: User, fields: string[] },
 *   userDeleted: { user: User },
 *   conversationCreated: { conversation: Conversation, user: User | null, message: Message | null },
 *   conversationAssigned: { conversation: Conversation, assignee_id: string },
 *   conversationClosed: { conversation: Conversation },
 *   messageCreated: { message: Message, conversation: Conversation },
 *   tagApplied: { user: User, tag: string },
 *   leadCaptured: { user: User, conversation: Conversation | null, lead: Lead, message: Message | null },
 * }} ChangeData
 * @typedef {keyof ChangeData} ChangeKind
 */

/**
 * One state change. `data` holds copies taken when it happened.
 * @typedef {{
 *   [K in ChangeKind]: { id: string, kind: K, at: string, source: EventSource, data: ChangeData[K] }
 * }[ChangeKind]} ChangeEvent
 */

/**
 * @typedef {object} VisitorStart
 * @property {string} [name]
 * @property {string} [email]
 * @property {string} [phone]
 * @property {string} message
 * @property {string} [subject]
 *
 * @typedef {object} VisitorStarted
 * @property {User} user
 * @property {Conversation} conversation
 * @property {Message} message
 * @property {boolean} userCreated False when a user with the same e-mail already existed.
 *
 * @typedef {object} LeadInput At least one of `email` and `phone`.
 * @property {string} [email]
 * @property {string} [name]
 * @property {string} [phone]
 * @property {string} [conversationId]
 *
 * @typedef {Record<string, unknown>} Input
 */

// Seeded records get fixed timestamps so that two runs produce byte-identical data.
const SEED_EPOCH = Date.parse('2024-01-01T00:00:00.000Z');
const FIRST_NAMES = [
	'Ada',
	'Ben',
	'Chloe',
	'David',
	'Elena',
	'Farid',
	'Grace',
	'Hugo',
	'Ines',
	'Jonas',
	'Kira',
	'Liam',
	'Maya',
	'Noah',
	'Olga',
	'Pablo',
	'Quinn',
	'Rosa',
	'Sami',
	'Tara',
];
const LAST_NAMES = [
	'Adams',
	'Berg',
	'Costa',
	'Dubois',
	'Evans',
	'Fischer',
	'Garcia',
	'Hansen',
	'Ito',
	'Jensen',
	'Kowalski',
	'Lopez',
	'Moreau',
	'Novak',
	'Okafor',
	'Petrov',
	'Quist',
	'Rossi',
	'Silva',
	'Tanaka',
];
const FIRST_LOWER = FIRST_NAMES.map((n) => n.toLowerCase());
const LAST_LOWER = LAST_NAMES.map((n) => n.toLowerCase());
const SUBJECTS = [
	'Order status',
	'Billing question',
	'Login problem',
	'Product question',
	'Refund request',
];

/** @param {number} n */
const pad = (n) => String(n).padStart(4, '0');

/** @param {number} n */
const two = (n) => (n < 10 ? `0${n}` : String(n));

/** @type {Map<number, string>} */
const dayPrefixes = new Map();

/**
 * ISO timestamp of a whole second. Seeding 100,000 users calls this for each of them, and
 * `Date#toISOString` was half the seeding time.
 * @param {number} ms
 */
function isoSecond(ms) {
	const day = Math.floor(ms / 86_400_000);
	let prefix = dayPrefixes.get(day);
	if (prefix === undefined) {
		prefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
		dayPrefixes.set(day, prefix);
	}
	const seconds = Math.floor((ms - day * 86_400_000) / 1000);
	return `${prefix}${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}.000Z`;
}

/** @param {unknown} value */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * @param {Input} input
 * @param {string} field
 * @returns {string | null | undefined}
 */
function optionalString(input, field) {
	const value = input[field];
	if (value === undefined || value === null) return /** @type {null | undefined} */ (value);
	if (typeof value !== 'string') throw new SandboxError(422, `${field} must be a string`, field);
	return value;
}

/**
 * A required identifier or text: a non-empty string (a number is taken as its decimal form).
 * @param {Input} input
 * @param {string} field
 */
function requiredString(input, field) {
	const value = input[field];
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		throw new SandboxError(422, `${field} is required`, field);
	}
	if (typeof value !== 'string') throw new SandboxError(422, `${field} must be a string`, field);
	return value;
}

/**
 * @param {Input} input
 * @returns {string[] | undefined}
 */
function tagList(input) {
	const value = input.tags;
	if (value === undefined || value === null) return undefined;
	if (!Array.isArray(value) || value.some((t) => typeof t !== 'string' || t.trim() === '')) {
		throw new SandboxError(422, 'tags must be an array of non-empty strings', 'tags');
	}
	return [...new Set(/** @type {string[]} */ (value))];
}

/** Fields the service owns; a client cannot set them. */
const SERVER_FIELDS = new Set(['id', 'created_at', 'updated_at']);

/**
 * The data and every change to it. Each change goes through `emit`, which is where webhooks hook in.
 * Lists are kept in creation order with an index from id to position, so that cursor pages and
 * lookups cost O(page), not O(n), at 100,000 records.
 */
class Store {
	/** @param {{ now: () => Date }} options */
	constructor({ now }) {
		this.now = now;
		/** @type {EventEmitter<{ change: [ChangeEvent] }>} */
		this.events = new EventEmitter();
		/** @type {SandboxState} */
		this.state = { users: [], conversations: [], messages: [], tags: [] };
		/** @type {Map<string, number>} */
		this.userIndex = new Map();
		/** @type {Map<string, number>} */
		this.conversationIndex = new Map();
		/** @type {Map<string, number>} */
		this.tagIdIndex = new Map();
		/** @type {Map<string, number>} */
		this.tagNameIndex = new Map();
		this.counters = { user: 0, conversation: 0, message: 0, tag: 0, event: 0 };
	}

	/** @param {SeedOptions} [options] */
	seed(options = {}) {
		const users = options.users ?? 0;
		const conversations = options.conversations ?? 0;
		const tags = options.tags ?? [];
		const perConversation = options.messagesPerConversation ?? 1;
		for (const [name, n] of Object.entries({
			users,
			conversations,
			messagesPerConversation: perConversation,
		})) {
			if (!Number.isInteger(n) || n < 0)
				throw new TypeError(`seed.${name} must be a non-negative integer`);
		}
		if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string' || t === '')) {
			throw new TypeError('seed.tags must be an array of non-empty strings');
		}

		const s = this.state;
		s.users.length = 0;
		s.conversations.length = 0;
		s.messages.length = 0;
		s.tags.length = 0;
		this.userIndex.clear();
		this.conversationIndex.clear();
		this.tagIdIndex.clear();
		this.tagNameIndex.clear();
		this.counters = { user: 0, conversation: 0, message: 0, tag: 0, event: 0 };

		for (const tag of tags) this.registerTag(tag);

		for (let i = 1; i <= users; i++) {
			const f = (i - 1) % FIRST_NAMES.length;
			const l = Math.floor((i - 1) / FIRST_NAMES.length) % LAST_NAMES.length;
			const at = isoSecond(SEED_EPOCH + i * 1000);
			const id = `u_${pad(++this.counters.user)}`;
			this.userIndex.set(id, s.users.length);
			s.users.push({
				id,
				name: `${FIRST_NAMES[f]} ${LAST_NAMES[l]}`,
				email: `${FIRST_LOWER[f]}.${LAST_LOWER[l]}.${i}@example.com`,
				phone: `+1555${String(i).padStart(7, '0')}`,
				tags: tags.length > 0 && i % 3 === 0 ? [tags[(i / 3) % tags.length]] : [],
				created_at: at,
				updated_at: at,
			});
		}

		for (let i = 1; i <= conversations; i++) {
			const status = CONVERSATION_STATUSES[(i - 1) % 3];
			const at = SEED_EPOCH + 86_400_000 + i * 60_000;
			const id = `c_${pad(++this.counters.conversation)}`;
			this.conversationIndex.set(id, s.conversations.length);
			s.conversations.push({
				id,
				user_id: users > 0 ? s.users[(i - 1) % users].id : null,
				status,
				assignee_id: status === 'pending' ? null : `agent_${(i % 5) + 1}`,
				subject: SUBJECTS[(i - 1) % SUBJECTS.length],
				created_at: isoSecond(at),
				updated_at: isoSecond(at + 30_000),
				closed_at: status === 'closed' ? isoSecond(at + 30_000) : null,
			});
			for (let k = 0; k < perConversation; k++) {
				s.messages.push({
					id: `m_${pad(++this.counters.message)}`,
					conversation_id: id,
					message:
						k % 2 === 0
							? `Hello, I need help (conversation ${i}, message ${k + 1})`
							: `Happy to help (conversation ${i}, message ${k + 1})`,
					type: k % 2 === 0 ? 'user' : 'agent',
					created_at: isoSecond(at + k * 1000),
				});
			}
		}
	}

	/**
	 * @template {ChangeKind} K
	 * @param {K} kind
	 * @param {ChangeData[K]} data
	 * @param {EventSource} source
	 */
	emit(kind, data, source) {
		// A copy, so that a webhook sent later carries the record as it was at the change.
		const event = /** @type {ChangeEvent} */ ({
			id: `e_${pad(++this.counters.event)}`,
			kind,
			at: this.timestamp(),
			source,
			data: structuredClone(data),
		});
		this.events.emit('change', event);
	}

	timestamp() {
		return this.now().toISOString();
	}

	/** @param {string} name */
	registerTag(name) {
		if (this.tagNameIndex.has(name)) return;
		const id = `t_${pad(++this.counters.tag)}`;
		this.tagIdIndex.set(id, this.state.tags.length);
		this.tagNameIndex.set(name, this.state.tags.length);
		this.state.tags.push({ id, name });
	}

	/** @param {string} id */
	getUser(id) {
		const at = this.userIndex.get(id);
		if (at === undefined) throw new SandboxError(404, `User ${id} not found`);
		return this.state.users[at];
	}

	/** @param {string} id */
	getConversation(id) {
		const at = this.conversationIndex.get(id);
		if (at === undefined) throw new SandboxError(404, `Conversation ${id} not found`);
		return this.state.conversations[at];
	}

	/** @param {string} email */
	findUserByEmail(email) {
		const wanted = email.trim().toLowerCase();
		return this.state.users.find(
			(u) => typeof u.email === 'string' && u.email.toLowerCase() === wanted,
		);
	}

	/** @param {string} phone */
	findUserByPhone(phone) {
		const digits = phone.replace(/[^\d+]/g, '');
		return this.state.users.find(
			(u) => typeof u.phone === 'string' && u.phone.replace(/[^\d+]/g, '') === digits,
		);
	}

	/**
	 * @param {Input} input
	 * @param {EventSource} source
	 */
	createUser(input, source) {
		const name = optionalString(input, 'name') ?? null;
		const email = optionalString(input, 'email') ?? null;
		const phone = optionalString(input, 'phone') ?? null;
		const tags = tagList(input) ?? [];
		const at = this.timestamp();
		// Timestamps are set after the extra fields so that they close the record, as on seeded users.
		const user = /** @type {User} */ ({
			id: `u_${pad(++this.counters.user)}`,
			name,
			email,
			phone,
			tags,
		});
		for (const [key, value] of Object.entries(input)) {
			if (!(key in user) && !SERVER_FIELDS.has(key)) user[key] = value;
		}
		user.created_at = at;
		user.updated_at = at;
		for (const tag of tags) this.registerTag(tag);
		this.userIndex.set(user.id, this.state.users.length);
		this.state.users.push(user);
		this.emit('userCreated', { user }, source);
		return user;
	}

	/**
	 * Merges the given fields; fields the service does not know are stored too.
	 * @param {string} id
	 * @param {Input} patch
	 * @param {EventSource} source
	 */
	updateUser(id, patch, source) {
		const user = this.getUser(id);
		for (const field of ['name', 'email', 'phone']) optionalString(patch, field);
		const tags = tagList(patch);
		const fields = Object.keys(patch).filter((key) => !SERVER_FIELDS.has(key));
		for (const key of fields) user[key] = key === 'tags' ? (tags ?? []) : patch[key];
		for (const tag of tags ?? []) this.registerTag(tag);
		user.updated_at = this.timestamp();
		this.emit('userUpdated', { user, fields }, source);
		return user;
	}

	/**
	 * @param {string} id
	 * @param {EventSource} source
	 */
	deleteUser(id, source) {
		const user = this.getUser(id);
		const at = /** @type {number} */ (this.userIndex.get(id));
		const users = this.state.users;
		users.splice(at, 1);
		this.userIndex.delete(id);
		for (let i = at; i < users.length; i++) this.userIndex.set(users[i].id, i);
		this.emit('userDeleted', { user }, source);
		return user;
	}

	/**
	 * @param {Input} input
	 * @param {EventSource} source
	 * @returns {{ conversation: Conversation, message: Message | null }}
	 */
	createConversation(input, source) {
		const userId = requiredString(input, 'user_id');
		const user = this.getUser(userId);
		const status = input.status ?? 'active';
		if (!CONVERSATION_STATUSES.includes(/** @type {ConversationStatus} */ (status))) {
			throw new SandboxError(
				422,
				`status must be one of ${CONVERSATION_STATUSES.join(', ')}`,
				'status',
			);
		}
		const text = input.message;
		if (text !== undefined && text !== null && (typeof text !== 'string' || text.trim() === '')) {
			throw new SandboxError(422, 'message must be a non-empty string', 'message');
		}
		const subject = optionalString(input, 'subject');
		const at = this.timestamp();
		const conversation = /** @type {Conversation} */ ({
			id: `c_${pad(++this.counters.conversation)}`,
			user_id: user.id,
			status: /** @type {ConversationStatus} */ (status),
			assignee_id: null,
		});
		if (subject !== undefined) conversation.subject = /** @type {string} */ (subject);
		for (const [key, value] of Object.entries(input)) {
			if (
				!(key in conversation) &&
				key !== 'message' &&
				!SERVER_FIELDS.has(key) &&
				key !== 'closed_at'
			) {
				conversation[key] = value;
			}
		}
		conversation.created_at = at;
		conversation.updated_at = at;
		conversation.closed_at = status === 'closed' ? at : null;
		this.conversationIndex.set(conversation.id, this.state.conversations.length);
		this.state.conversations.push(conversation);
		const message = typeof text === 'string' ? this.pushMessage(conversation, text, 'user') : null;
		this.emit('conversationCreated', { conversation, user, message }, source);
		if (message) this.emit('messageCreated', { message, conversation }, source);
		return { conversation, message };
	}

	/**
	 * Clients name the assignee differently; all three names are accepted and stored as `assignee_id`.
	 * @param {string} id
	 * @param {Input} input
	 * @param {EventSource} source
	 */
	assignConversation(id, input, source) {
		const conversation = this.getConversation(id);
		const given = ['assignee_id', 'agent_id', 'assignee'].find((key) => {
			const v = input[key];
			return (
				(typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && Number.isFinite(v))
			);
		});
		if (!given)
			throw new SandboxError(422, 'assignee_id (or agent_id, assignee) is required', 'assignee_id');
		const assignee = String(input[given]);
		conversation.assignee_id = assignee;
		if (conversation.status === 'pending') conversation.status = 'active';
		conversation.updated_at = this.timestamp();
		this.emit('conversationAssigned', { conversation, assignee_id: assignee }, source);
		return conversation;
	}

	/**
	 * Closing a closed conversation answers the same record and emits nothing.
	 * @param {string} id
	 * @param {EventSource} source
	 */
	closeConversation(id, source) {
		const conversation = this.getConversation(id);
		if (conversation.status === 'closed' && conversation.closed_at) return conversation;
		const at = this.timestamp();
		conversation.status = 'closed';
		conversation.closed_at = at;
		conversation.updated_at = at;
		this.emit('conversationClosed', { conversation }, source);
		return conversation;
	}

	/**
	 * @param {Conversation} conversation
	 * @param {string} text
	 * @param {string} type
	 */
	pushMessage(conversation, text, type) {
		const at = this.timestamp();
		/** @type {Message} */
		const message = {
			id: `m_${pad(++this.counters.message)}`,
			conversation_id: conversation.id,
			message: text,
			type,
			created_at: at,
		};
		this.state.messages.push(message);
		conversation.updated_at = at;
		return message;
	}

	/**
	 * @param {Input} input
	 * @param {EventSource} source
	 */
	addMessage(input, source) {
		const conversationId = requiredString(input, 'conversation_id');
		const text = requiredString(input, 'message');
		const type = requiredString(input, 'type');
		const conversation = this.getConversation(conversationId);
		const message = this.pushMessage(conversation, text, type);
		this.emit('messageCreated', { message, conversation }, source);
		return message;
	}

	/**
	 * @param {Input} input
	 * @param {EventSource} source
	 * @returns {{ user: User, added: boolean }}
	 */
	applyTag(input, source) {
		const userId = requiredString(input, 'user_id');
		const tag = requiredString(input, 'tag').trim();
		const user = this.getUser(userId);
		this.registerTag(tag);
		if (user.tags.includes(tag)) return { user, added: false };
		user.tags.push(tag);
		user.updated_at = this.timestamp();
		this.emit('tagApplied', { user, tag }, source);
		return { user, added: true };
	}

	/**
	 * A visitor opens the chat widget: the user is found by e-mail or created, and the conversation
	 * waits for an agent (`pending`) with the visitor's first message.
	 * @param {VisitorStart} input
	 * @returns {VisitorStarted}
	 */
	visitorStart(input) {
		if (!isObject(input)) throw new SandboxError(422, 'a visitor start needs an object', 'message');
		const raw = /** @type {Input} */ (/** @type {unknown} */ (input));
		const text = requiredString(raw, 'message');
		const email = optionalString(raw, 'email');
		let user = email ? this.findUserByEmail(email) : undefined;
		const userCreated = !user;
		if (!user) {
			const name = optionalString(raw, 'name') ?? `Visitor ${this.counters.user + 1}`;
			user = this.createUser(
				{ name, email: email ?? null, phone: optionalString(raw, 'phone') ?? null },
				'visitor',
			);
		}
		/** @type {Input} */
		const start = { user_id: user.id, status: 'pending', message: text };
		if (typeof input.subject === 'string') start.subject = input.subject;
		const { conversation, message } = this.createConversation(start, 'visitor');
		this.leadFromMessage(conversation, /** @type {Message} */ (message));
		return { user, conversation, message: /** @type {Message} */ (message), userCreated };
	}

	/**
	 * @param {string} conversationId
	 * @param {string} text
	 */
	visitorSay(conversationId, text) {
		const message = this.addMessage(
			{ conversation_id: conversationId, message: text, type: 'user' },
			'visitor',
		);
		this.leadFromMessage(this.getConversation(conversationId), message);
		return message;
	}

	/**
	 * A visitor who writes an e-mail address or a +phone number into the chat leaves a lead: the
	 * conversation's user gets the fields it lacks, and `leadCaptured` is emitted when something new
	 * was written. Returns the updated user, or undefined when the text held nothing new.
	 * @param {Conversation} conversation
	 * @param {Message} message
	 * @returns {User | undefined}
	 */
	leadFromMessage(conversation, message) {
		const found = findContact(message.message);
		if (!found.email && !found.phone) return undefined;
		const user =
			conversation.user_id && this.userIndex.has(conversation.user_id)
				? this.getUser(conversation.user_id)
				: undefined;
		if (!user) return undefined;
		const sameEmail =
			!found.email || (user.email ?? '').toLowerCase() === found.email.toLowerCase();
		const samePhone = !found.phone || user.phone === found.phone;
		if (sameEmail && samePhone) return undefined;
		/** @type {Input} */
		const fill = {};
		if (found.email && !user.email) fill.email = found.email;
		if (found.phone && !user.phone) fill.phone = found.phone;
		const updated = Object.keys(fill).length > 0 ? this.updateUser(user.id, fill, 'visitor') : user;
		this.emit(
			'leadCaptured',
			{
				user: updated,
				conversation,
				lead: { email: found.email, phone: found.phone, via: 'message' },
				message,
			},
			'visitor',
		);
		return updated;
	}

	/**
	 * Lead capture: the visitor leaves contact details (an e-mail address, a phone number or both). The
	 * user with that e-mail (or else that phone) is updated, or the anonymous user of the given
	 * conversation gets them, or a user is created.
	 * @param {LeadInput} input
	 * @returns {{ user: User, created: boolean }}
	 */
	captureLead(input) {
		if (!isObject(input)) throw new SandboxError(422, 'email or phone is required', 'email');
		const raw = /** @type {Input} */ (/** @type {unknown} */ (input));
		const email = optionalString(raw, 'email')?.trim() || null;
		const phone = optionalString(raw, 'phone')?.trim() || null;
		if (!email && !phone) throw new SandboxError(422, 'email or phone is required', 'email');
		/** @type {Input} */
		const details = {};
		if (email) details.email = email;
		if (phone) details.phone = phone;
		const name = optionalString(raw, 'name');
		if (name) details.name = name;
		const conversation = input.conversationId ? this.getConversation(input.conversationId) : null;
		let user = email ? this.findUserByEmail(email) : undefined;
		if (!user && phone) user = this.findUserByPhone(phone);
		if (!user && conversation?.user_id) {
			const owner = this.userIndex.has(conversation.user_id)
				? this.getUser(conversation.user_id)
				: undefined;
			if (owner && (email ? !owner.email : !owner.phone)) user = owner;
		}
		const created = !user;
		user = user
			? this.updateUser(user.id, details, 'visitor')
			: this.createUser(details, 'visitor');
		this.emit(
			'leadCaptured',
			{ user, conversation, lead: { email, phone, via: 'form' }, message: null },
			'visitor',
		);
		return { user, created };
	}
}

const EMAIL_IN_TEXT = /[A-Z0-9._%+-]+@[A-Z0-9-]+(?:\.[A-Z0-9-]+)*\.[A-Z]{2,}/i;
const PHONE_IN_TEXT = /\+\d[\d ().-]{5,}\d/;

/**
 * The first e-mail address and the first +phone number in a text (the phone with its separators removed).
 * @param {string} text
 * @returns {{ email: string | null, phone: string | null }}
 */
function findContact(text) {
	const email = EMAIL_IN_TEXT.exec(text)?.[0] ?? null;
	const phoneText = PHONE_IN_TEXT.exec(text)?.[0];
	const digits = phoneText ? phoneText.replace(/\D/g, '') : '';
	return { email, phone: digits.length >= 7 && digits.length <= 15 ? `+${digits}` : null };
}

module.exports = { Store, CONVERSATION_STATUSES, findContact };
