// @ts-check
'use strict';

const { SandboxError } = require('./errors');
const { productId } = require('./supportBoardRecords');
const { hashPassword, verifyPassword } = require('./supportBoardPhp');
const { deliverMessage } = require('./supportBoardMessages');
const { removeUser } = require('./supportBoardUsers');

/**
 * What a visitor (and an agent in the admin panel) does in the browser, with the webhooks the product
 * fires for it. Most of these the widget's JavaScript fires through `ajax.php function=webhooks`, so their
 * data is what jQuery serialised as a form and PHP parsed back: strings everywhere (`"false"`, `""`).
 *
 * @typedef {import('./supportBoardRecords').SupportBoardData} SupportBoardData
 * @typedef {import('./store').Store} Store
 * @typedef {import('./store').User} User
 * @typedef {import('./store').Conversation} Conversation
 * @typedef {(name: string, data: unknown) => void} Fire
 *
 * @typedef {object} VisitorStartInput
 * @property {string} message The first message.
 * @property {string} [first_name]
 * @property {string} [last_name]
 * @property {string} [email] With an e-mail the visitor is a `user`; a known e-mail continues as that user.
 * @property {string} [title]
 *
 * @typedef {object} RegistrationInput The registration form.
 * @property {string} email
 * @property {string} password
 * @property {string} [first_name]
 * @property {string} [last_name]
 * @property {string | number} [conversationId] The conversation open in the widget, if any.
 * @property {Record<string, string>} [extra] The form's extra fields, by slug.
 *
 * @typedef {object} LoginInput The login form.
 * @property {string} email
 * @property {string} password
 * @property {string | number} [conversationId]
 *
 * @typedef {object} FollowUpInput The follow-up form ("leave your e-mail"): the visitor of `userId` (or of the conversation) gives an address.
 * @property {string} email
 * @property {string | number} [userId]
 * @property {string | number} [conversationId]
 * @property {string} [name] Full name, when the form asks for it.
 */

/**
 * A value after jQuery.param and PHP: scalars as strings, null as '', empty lists and objects left out.
 * @param {unknown} value
 * @returns {unknown}
 */
function asForm(value) {
	if (value === null || value === undefined) return '';
	if (Array.isArray(value)) {
		const items = value.map(asForm).filter((v) => v !== undefined);
		return items.length > 0 ? items : undefined;
	}
	if (typeof value === 'object') {
		const entries = Object.entries(value)
			.map(([k, v]) => /** @type {[string, unknown]} */ ([k, asForm(v)]))
			.filter(([, v]) => v !== undefined);
		return entries.length > 0 ? Object.fromEntries(entries) : undefined;
	}
	return String(value);
}

class SupportBoardVisitor {
	/**
	 * @param {{ data: SupportBoardData, store: Store, installUrl: () => string }} options
	 */
	constructor({ data, store, installUrl }) {
		this.data = data;
		this.store = store;
		this.installUrl = installUrl;
		/** The newest message id each conversation's widget has shown, so that `receive` reports what is new. */
		/** @type {Map<string, number>} */
		this.seen = new Map();
	}

	/** @param {unknown} id */
	conversation(id) {
		const c = this.data.conversation(id);
		if (!c) throw new SandboxError(404, `Conversation ${String(id)} not found`);
		return c;
	}

	/** @param {unknown} id */
	user(id) {
		const u = this.data.user(id);
		if (!u) throw new SandboxError(404, `User ${String(id)} not found`);
		return u;
	}

	/** @param {User} u */
	fullName(u) {
		const { first, last } = this.data.names(u);
		return `${first} ${last}`.trim();
	}

	/** The widget's message object (`SBMessage.details`), as serialised. @param {import('./store').Message} m @param {Conversation} c */
	widgetMessage(m, c) {
		const { payload: _p, conversation_id: _c, ...row } = this.data.messageRow(m, c);
		return {
			details: asForm({
				...row,
				full_name: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim(),
			}),
		};
	}

