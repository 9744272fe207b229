// @ts-check
'use strict';

const http = require('node:http');
const https = require('node:https');
const crypto = require('node:crypto');

/**
 * Outbound webhooks (spec 000 §6): a comma-separated list of receiver URLs, a switch per kind of
 * event, a payload style, optional Standard Webhooks signing and optional retries. The spec shows no
 * payload, so each style imitates a family of real services, with its own envelope and naming.
 *
 * @typedef {import('./store').ChangeEvent} ChangeEvent
 * @typedef {import('./store').ChangeData} ChangeData
 * @typedef {import('./store').EventSource} EventSource
 * @typedef {import('./store').User} User
 * @typedef {import('./store').Conversation} Conversation
 * @typedef {import('./store').Message} Message
 * @typedef {import('./store').Lead} Lead
 * @typedef {import('./store').SandboxState} SandboxState
 */

/**
 * Everything a payload can draw on, whatever the kind.
 * @typedef {{
 *   id: string,
 *   kind: WebhookKind,
 *   at: string,
 *   source: 'api' | 'chat',
 *   conversation: Conversation | null,
 *   user: User | null,
 *   message: Message | null,
 *   tag: string | null,
 *   lead: Lead | null,
 * }} Occurrence
 * @typedef {{ contentType: string, body: string, headers: Record<string, string> }} Rendered
 * @typedef {{ occurrence: Occurrence, rendered: Rendered, style: WebhookStyle, tamper: WebhookTamper | null, secret: string | null, extraInvalidSignature: boolean, retry: { attempts: number, delayMs: number } | null, timeoutMs: number }} Outgoing
 */

/** The six kinds of webhook event (spec §6), named as the change events they come from. */
const WEBHOOK_KINDS = Object.freeze(
	/** @type {const} */ ([
		'conversationCreated',
		'messageCreated',
		'conversationClosed',
		'userCreated',
		'tagApplied',
		'leadCaptured',
	]),
);
/** @typedef {(typeof WEBHOOK_KINDS)[number]} WebhookKind */
/**
 * Payload styles, each a different envelope and naming:
 * - `dotted`: JSON `{ id, object: 'event', type: 'conversation.created', created_at, source, data: { object } }`
 * - `flat-php`: form body `function=new-conversation-created&data=<JSON>&delivery_id=…[&secret_key=…]`
 * - `event-header`: JSON record; the event in `X-Webhook-Event: NewConversation`, the id in `X-Webhook-Id`
 * - `nested`: JSON `{ webhook: { event: 'new_conversation', event_id, timestamp, source }, payload: { conversation, user, message } }`
 * - `human`: camelCase JSON `{ event: 'New Conversation', eventId, occurredAt, via, conversationId, userId, messageId, conversation, contact, message }`
 */
const WEBHOOK_STYLES = Object.freeze(
	/** @type {const} */ (['dotted', 'flat-php', 'event-header', 'nested', 'human']),
);
/** @typedef {(typeof WEBHOOK_STYLES)[number]} WebhookStyle */
/**
 * One-shot spoiling of the next event's signature, for negative tests: `body` changes the body after
 * signing, `signature` signs with another secret, `stale` dates the timestamp 10 minutes back,
 * `unsigned` leaves the three `webhook-*` headers out.
 */
const WEBHOOK_TAMPERS = Object.freeze(
	/** @type {const} */ (['body', 'signature', 'stale', 'unsigned']),
);
/** @typedef {(typeof WEBHOOK_TAMPERS)[number]} WebhookTamper */

/**
 * @typedef {object} WebhookConfig
 * @property {readonly string[]} urls Receivers, parsed from the comma-separated text.
 * @property {Readonly<Record<WebhookKind, boolean>>} kinds The dashboard's switches; all on by default.
 * @property {WebhookStyle} style Default `dotted`.
 * @property {string | null} secret Standard Webhooks secret (`whsec_<base64>`, or any text used as UTF-8); null = unsigned.
 * @property {Readonly<{ attempts: number, delayMs: number }> | null} retry Attempts in all (the first included) and the pause between them; null = one attempt.
 * @property {number} timeoutMs Per attempt; a timeout counts as a network error (status 0). Default 5000.
 */

/**
 * A patch over the current configuration.
 * @typedef {object} WebhookConfigInput
 * @property {string | readonly string[]} [urls] As typed in the dashboard: `'http://a/x, http://b/y'` (commas or spaces separate, empty entries ignored). A non-http(s) entry throws, naming it.
 * @property {Partial<Record<WebhookKind, boolean>> | readonly WebhookKind[] | string} [kinds] Switches merged over the current ones, or the list of kinds to enable (others off).
 * @property {WebhookStyle} [style]
 * @property {string | null} [secret]
 * @property {{ attempts: number, delayMs?: number } | number | null | false} [retry] A number = attempts with a 200 ms pause; null, false or 0 = off.
 * @property {number} [timeoutMs]
 */

