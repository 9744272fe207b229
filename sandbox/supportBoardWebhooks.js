// @ts-check
'use strict';

const { phpJson } = require('./supportBoardPhp');

/**
 * Support Board's webhooks (Settings > Miscellaneous > Webhooks): one URL, a Secret key sent inside the
 * body, an optional list of the webhooks wanted. Each is one JSON POST, sent while the request that caused
 * it waits, never repeated, never signed.
 */

/** Every name `sb_webhooks` knows. */
const SUPPORT_BOARD_WEBHOOKS = Object.freeze(
	/** @type {const} */ ([
		'message-sent',
		'new-conversation-created',
		'conversation-status-updated',
		'new-messages',
		'new-conversation',
		'registration',
		'login',
		'user-deleted',
		'new-email-address',
		'message-deleted',
		'rich-message',
		'email-sent',
		'sms-sent',
		'bot-message',
		'dialogflow-message',
		'slack-message-sent',
	]),
);
/** @typedef {(typeof SUPPORT_BOARD_WEBHOOKS)[number]} SupportBoardWebhook */

/** The product's curl user agent. */
const USER_AGENT =
	'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/114.0.0.0 Safari/537.36';
/** curl's CURLOPT_TIMEOUT in `sb_curl`. */
const TIMEOUT_MS = 10_000;

/**
 * @typedef {object} SupportBoardWebhookConfig
 * @property {boolean} active
 * @property {string | null} url Sent to as one URL, whatever it holds.
 * @property {string} key The Secret key, sent as `key` in every body.
 * @property {readonly string[] | null} allowed The "Active webhooks" field; null = all.
 *
 * @typedef {object} SupportBoardWebhookInput A patch; `allowed` may be the field's text (`'message-sent, login'`).
 * @property {boolean} [active]
 * @property {string | null} [url]
 * @property {string} [key]
 * @property {string | readonly string[] | null} [allowed]
 *
 * @typedef {object} SupportBoardDelivery
 * @property {string} function The webhook's name.
 * @property {string} url
 * @property {number} status The receiver's status; 0 = network error or timeout.
 * @property {string} at When it was sent (ISO).
 * @property {Record<string, string>} headers
 * @property {string} body The raw body.
 * @property {unknown} data The body's `data`, parsed.
 * @property {number} durationMs
 * @property {string} [error]
 * @property {string} [response]
 *
 * @typedef {(target: string, headers: Record<string, string>, body: string, timeoutMs: number, signal: AbortSignal) => Promise<{ status: number, error?: string, response?: string }>} Post
 */

/** @type {Readonly<SupportBoardWebhookConfig>} */
const DEFAULT_CONFIG = Object.freeze({ active: true, url: null, key: '', allowed: null });

/**
 * @param {Readonly<SupportBoardWebhookConfig>} base
 * @param {SupportBoardWebhookInput} patch
 * @returns {Readonly<SupportBoardWebhookConfig>}
 */
function mergeConfig(base, patch) {
	if (typeof patch !== 'object' || patch === null)
		throw new TypeError('webhook settings must be an object');
	const next = { ...base };
	for (const [name, value] of Object.entries(patch)) {
		if (value === undefined) continue;
		if (name === 'active') {
			if (typeof value !== 'boolean') throw new TypeError('active must be a boolean');
			next.active = value;
		} else if (name === 'url') {
			if (value !== null && (typeof value !== 'string' || !/^https?:\/\//.test(value)))
				throw new TypeError('url must be an http(s) URL or null');
			next.url = value === '' ? null : value;
		} else if (name === 'key') {
			if (typeof value !== 'string') throw new TypeError('key must be a string');
			next.key = value;
		} else if (name === 'allowed') {
			const list =
				value === null
					? null
					: typeof value === 'string'
						? value.replace(/ /g, '').split(',').filter(Boolean)
						: value;
			if (list !== null && (!Array.isArray(list) || list.some((n) => typeof n !== 'string')))
				throw new TypeError('allowed must be a comma-separated string, a list of names or null');
			next.allowed = list === null || list.length === 0 ? null : Object.freeze([...list]);
		} else {
			throw new TypeError(`unknown webhook setting ${name}`);
		}
	}
	return Object.freeze(next);
}

class SupportBoardWebhooks {
	/**
	 * @param {{ initial?: SupportBoardWebhookInput, post: Post, now: () => Date, track: (p: Promise<void>) => void }} options
	 */
	constructor({ initial = {}, post, now, track }) {
		this.initial = mergeConfig(DEFAULT_CONFIG, initial);
		this.config = this.initial;
		this.post = post;
		this.now = now;
		this.track = track;
		/** @type {SupportBoardDelivery[]} */
		this.deliveries = [];
		this.abort = new AbortController();
	}

	/** @param {SupportBoardWebhookInput} patch */
	configure(patch) {
		this.config = mergeConfig(this.config, patch);
		return this.config;
	}

	/**
	 * Sends one webhook when it is active and allowed; resolves when the receiver answered or gave up.
	 * @param {string} name
	 * @param {unknown} data
	 * @param {string} senderUrl The Referer of the request that caused it ('' for most API calls).
	 * @returns {Promise<void>}
	 */
	async fire(name, data, senderUrl) {
		const cfg = this.config;
		if (
			!cfg.active ||
			!cfg.url ||
			!SUPPORT_BOARD_WEBHOOKS.includes(/** @type {SupportBoardWebhook} */ (name))
		)
			return;
		if (cfg.allowed && !cfg.allowed.includes(name)) return;
		const body = phpJson(
			{ function: name, key: cfg.key, data, 'sender-url': senderUrl },
			{ rawUnicode: true },
		);
		/** @type {Record<string, string>} */
		const headers = {
			'user-agent': USER_AGENT,
			accept: '*/*',
			'content-type': 'application/json',
			'content-length': String(Buffer.byteLength(body)),
		};
		const started = Date.now();
		const at = this.now().toISOString();
		const url = cfg.url;
		const signal = this.abort.signal;
		const sending = this.post(url, headers, body, TIMEOUT_MS, signal).then((result) => {
			if (signal.aborted) return;
			/** @type {SupportBoardDelivery} */
			const entry = {
				function: name,
				url,
				status: result.status,
				at,
				headers,
				body,
				data: JSON.parse(body).data,
				durationMs: Date.now() - started,
			};
			if (result.error) entry.error = result.error;
			if (result.response !== undefined) entry.response = result.response;
			this.deliveries.push(entry);
		});
		this.track(sending);
		await sending;
	}

	/** Back to the start-up settings; deliveries under way are dropped and the log is emptied. */
	reset() {
		this.abort.abort();
		this.abort = new AbortController();
		this.config = this.initial;
		this.deliveries.length = 0;
	}

	close() {
		this.abort.abort();
	}
}

module.exports = {
	SUPPORT_BOARD_WEBHOOKS,
	SupportBoardWebhooks,
	mergeSupportBoardWebhookConfig: mergeConfig,
};