	/**
	 * The visitor opens the chat and writes: a visitor (or user) is created and logged in, a conversation is
	 * created (`new-conversation-created`) and the message sent (`message-sent`).
	 * @param {VisitorStartInput} input
	 * @param {Fire} fire
	 */
	start(input, fire) {
		if (typeof input?.message !== 'string' || input.message.trim() === '')
			throw new SandboxError(422, 'message is required', 'message');
		const email = input.email?.trim() || null;
		let user = email
			? this.store.state.users.find((u) => u.email?.toLowerCase() === email.toLowerCase())
			: undefined;
		if (!user) {
			const first = input.first_name || 'User';
			const last = input.first_name
				? (input.last_name ?? '')
				: `#${Math.floor(Math.random() * 100000)}`;
			user = this.store.createUser(
				{
					name: `${first} ${last}`.trim(),
					email,
					phone: null,
					first_name: first,
					last_name: last,
					user_type: email ? 'user' : 'visitor',
					password: '',
				},
				'visitor',
			);
		}
		const title = input.title ?? '';
		const { conversation: c } = this.store.createConversation(
			{
				user_id: user.id,
				status: 'pending',
				status_code: 2,
				subject: title.charAt(0).toUpperCase() + title.slice(1),
				source: '',
			},
			'visitor',
		);
		fire('new-conversation-created', this.data.conversationObject(c, { agentView: false }));
		const sent = this.say(productId(c.id), input.message, fire);
		return {
			user: this.data.userRow(user),
			conversation: this.data.conversationDetails(c, { agentView: false }),
			message: sent,
		};
	}

	/**
	 * The visitor writes in a conversation (`message-sent`, after `conversation-status-updated` when an
	 * agent had answered).
	 * @param {string | number} conversationId
	 * @param {string} text
	 * @param {Fire} fire
	 */
	say(conversationId, text, fire) {
		const c = this.conversation(conversationId);
		if (!c.user_id) throw new SandboxError(422, 'the conversation has no user');
		const sender = this.user(productId(c.user_id));
		const ctx = { data: this.data, store: this.store, params: {}, fire };
		const answer = deliverMessage(ctx, {
			sender,
			conversation: c,
			text,
			statusCode: -1,
			senderId: productId(sender.id),
			conversationId: productId(c.id),
		});
		this.seen.set(c.id, answer.id);
		return answer;
	}

	/**
	 * The widget shows what arrived since it last looked (an agent's reply): `new-messages` with the new
	 * messages of others, then, when the conversation waited for the user (1), the open chat sets it live
	 * (`setConversationStatus(0)` in main.js, through ajax.php: `{"conversation_id":"4","status_code":"0"}`).
	 * @param {string | number} conversationId
	 * @param {Fire} fire
	 */
	receive(conversationId, fire) {
		const c = this.conversation(conversationId);
		const after = this.seen.get(c.id) ?? 0;
		const fresh = this.data
			.messagesOf(c)
			.filter(
				(m) =>
					Number(productId(m.id)) > after &&
					this.data.senderId(m, c) !== c.user_id &&
					m.message !== '',
			);
		if (fresh.length > 0) {
			this.seen.set(
				c.id,
				Number(productId(/** @type {import('./store').Message} */ (fresh.at(-1)).id)),
			);
			fire('new-messages', {
				messages: fresh.map((m) => this.widgetMessage(m, c)),
				conversation_id: productId(c.id),
			});
		}
		if (this.data.statusCode(c) === 1) {
			c.status_code = 0;
			// The widget's ajax call posts a form: both values arrive as strings (checked against the product).
			fire('conversation-status-updated', { conversation_id: productId(c.id), status_code: '0' });
		}
		return fresh.map((m) => this.data.messageRow(m, c));
	}

	/**
	 * The widget lists a conversation it did not know (one an agent started): `new-conversation`.
	 * @param {string | number} conversationId
	 * @param {Fire} fire
	 */
	receiveConversation(conversationId, fire) {
		const c = this.conversation(conversationId);
		const messages = this.data.messagesOf(c).filter((m) => m.message !== '');
		fire('new-conversation', {
			details: asForm(this.data.conversationDetails(c, { agentView: false })),
			messages: messages.map((m) => this.widgetMessage(m, c)),
		});
		return this.data.conversationObject(c, { agentView: false });
	}