/**
 * @typedef {object} WebhookSignatureOptions
 * @property {boolean} extraInvalidSignature Send two signatures, space-separated: a wrong one first, then the right one. Stays on until turned off.
 * @property {WebhookTamper | null} tamper Applies to the next event sent (every receiver and attempt of it), then goes back to null.
 */

/**
 * One attempt of one event to one receiver, logged when it ended.
 * @typedef {object} WebhookDelivery
 * @property {string} id The delivery id: the same for every receiver and every attempt of one event (`webhook-id`).
 * @property {WebhookKind} kind
 * @property {string} event The style's name for the kind, e.g. `conversation.created`.
 * @property {WebhookStyle} style
 * @property {string} url
 * @property {number} attempt 1 for the first attempt.
 * @property {number} status The receiver's status; 0 = network error or timeout.
 * @property {string} at When the attempt started (ISO).
 * @property {Record<string, string>} headers Headers sent, lower-case names.
 * @property {string} body The raw body sent.
 * @property {number} durationMs
 * @property {string} [error]
 * @property {string} [response] The receiver's answer (first 2,000 characters).
 * @property {WebhookTamper} [tamper]
 */

/**
 * What `emitWebhook` takes: parts laid over a sample made from the newest records.
 * @typedef {{ [K in WebhookKind]: { [F in keyof ChangeData[K]]?: Partial<ChangeData[K][F]> | ChangeData[K][F] } }} WebhookData
 */

/** @type {Readonly<Record<WebhookStyle, Readonly<Record<WebhookKind, string>>>>} */
const WEBHOOK_EVENT_NAMES = Object.freeze({
	dotted: Object.freeze({
		conversationCreated: 'conversation.created',
		messageCreated: 'message.created',
		conversationClosed: 'conversation.closed',
		userCreated: 'user.created',
		tagApplied: 'user.tag_applied',
		leadCaptured: 'contact.lead.created',
	}),
	'flat-php': Object.freeze({
		conversationCreated: 'new-conversation-created',
		messageCreated: 'message-sent',
		conversationClosed: 'conversation-status-updated',
		userCreated: 'new-user-created',
		tagApplied: 'tag-added',
		leadCaptured: 'new-email-address',
	}),
	'event-header': Object.freeze({
		conversationCreated: 'NewConversation',
		messageCreated: 'NewMessage',
		conversationClosed: 'ConversationArchived',
		userCreated: 'UserCreated',
		tagApplied: 'TagApplied',
		leadCaptured: 'LeadCapture',
	}),
	nested: Object.freeze({
		conversationCreated: 'new_conversation',
		messageCreated: 'new_message',
		conversationClosed: 'conversation_closed',
		userCreated: 'new_user',
		tagApplied: 'tag_applied',
		leadCaptured: 'lead_captured',
	}),
	human: Object.freeze({
		conversationCreated: 'New Conversation',
		messageCreated: 'New Message',
		conversationClosed: 'Conversation Closed',
		userCreated: 'New User Created',
		tagApplied: 'Tag Applied',
		leadCaptured: 'Lead Captured',
	}),
});

const USER_AGENT = 'SupportChat-Sandbox-Webhooks/1.0';
/** How far back a `stale` tamper dates the signature: twice the usual five-minute tolerance. */
const STALE_SECONDS = 600;
const RESPONSE_KEEP = 2000;

/** @type {Readonly<WebhookConfig>} */
const DEFAULT_WEBHOOK_CONFIG = Object.freeze({
	urls: Object.freeze([]),
	kinds: Object.freeze(
		/** @type {Record<WebhookKind, boolean>} */ (
			Object.fromEntries(WEBHOOK_KINDS.map((k) => [k, true]))
		),
	),
	style: 'dotted',
	secret: null,
	retry: null,
	timeoutMs: 5000,
});

/**
 * The receiver list as a person types it into the dashboard: separated by commas (spaces and line
 * breaks also separate), empty entries ignored, duplicates sent once.
 * @param {unknown} value
 * @returns {string[]}
 */
function parseWebhookUrls(value) {
	/** @type {string[]} */
	let entries;
	if (typeof value === 'string') entries = value.split(/[\s,]+/);
	else if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
		entries = value.flatMap((v) => v.split(/[\s,]+/));
	else throw new TypeError('urls must be a comma-separated string or an array of strings');
	/** @type {string[]} */
	const urls = [];
	for (const entry of entries.map((e) => e.trim()).filter(Boolean)) {
		/** @type {URL} */
		let url;
		try {
			url = new URL(entry);
		} catch {
			throw new TypeError(`webhook URL "${entry}" is not a valid http(s) URL`);
		}
		if (url.protocol !== 'http:' && url.protocol !== 'https:')
			throw new TypeError(`webhook URL "${entry}" is not an http(s) URL`);
		if (!urls.includes(entry)) urls.push(entry);
	}
	return urls;
}

/**
 * `kinds` as an object of switches (merged over the current ones), or a list (string or array) of the
 * kinds to enable, all others off.
 * @param {unknown} value
 * @param {Readonly<Record<WebhookKind, boolean>>} current
 * @returns {Record<WebhookKind, boolean>}
 */
function parseKinds(value, current) {
	/** @param {string} name @returns {WebhookKind} */
	const known = (name) => {
		if (!WEBHOOK_KINDS.includes(/** @type {WebhookKind} */ (name)))
			throw new TypeError(`unknown webhook kind ${name}; kinds are ${WEBHOOK_KINDS.join(', ')}`);
		return /** @type {WebhookKind} */ (name);
	};
	if (typeof value === 'string' || Array.isArray(value)) {
		const list = typeof value === 'string' ? value.split(/[\s,]+/) : value;
		if (!list.every((v) => typeof v === 'string'))
			throw new TypeError('kinds must name webhook kinds');
		const on = new Set(
			list
				.map((v) => v.trim())
				.filter(Boolean)
				.map(known),
		);
		return /** @type {Record<WebhookKind, boolean>} */ (
			Object.fromEntries(WEBHOOK_KINDS.map((k) => [k, on.has(k)]))
		);
	}
	if (typeof value !== 'object' || value === null)
		throw new TypeError('kinds must be an object of booleans or a list of kinds');
	const next = { ...current };
	for (const [name, on] of Object.entries(value)) {
		if (typeof on !== 'boolean') throw new TypeError(`kinds.${name} must be a boolean`);
		next[known(name)] = on;
	}
	return next;
}

/**
 * @param {Readonly<WebhookConfig>} base
 * @param {WebhookConfigInput} patch
 * @returns {Readonly<WebhookConfig>}
 */
function mergeWebhookConfig(base, patch) {
	if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
		throw new TypeError('webhook configuration must be an object');
	const allowed = ['urls', 'kinds', 'style', 'secret', 'retry', 'timeoutMs'];
	for (const key of Object.keys(patch)) {
		if (!allowed.includes(key))
			throw new TypeError(`unknown webhook setting ${key}; settings are ${allowed.join(', ')}`);
	}
	/** @type {WebhookConfig} */
	const next = { ...base, urls: [...base.urls], kinds: { ...base.kinds } };
	if (patch.urls !== undefined) next.urls = parseWebhookUrls(patch.urls ?? '');
	if (patch.kinds !== undefined) next.kinds = parseKinds(patch.kinds, base.kinds);
	if (patch.style !== undefined) {
		if (!WEBHOOK_STYLES.includes(patch.style))
			throw new TypeError(`style must be one of ${WEBHOOK_STYLES.join(', ')}`);
		next.style = patch.style;
	}
	if (patch.secret !== undefined) {
		const secret = patch.secret === '' ? null : patch.secret;
		if (secret !== null && typeof secret !== 'string')
			throw new TypeError('secret must be a string or null');
		if (typeof secret === 'string' && secret.startsWith('whsec_')) {
			const encoded = secret.slice('whsec_'.length);
			if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded))
				throw new TypeError('a whsec_ secret must be followed by base64');
		}
		next.secret = secret;
	}
	if (patch.retry !== undefined) {
		const r = patch.retry;
		if (r === null || r === false || r === 0) next.retry = null;
		else {
			const attempts = typeof r === 'number' ? r : r.attempts;
			const delayMs = typeof r === 'number' ? 200 : (r.delayMs ?? 200);
			if (!Number.isInteger(attempts) || attempts < 1)
				throw new TypeError(
					'retry.attempts must be a positive integer (attempts in all, the first included)',
				);
			if (!Number.isInteger(delayMs) || delayMs < 0)
				throw new TypeError('retry.delayMs must be a non-negative integer');
			next.retry = Object.freeze({ attempts, delayMs });
		}
	}
	if (patch.timeoutMs !== undefined) {
		if (!Number.isInteger(patch.timeoutMs) || patch.timeoutMs <= 0)
			throw new TypeError('timeoutMs must be a positive integer');
		next.timeoutMs = patch.timeoutMs;
	}
	return Object.freeze({
		...next,
		urls: Object.freeze(next.urls),
		kinds: Object.freeze(next.kinds),
	});
}