	/**
	 * The registration form: a user is created and logged in; `registration` carries the form as typed,
	 * the password in plain text included.
	 * @param {RegistrationInput} input
	 * @param {Fire} fire
	 */
	register(input, fire) {
		const email = input?.email?.trim();
		if (!email || !input.password)
			throw new SandboxError(422, 'email and password are required', 'email');
		if (this.store.state.users.some((u) => u.email?.toLowerCase() === email.toLowerCase()))
			return { refused: 'duplicate-email' };
		const first = input.first_name ?? '';
		const last = input.last_name ?? '';
		const user = this.store.createUser(
			{
				name: `${first} ${last}`.trim(),
				email,
				phone: null,
				first_name: first || 'User',
				last_name: last,
				user_type: 'user',
				password: hashPassword(input.password),
			},
			'visitor',
		);
		/** @type {Record<string, unknown>} */
		const form = {
			first_name: first,
			last_name: last,
			email,
			password: input.password,
			'password-check': input.password,
			id: productId(user.id),
		};
		/** @type {Record<string, unknown>} */
		const data = {
			id: 'registration',
			conversation_id: input.conversationId === undefined ? false : input.conversationId,
			user: form,
		};
		if (input.extra && Object.keys(input.extra).length > 0) data.extra = input.extra;
		fire('registration', asForm(data));
		return { user: this.data.userRow(user) };
	}

	/**
	 * The login form: `login` carries the user's session as the widget holds it, the password hash and the
	 * login token included. A wrong password or an agent's account fires nothing.
	 * @param {LoginInput} input
	 * @param {Fire} fire
	 */
	login(input, fire) {
		const email = input?.email?.trim().toLowerCase();
		const user = email
			? this.store.state.users.find((u) => u.email?.toLowerCase() === email)
			: undefined;
		const hash = typeof user?.password === 'string' ? user.password : '';
		if (!user || !verifyPassword(String(input.password ?? ''), hash))
			return { refused: 'invalid-login' };
		const row = this.data.userRow(user);
		if (['agent', 'admin'].includes(row.user_type)) return { refused: 'agent-login' };
		const details = {
			id: row.id,
			profile_image: row.profile_image,
			first_name: row.first_name,
			last_name: row.last_name,
			email: row.email,
			user_type: row.user_type,
			token: row.token,
			url: this.installUrl(),
			password: hash,
			conversation_id: input.conversationId === undefined ? false : input.conversationId,
		};
		fire('login', asForm({ details }));
		return { user: row };
	}

	/**
	 * The follow-up form: the visitor leaves an e-mail address and becomes a user (`new-email-address`).
	 * @param {FollowUpInput} input
	 * @param {Fire} fire
	 */
	followUp(input, fire) {
		const email = input?.email?.trim();
		if (!email) throw new SandboxError(422, 'email is required', 'email');
		const owner =
			input.userId !== undefined
				? this.user(input.userId)
				: this.user(productId(this.conversation(input.conversationId).user_id ?? 'u_0'));
		if (
			this.store.state.users.some(
				(u) => u !== owner && u.email?.toLowerCase() === email.toLowerCase(),
			)
		)
			return { refused: 'duplicate-email' };
		/** @type {Record<string, unknown>} */
		const patch = { email, user_type: 'user' };
		if (input.name) {
			const space = input.name.indexOf(' ');
			patch.first_name = space > 0 ? input.name.slice(0, space) : input.name;
			patch.last_name = space > 0 ? input.name.slice(space + 1) : '';
			patch.name = input.name;
		}
		const user = this.store.updateUser(owner.id, patch, 'visitor');
		fire('new-email-address', asForm({ id: 'sb-follow-up', name: this.fullName(user), email }));
		return { user: this.data.userRow(user) };
	}

	/**
	 * An agent deletes a user in the admin panel: `user-deleted` with the id alone.
	 * @param {string | number} userId
	 * @param {Fire} fire
	 */
	deleteUser(userId, fire) {
		const user = this.user(userId);
		removeUser({ store: this.store }, user);
		fire('user-deleted', productId(user.id));
		return { deleted: productId(user.id) };
	}
}

module.exports = { SupportBoardVisitor, asForm };