/**
 * The HMAC key of a Standard Webhooks secret: the base64 after `whsec_`, or the UTF-8 bytes of any other secret.
 * @param {string} secret
 */
function signingKey(secret) {
	return secret.startsWith('whsec_')
		? Buffer.from(secret.slice('whsec_'.length), 'base64')
		: Buffer.from(secret, 'utf8');
}

/**
 * Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`.
 * @param {string} secret
 * @param {string} id
 * @param {number} timestamp unix seconds
 * @param {string} body
 */
function signWebhook(secret, id, timestamp, body) {
	return `v1,${crypto.createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** @param {string} text */
const camel = (text) => text.replace(/_([a-z0-9])/g, (_m, c) => c.toUpperCase());

/**
 * @param {unknown} value
 * @returns {unknown}
 */
function camelKeys(value) {
	if (Array.isArray(value)) return value.map(camelKeys);
	if (typeof value === 'object' && value !== null)
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), camelKeys(v)]));
	return value;
}

/**
 * A PHP chat service splits the name.
 * @param {User | null} user
 */
function phpUser(user) {
	if (!user) return {};
	const name = (user.name ?? '').trim();
	const space = name.lastIndexOf(' ');
	return {
		user_id: user.id,
		first_name: space > 0 ? name.slice(0, space) : name,
		last_name: space > 0 ? name.slice(space + 1) : '',
		email: user.email ?? '',
		phone: user.phone ?? '',
		user_type: user.email || user.phone ? 'lead' : 'visitor',
	};
}

/**
 * @template {Record<string, unknown>} T
 * @param {T} record
 * @returns {T}
 */
const withoutNulls = (record) =>
	/** @type {T} */ (
		Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null && v !== undefined))
	);

/**
 * The body and the style's own headers of one event. The same for every receiver and every attempt.
 * @param {WebhookStyle} style
 * @param {Occurrence} o
 * @param {string | null} secret
 * @returns {Rendered}
 */
function renderWebhook(style, o, secret) {
	const name = WEBHOOK_EVENT_NAMES[style][o.kind];
	const { conversation: c, user: u, message: m, tag, lead } = o;
	const json = 'application/json';
	switch (style) {
		case 'dotted': {
			/** @type {Record<string, unknown>} */
			let object;
			/** @type {Record<string, unknown>} */
			const extra = {};
			switch (o.kind) {
				case 'conversationCreated':
					object = {
						object: 'conversation',
						...c,
						first_message: m ? { object: 'message', ...m } : null,
					};
					break;
				case 'messageCreated':
					object = { object: 'message', ...m, user_id: c?.user_id ?? null };
					break;
				case 'conversationClosed':
					object = { object: 'conversation', ...c };
					break;
				case 'userCreated':
					object = { object: 'user', ...u };
					break;
				case 'tagApplied':
					object = { object: 'user', ...u };
					extra.tag = tag;
					break;
				case 'leadCaptured':
					object = {
						object: 'lead',
						email: lead?.email ?? null,
						phone: lead?.phone ?? null,
						captured_via: lead?.via ?? 'form',
						user_id: u?.id ?? null,
						conversation_id: c?.id ?? null,
						message_id: m?.id ?? null,
						user: u ? { object: 'user', ...u } : null,
					};
					break;
			}
			const body = {
				id: o.id,
				object: 'event',
				type: name,
				created_at: o.at,
				source: o.source,
				data: { object, ...extra },
			};
			return { contentType: json, body: JSON.stringify(body), headers: {} };
		}
		case 'flat-php': {
			/** @type {Record<string, unknown>} */
			let data;
			switch (o.kind) {
				case 'conversationCreated':
					data = {
						conversation_id: c?.id,
						...phpUser(u),
						status: c?.status,
						subject: c?.subject ?? '',
						message_id: m?.id ?? '',
						message: m?.message ?? '',
						creation_time: c?.created_at,
					};
					break;
				case 'messageCreated':
					data = {
						message_id: m?.id,
						conversation_id: m?.conversation_id,
						user_id: c?.user_id ?? '',
						message: m?.message,
						type: m?.type,
						creation_time: m?.created_at,
					};
					break;
				case 'conversationClosed':
					data = {
						conversation_id: c?.id,
						user_id: c?.user_id ?? '',
						status: 'closed',
						status_code: 3,
						closed_at: c?.closed_at,
					};
					break;
				case 'userCreated':
					data = {
						...phpUser(u),
						tags: u?.tags ?? [],
						creation_time: u?.created_at,
						source: o.source,
					};
					break;
				case 'tagApplied':
					data = { ...phpUser(u), tag, tags: u?.tags ?? [] };
					break;
				case 'leadCaptured':
					data = {
						...phpUser(u),
						email: lead?.email ?? '',
						phone: lead?.phone ?? '',
						conversation_id: c?.id ?? '',
						message_id: m?.id ?? '',
						lead_source: lead?.via ?? 'form',
					};
					break;
			}
			const form = new URLSearchParams();
			form.set('function', name);
			if (o.kind === 'conversationClosed') form.set('status', 'closed');
			form.set('data', JSON.stringify(data));
			form.set('delivery_id', o.id);
			if (secret !== null) form.set('secret_key', secret);
			return {
				contentType: 'application/x-www-form-urlencoded',
				body: form.toString(),
				headers: {},
			};
		}
		case 'event-header': {
			/** @type {Record<string, unknown>} */
			let body;
			switch (o.kind) {
				case 'conversationCreated':
					body = {
						...c,
						conversation_id: c?.id,
						user_id: c?.user_id ?? null,
						message_id: m?.id ?? null,
						message: m?.message ?? null,
					};
					break;
				case 'messageCreated':
					body = {
						...m,
						message_id: m?.id,
						conversation_id: m?.conversation_id,
						user_id: c?.user_id ?? null,
					};
					break;
				case 'conversationClosed':
					body = { ...c, conversation_id: c?.id, user_id: c?.user_id ?? null };
					break;
				case 'userCreated':
					body = { ...u, user_id: u?.id, source: o.source };
					break;
				case 'tagApplied':
					body = { ...u, user_id: u?.id, tag };
					break;
				case 'leadCaptured':
					body = withoutNulls({
						email: lead?.email ?? null,
						phone: lead?.phone ?? null,
						name: u?.name ?? null,
						via: lead?.via ?? 'form',
						user_id: u?.id ?? null,
						conversation_id: c?.id ?? null,
						message_id: m?.id ?? null,
					});
					break;
			}
			return {
				contentType: json,
				body: JSON.stringify(body),
				headers: { 'x-webhook-event': name, 'x-webhook-id': o.id },
			};
		}
		case 'nested': {
			/** @type {Record<string, unknown>} */
			const payload = {};
			if (c && o.kind !== 'userCreated' && o.kind !== 'tagApplied') payload.conversation = c;
			if (u) payload.user = u;
			if (m) payload.message = m;
			if (o.kind === 'tagApplied') payload.tag = { name: tag, user_id: u?.id ?? null };
			if (lead) payload.lead = { ...lead, user_id: u?.id ?? null, conversation_id: c?.id ?? null };
			const body = {
				webhook: {
					event: name,
					event_id: o.id,
					timestamp: Math.floor(Date.parse(o.at) / 1000),
					source: o.source,
				},
				payload,
			};
			return { contentType: json, body: JSON.stringify(body), headers: {} };
		}
		case 'human': {
			/** @type {Record<string, unknown>} */
			const body = {
				event: name,
				eventId: o.id,
				occurredAt: o.at,
				via: o.source === 'chat' ? 'Chat' : 'API',
				conversationId: c?.id ?? m?.conversation_id ?? null,
				userId: u?.id ?? c?.user_id ?? null,
				messageId: m?.id ?? null,
			};
			if (c && o.kind !== 'userCreated' && o.kind !== 'tagApplied')
				body.conversation = camelKeys(c);
			if (u) body.contact = camelKeys(u);
			if (m) body.message = camelKeys(m);
			if (tag !== null) body.tag = tag;
			if (lead) body.lead = camelKeys(lead);
			return { contentType: json, body: JSON.stringify(withoutNulls(body)), headers: {} };
		}
	}
}

/**
 * A body changed after signing: another JSON field, or another form field.
 * @param {Rendered} rendered
 */
function tamperedBody(rendered) {
	if (rendered.contentType === 'application/json')
		return JSON.stringify({ ...JSON.parse(rendered.body), tampered: true });
	return `${rendered.body}&tampered=1`;
}

class Webhooks {
	/**
	 * @param {{ now: () => Date, state: SandboxState, initial?: WebhookConfigInput }} options
	 */
	constructor({ now, state, initial = {} }) {
		this.now = now;
		this.state = state;
		this.initial = mergeWebhookConfig(DEFAULT_WEBHOOK_CONFIG, initial);
		this.config = this.initial;
		/** @type {WebhookSignatureOptions} */
		this.signature = { extraInvalidSignature: false, tamper: null };
		/** @type {WebhookDelivery[]} */
		this.deliveries = [];
		/** @type {Map<string, Promise<void>>} */
		this.chains = new Map();
		/** @type {Set<Promise<void>>} */
		this.pending = new Set();
		this.abort = new AbortController();
		this.agents = {
			http: new http.Agent({ keepAlive: false }),
			https: new https.Agent({ keepAlive: false }),
		};
	}

	/** @param {WebhookConfigInput} patch */
	configure(patch) {
		this.config = mergeWebhookConfig(this.config, patch);
		return this.config;
	}

	/** @param {Partial<WebhookSignatureOptions>} options */
	signatureOptions(options = {}) {
		if (typeof options !== 'object' || options === null)
			throw new TypeError('signature options must be an object');
		for (const key of Object.keys(options)) {
			if (key !== 'extraInvalidSignature' && key !== 'tamper')
				throw new TypeError(`unknown signature option ${key}`);
		}
		const { extraInvalidSignature, tamper } = options;
		if (extraInvalidSignature !== undefined && typeof extraInvalidSignature !== 'boolean')
			throw new TypeError('extraInvalidSignature must be a boolean');
		if (tamper !== undefined && tamper !== null && !WEBHOOK_TAMPERS.includes(tamper))
			throw new TypeError(`tamper must be one of ${WEBHOOK_TAMPERS.join(', ')} or null`);
		if (extraInvalidSignature !== undefined)
			this.signature.extraInvalidSignature = extraInvalidSignature;
		if (tamper !== undefined) this.signature.tamper = tamper;
		return { ...this.signature };
	}

	/**
	 * The store's change events that are webhook kinds.
	 * @param {ChangeEvent} event
	 */
	onChange(event) {
		if (!WEBHOOK_KINDS.includes(/** @type {WebhookKind} */ (event.kind))) return;
		if (
			this.config.urls.length === 0 ||
			!this.config.kinds[/** @type {WebhookKind} */ (event.kind)]
		)
			return;
		const d = /** @type {Partial<ChangeData[WebhookKind]> & Record<string, unknown>} */ (
			event.data
		);
		this.send(this.occurrence(/** @type {WebhookKind} */ (event.kind), d, event.at, event.source));
	}

	/**
	 * An event on demand: `data` is laid over a sample made from the newest records (or made up when
	 * there are none). Returns the delivery id, or null when no receiver takes that kind.
	 * @param {WebhookKind} kind
	 * @param {Record<string, unknown>} [data]
	 * @param {{ source?: EventSource }} [options]
	 */
	emit(kind, data = {}, options = {}) {
		if (!WEBHOOK_KINDS.includes(kind))
			throw new TypeError(`unknown webhook kind ${kind}; kinds are ${WEBHOOK_KINDS.join(', ')}`);
		if (typeof data !== 'object' || data === null) throw new TypeError('data must be an object');
		const sample = this.sample(kind);
		/** @type {Record<string, unknown>} */
		const merged = { ...sample };
		for (const [key, value] of Object.entries(data)) {
			const base = merged[key];
			merged[key] =
				typeof value === 'object' &&
				value !== null &&
				!Array.isArray(value) &&
				typeof base === 'object' &&
				base !== null
					? { ...base, ...value }
					: value;
		}
		const source =
			options.source ??
			(kind === 'conversationCreated' || kind === 'leadCaptured' ? 'visitor' : 'api');
		return this.send(
			this.occurrence(kind, structuredClone(merged), this.now().toISOString(), source),
		);
	}

	/**
	 * @param {WebhookKind} kind
	 * @returns {Record<string, unknown>}
	 */
	sample(kind) {
		const s = this.state;
		const at = this.now().toISOString();
		const fallbackUser = () =>
			/** @type {User} */ (
				s.users.at(-1) ?? {
					id: 'u_sample',
					name: 'Sam Sample',
					email: 'sam@example.com',
					phone: '+15550000000',
					tags: [],
					created_at: at,
					updated_at: at,
				}
			);
		/** @type {Conversation | undefined} */
		const newest = s.conversations.at(-1);
		// A conversation's events name its own user.
		const owner = newest?.user_id ? s.users.find((u) => u.id === newest.user_id) : undefined;
		const user =
			kind === 'userCreated' || kind === 'tagApplied' ? fallbackUser() : (owner ?? fallbackUser());
		/** @type {Conversation} */
		const conversation = newest ?? {
			id: 'c_sample',
			user_id: user.id,
			status: 'active',
			assignee_id: null,
			created_at: at,
			updated_at: at,
			closed_at: null,
		};
		/** @type {Message} */
		const message = [...s.messages]
			.reverse()
			.find((m) => m.conversation_id === conversation.id) ?? {
			id: 'm_sample',
			conversation_id: conversation.id,
			message: 'Hello, I need help',
			type: 'user',
			created_at: at,
		};
		switch (kind) {
			case 'conversationCreated':
				return { conversation, user, message };
			case 'messageCreated':
				return { message, conversation };
			case 'conversationClosed':
				return { conversation: { ...conversation, status: 'closed', closed_at: at } };
			case 'userCreated':
				return { user };
			case 'tagApplied':
				return {
					user: { ...user, tags: user.tags.includes('vip') ? user.tags : [...user.tags, 'vip'] },
					tag: 'vip',
				};
			case 'leadCaptured':
				return {
					user,
					conversation,
					lead: { email: user.email, phone: user.phone, via: 'form' },
					message: null,
				};
		}
	}

	/**
	 * @param {WebhookKind} kind
	 * @param {Record<string, unknown>} d
	 * @param {string} at
	 * @param {EventSource} source
	 * @returns {Occurrence}
	 */
	occurrence(kind, d, at, source) {
		const conversation = /** @type {Conversation | null} */ (d.conversation ?? null);
		const message = /** @type {Message | null} */ (d.message ?? null);
		let user = /** @type {User | null} */ (d.user ?? null);
		// A message or a close names the conversation's user too.
		if (!user && conversation?.user_id) {
			const owner = this.state.users.find((u) => u.id === conversation.user_id);
			user = owner ? structuredClone(owner) : null;
		}
		return {
			id: `evt_${crypto.randomBytes(12).toString('hex')}`,
			kind,
			at,
			source: source === 'visitor' ? 'chat' : 'api',
			conversation,
			user,
			message,
			tag: typeof d.tag === 'string' ? d.tag : null,
			lead: /** @type {Lead | null} */ (d.lead ?? null),
		};
	}

	/**
	 * Queues the event for every receiver (when its kind is on), in order per receiver.
	 * @param {Occurrence} occurrence
	 * @returns {string | null}
	 */
	send(occurrence) {
		const cfg = this.config;
		if (cfg.urls.length === 0 || !cfg.kinds[occurrence.kind]) return null;
		const tamper = this.signature.tamper;
		this.signature.tamper = null;
		/** @type {Outgoing} */
		const outgoing = {
			occurrence,
			rendered: renderWebhook(cfg.style, occurrence, cfg.secret),
			style: cfg.style,
			tamper,
			secret: cfg.secret,
			extraInvalidSignature: this.signature.extraInvalidSignature,
			retry: cfg.retry,
			timeoutMs: cfg.timeoutMs,
		};
		const signal = this.abort.signal;
		for (const url of cfg.urls) {
			const previous = this.chains.get(url) ?? Promise.resolve();
			const next = previous.then(() => this.deliver(url, outgoing, signal));
			this.chains.set(url, next);
			this.pending.add(next);
			next.then(() => {
				this.pending.delete(next);
				if (this.chains.get(url) === next) this.chains.delete(url);
			});
		}
		return occurrence.id;
	}

	/**
	 * Every attempt of one event to one receiver. Never rejects.
	 * @param {string} url
	 * @param {Outgoing} outgoing
	 * @param {AbortSignal} signal
	 */
	async deliver(url, outgoing, signal) {
		const attempts = outgoing.retry?.attempts ?? 1;
		for (let attempt = 1; attempt <= attempts && !signal.aborted; attempt++) {
			if (attempt > 1) await this.wait(outgoing.retry?.delayMs ?? 0, signal);
			if (signal.aborted) return;
			const ok = await this.attempt(url, outgoing, attempt, signal);
			if (ok) return;
		}
	}

	/**
	 * @param {number} ms
	 * @param {AbortSignal} signal
	 */
	wait(ms, signal) {
		return new Promise((resolve) => {
			const done = () => {
				clearTimeout(timer);
				signal.removeEventListener('abort', done);
				resolve(undefined);
			};
			const timer = setTimeout(done, ms);
			signal.addEventListener('abort', done, { once: true });
		});
	}

	/**
	 * One POST. Logs it and tells whether the receiver took it (2xx).
	 * @param {string} url
	 * @param {Outgoing} outgoing
	 * @param {number} attempt
	 * @param {AbortSignal} signal
	 * @returns {Promise<boolean>}
	 */
	async attempt(url, outgoing, attempt, signal) {
		const { occurrence, rendered, tamper, secret } = outgoing;
		let body = rendered.body;
		/** @type {Record<string, string>} */
		const headers = {
			'content-type': rendered.contentType,
			'user-agent': USER_AGENT,
			...rendered.headers,
		};
		if (secret !== null && tamper !== 'unsigned') {
			const timestamp = Math.floor(Date.now() / 1000) - (tamper === 'stale' ? STALE_SECONDS : 0);
			const signingSecret =
				tamper === 'signature' ? `whsec_${crypto.randomBytes(24).toString('base64')}` : secret;
			const right = signWebhook(signingSecret, occurrence.id, timestamp, body);
			const wrong = signWebhook(
				`whsec_${crypto.randomBytes(24).toString('base64')}`,
				occurrence.id,
				timestamp,
				body,
			);
			headers['webhook-id'] = occurrence.id;
			headers['webhook-timestamp'] = String(timestamp);
			headers['webhook-signature'] = outgoing.extraInvalidSignature ? `${wrong} ${right}` : right;
			if (tamper === 'body') body = tamperedBody(rendered);
		}
		headers['content-length'] = String(Buffer.byteLength(body));
		const started = Date.now();
		/** @type {WebhookDelivery} */
		const entry = {
			id: occurrence.id,
			kind: occurrence.kind,
			event: WEBHOOK_EVENT_NAMES[outgoing.style][occurrence.kind],
			style: outgoing.style,
			url,
			attempt,
			status: 0,
			at: new Date(started).toISOString(),
			headers,
			body,
			durationMs: 0,
		};
		if (tamper) entry.tamper = tamper;
		const result = await this.post(url, headers, body, outgoing.timeoutMs, signal);
		if (signal.aborted) return true;
		entry.status = result.status;
		entry.durationMs = Date.now() - started;
		if (result.error) entry.error = result.error;
		if (result.response !== undefined) entry.response = result.response;
		this.deliveries.push(entry);
		return result.status >= 200 && result.status < 300;
	}

	/**
	 * @param {string} target
	 * @param {Record<string, string>} headers
	 * @param {string} body
	 * @param {number} timeoutMs
	 * @param {AbortSignal} signal
	 * @returns {Promise<{ status: number, error?: string, response?: string }>}
	 */
	post(target, headers, body, timeoutMs, signal) {
		return new Promise((resolve) => {
			const url = new URL(target);
			const client = url.protocol === 'https:' ? https : http;
			/** @type {{ status: number, error?: string, response?: string } | undefined} */
			let outcome;
			const finish = (
				/** @type {{ status: number, error?: string, response?: string }} */ value,
			) => {
				if (outcome) return;
				outcome = value;
				clearTimeout(timer);
				resolve(value);
			};
			const req = client.request(
				url,
				{
					method: 'POST',
					headers,
					agent: url.protocol === 'https:' ? this.agents.https : this.agents.http,
					signal,
				},
				(res) => {
					/** @type {Buffer[]} */
					const chunks = [];
					let size = 0;
					res.on('data', (chunk) => {
						if (size < RESPONSE_KEEP) chunks.push(chunk);
						size += chunk.length;
					});
					res.on('end', () =>
						finish({
							status: res.statusCode ?? 0,
							response: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_KEEP),
						}),
					);
					res.on('error', (error) => finish({ status: res.statusCode ?? 0, error: error.message }));
				},
			);
			const timer = setTimeout(
				() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)),
				timeoutMs,
			);
			req.on('error', (error) => finish({ status: 0, error: error.message }));
			req.end(body);
		});
	}

	/** Resolves when every queued delivery, retries included, is done. */
	async settled() {
		while (this.pending.size > 0) await Promise.all([...this.pending]);
	}

	/** Back to the initial configuration; queued deliveries are dropped and the log is emptied. */
	reset() {
		this.abort.abort();
		this.abort = new AbortController();
		this.chains.clear();
		this.config = this.initial;
		this.signature = { extraInvalidSignature: false, tamper: null };
		this.deliveries.length = 0;
	}

	close() {
		this.abort.abort();
		this.agents.http.destroy();
		this.agents.https.destroy();
	}
}

module.exports = {
	DEFAULT_WEBHOOK_CONFIG,
	WEBHOOK_EVENT_NAMES,
	WEBHOOK_KINDS,
	WEBHOOK_STYLES,
	WEBHOOK_TAMPERS,
	Webhooks,
	mergeWebhookConfig,
	parseWebhookUrls,
	renderWebhook,
	signWebhook,
};
