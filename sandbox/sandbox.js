// @ts-check
'use strict';

const http = require('node:http');
const crypto = require('node:crypto');
const zlib = require('node:zlib');

const { matchRoute } = require('./api');
const { handleControl } = require('./control');
const { createSupportBoard, SUPPORT_BOARD_PATHS, INSTALL_PREFIX } = require('./supportBoard');
const { handleSupportBoardControl } = require('./supportBoardControl');
const { ENVELOPES, wrapPage, wrapRecord } = require('./envelope');
const { ERROR_STYLES, SandboxError, errorBody, htmlPage } = require('./errors');
const { FAULT_KINDS, FaultQueue, retryAfterHeader } = require('./faults');
const { Files } = require('./files');
const { queryObject, queryString, readBody, send } = require('./httpio');
const { HOSTILE_PAGINATION_STYLES, PAGINATION_STYLES } = require('./pagination');

/** What `pagination` may be set to: the walkable styles, and the hostile modes that lie or break. */
const ACCEPTED_PAGINATION = [...PAGINATION_STYLES, ...HOSTILE_PAGINATION_STYLES];
const { Store } = require('./store');
const {
	WEBHOOK_EVENT_NAMES,
	WEBHOOK_KINDS,
	WEBHOOK_STYLES,
	WEBHOOK_TAMPERS,
	Webhooks,
	parseWebhookUrls,
	signWebhook,
} = require('./webhooks');

/**
 * @typedef {import('./pagination').PaginationStyle} PaginationStyle
 * @typedef {import('./pagination').HostilePaginationStyle} HostilePaginationStyle
 * @typedef {import('./envelope').Envelope} Envelope
 * @typedef {import('./errors').ErrorStyle} ErrorStyle
 * @typedef {import('./faults').FaultKind} FaultKind
 * @typedef {import('./faults').FaultSpec} FaultSpec
 * @typedef {import('./faults').QueuedFault} QueuedFault
 * @typedef {import('./store').SeedOptions} SeedOptions
 * @typedef {import('./store').SandboxState} SandboxState
 * @typedef {import('./store').ChangeEvent} ChangeEvent
 * @typedef {import('./store').EventSource} EventSource
 * @typedef {import('./store').User} User
 * @typedef {import('./store').Message} Message
 * @typedef {import('./store').VisitorStart} VisitorStart
 * @typedef {import('./store').VisitorStarted} VisitorStarted
 * @typedef {import('./store').LeadInput} LeadInput
 * @typedef {import('./webhooks').WebhookKind} WebhookKind
 * @typedef {import('./webhooks').WebhookConfig} WebhookConfig
 * @typedef {import('./webhooks').WebhookConfigInput} WebhookConfigInput
 * @typedef {import('./webhooks').WebhookSignatureOptions} WebhookSignatureOptions
 * @typedef {import('./webhooks').WebhookDelivery} WebhookDelivery
 * @typedef {import('./webhooks').WebhookData} WebhookData
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').ServerResponse} ServerResponse
 */

/** @typedef {'objects' | 'strings'} TagShape */

/**
 * What can be changed at run time (`configure`, `POST /_sandbox/configure`).
 * @typedef {object} SandboxConfig
 * @property {string} token Bearer token every API call must carry.
 * @property {PaginationStyle | HostilePaginationStyle} pagination
 * @property {Envelope} envelope
 * @property {ErrorStyle} errorStyle
 * @property {number} pageSize Page size when the request names none.
 * @property {number} maxPageSize Cap on `per_page` / `limit` / `page_size`.
 * @property {200 | 204} deleteStatus Answer to DELETE: 200 with `{ success: true }`, or 204 without a body.
 * @property {TagShape} tagShape GET /tags items: `{ id, name }` objects or bare names.
 * @property {string | null} publicOrigin Origin used in absolute next-page URLs; null = the request's Host header.
 * @property {boolean} log Whether API requests are recorded in `requests` (turn off for long benchmark runs).
 */

/**
 * @typedef {object} StartOptions
 * @property {number} [port] 0 (default) = an ephemeral port. The server listens on 127.0.0.1 only.
 * @property {SeedOptions} [seed] Initial data; default none.
 * @property {() => Date} [now] Clock for timestamps of records made at run time (seeded records have fixed timestamps).
 * @property {WebhookConfigInput} [webhooks] Initial webhook configuration (also what `reset` returns to); default: no receivers.
 * @property {'rest' | 'support-board'} [api] `support-board`: the product's Web API (`POST {origin}/script/include/api.php`,
 *   also at `/supportboard/include/api.php` and `/include/api.php`) over the same data, and its webhooks; no REST paths.
 * @property {import('./supportBoard').SupportBoardOptions} [supportBoard] Support Board mode's own start-up options.
 *
 * @typedef {Partial<SandboxConfig> & StartOptions} SandboxOptions
 */

/**
 * @typedef {object} LoggedRequest
 * @property {string} method
 * @property {string} path Path without the `/script/include/api` prefix (the full path when the prefix is missing).
 * @property {Record<string, string | string[]>} query Query parameters; a repeated name gives an array.
 * @property {unknown} body Parsed JSON, the raw text when it is not JSON, undefined when empty.
 * @property {number} status 0 while unanswered, and for a `reset` fault.
 * @property {Record<string, string>} headers Lower-case names; `authorization` is redacted and the token appears nowhere.
 * @property {FaultKind} [fault] The fault applied to this request, if any.
 * @property {number} time Arrival time, ms since the epoch.
 * @property {number} [answered] When the answer was sent, ms since the epoch (none while unanswered): with `time`, how many were in flight at once.
 * @property {string} [function] Support Board mode: the Web API function called (its body holds the arguments, the token as ***).
 */

/**
 * The chat widget's side: what a visitor does, outside the bearer API.
 * @typedef {object} Visitor
 * @property {(input: VisitorStart) => VisitorStarted} startConversation An e-mail address or +phone number in the first message is a lead, as with `say`.
 * @property {(conversationId: string, text: string) => Message} say The visitor writes (type `user`). A text holding an e-mail address or a +phone number that the user does not have yet is a lead: the user gets the missing fields, then `leadCaptured` (via `message`).
 * @property {(input: LeadInput) => { user: User, created: boolean }} captureLead The visitor leaves contact details (lead capture): creates or updates the user by e-mail, else phone.
 */

/**
 * The handle `startSandbox` gives: read-only members, live arrays.
 * @typedef {Readonly<SandboxMembers>} Sandbox
 *
 * @typedef {object} SandboxMembers
 * @property {string} baseUrl `http://127.0.0.1:PORT/script/include/api`
 * @property {string} origin `http://127.0.0.1:PORT`
 * @property {string} controlUrl `http://127.0.0.1:PORT/_sandbox`
 * @property {number} port
 * @property {LoggedRequest[]} requests Request log (live array).
 * @property {SandboxState} state
 * @property {Readonly<SandboxConfig>} config
 * @property {import('node:events').EventEmitter<{ change: [ChangeEvent] }>} events Emits `change` with a ChangeEvent for every state change.
 * @property {Visitor} visitor
 * @property {() => void} clearLog
 * @property {(patch: Partial<SandboxConfig>) => SandboxConfig} configure
 * @property {(spec: FaultSpec) => QueuedFault} fault
 * @property {() => QueuedFault[]} faults Faults still queued.
 * @property {() => void} clearFaults
 * @property {Readonly<WebhookConfig>} webhooks The current webhook configuration.
 * @property {WebhookDelivery[]} deliveries The delivery log (live array; emptied by `reset`).
 * @property {(patch: WebhookConfigInput) => Readonly<WebhookConfig>} configureWebhooks Changes the webhook configuration (a patch); throws a TypeError on a bad value.
 * @property {(options?: Partial<WebhookSignatureOptions>) => WebhookSignatureOptions} webhookSignatureOptions Test levers for the signature; returns the options now in force.
 * @property {<K extends WebhookKind>(kind: K, data?: WebhookData[K], options?: { source?: EventSource }) => string | null} emitWebhook
 *   Sends an event now without changing data. Source defaults to `visitor` (chat) for conversationCreated and
 *   leadCaptured, else `api`. Returns the delivery id, or null when no receiver is configured or the kind is off.
 * @property {() => Promise<void>} settled Resolves when every queued delivery, retries included, has ended.
 * @property {(options?: SeedOptions) => void} seed Replaces all data with freshly generated data (ids restart); without options, the startup seed.
 * @property {() => void} reset Back to the start: initial config, webhook config and seed; no faults, empty logs, queued deliveries dropped.
 * @property {SupportBoardHandle | null} supportBoard Support Board mode's levers; null in REST mode.
 * @property {{ put: (path: string, file: import('./files').SandboxFile) => string, clear: () => void }} files
 *   Files served at `path` in either mode (an attachment's URL); `put` gives the file's URL. Requests for them are in `requests`.
 * @property {() => Promise<void>} close
 *
 * @typedef {object} SupportBoardHandle
 * @property {string} installUrl `{origin}/script`, what a user enters as Base URL.
 * @property {string} apiUrl `{installUrl}/include/api.php`
 * @property {import('./supportBoardRecords').SupportBoardData} data The records as the product shapes them.
 * @property {Readonly<import('./supportBoardWebhooks').SupportBoardWebhookConfig>} webhooks
 * @property {(patch: import('./supportBoardWebhooks').SupportBoardWebhookInput) => Readonly<import('./supportBoardWebhooks').SupportBoardWebhookConfig>} configureWebhooks
 * @property {import('./supportBoardWebhooks').SupportBoardDelivery[]} deliveries Delivery log (live array).
 * @property {() => Promise<void>} settled Resolves when every delivery under way has ended.
 * @property {() => { installUrl: string, apiUrl: string, webhooks: Record<string, unknown> }} describe The mode as the control API shows it (the Secret key masked).
 * @property {import('./supportBoard').SupportBoardMode['visitor']} visitor What visitors do in the widget (the browser-side webhooks).
 * @property {import('./supportBoard').SupportBoardMode['agent']} agent What agents do in the admin area.
 * @property {import('./supportBoard').SupportBoardMode['sendWebhook']} sendWebhook Sends one kind in the product's body shape.
 * @property {import('./supportBoard').SupportBoardMode['channels']} channels The channel apps: `installed` (none at start), and what they `sent`.
 * @property {import('./supportBoard').SupportBoardMode['uploads']} uploads The files upload.php took, by path under the install.
 * @property {import('./supportBoard').SupportBoardMode['ageMessage']} ageMessage Moves a stored message back in time, as a test ages one in the product's database.
 */

const API_PREFIX = /** @type {const} */ ('/script/include/api');
const CONTROL_PREFIX = /** @type {const} */ ('/_sandbox');
const HOST = '127.0.0.1';

/** @type {Readonly<SandboxConfig>} */
const DEFAULT_CONFIG = Object.freeze({
	token: 'test-token',
	pagination: 'page',
	envelope: 'none',
	errorStyle: 'message',
	pageSize: 20,
	maxPageSize: 100,
	deleteStatus: 200,
	tagShape: 'objects',
	publicOrigin: null,
	log: true,
});

/**
 * @param {SandboxConfig} base
 * @param {Record<string, unknown>} patch
 * @returns {SandboxConfig}
 */
function mergeConfig(base, patch) {
	if (typeof patch !== 'object' || patch === null)
		throw new TypeError('configuration must be an object');
	/** @type {Record<string, unknown>} */
	const next = { ...base };
	for (const [key, value] of Object.entries(patch)) {
		if (value === undefined) continue;
		if (!(key in DEFAULT_CONFIG)) throw new TypeError(`unknown setting ${key}`);
		next[key] = value;
	}
	const c = /** @type {SandboxConfig} */ (/** @type {unknown} */ (next));
	/** @param {boolean} ok @param {string} message */
	const check = (ok, message) => {
		if (!ok) throw new TypeError(message);
	};
	check(typeof c.token === 'string' && c.token.length > 0, 'token must be a non-empty string');
	check(
		ACCEPTED_PAGINATION.includes(c.pagination),
		`pagination must be one of ${ACCEPTED_PAGINATION.join(', ')}`,
	);
	check(ENVELOPES.includes(c.envelope), `envelope must be one of ${ENVELOPES.join(', ')}`);
	check(
		ERROR_STYLES.includes(c.errorStyle),
		`errorStyle must be one of ${ERROR_STYLES.join(', ')}`,
	);
	check(Number.isInteger(c.pageSize) && c.pageSize > 0, 'pageSize must be a positive integer');
	check(
		Number.isInteger(c.maxPageSize) && c.maxPageSize > 0,
		'maxPageSize must be a positive integer',
	);
	check(c.deleteStatus === 200 || c.deleteStatus === 204, 'deleteStatus must be 200 or 204');
	check(
		c.tagShape === 'objects' || c.tagShape === 'strings',
		'tagShape must be objects or strings',
	);
	check(
		c.publicOrigin === null ||
			(typeof c.publicOrigin === 'string' &&
				/^https?:\/\/[^/]+$/.test(c.publicOrigin.replace(/\/+$/, ''))),
		'publicOrigin must be null or an origin like http://host:port',
	);
	if (typeof c.publicOrigin === 'string') c.publicOrigin = c.publicOrigin.replace(/\/+$/, '');
	check(typeof c.log === 'boolean', 'log must be a boolean');
	return Object.freeze(c);
}

/** @type {Map<number, Promise<Buffer>>} */
const bombs = new Map();

/**
 * A gzip body inflating to `size` bytes (`[` and spaces): about 600 KB for 600 MB. Built once per size,
 * streamed through zlib so the sandbox never holds the inflated bytes.
 * @param {number} size
 * @returns {Promise<Buffer>}
 */
function gzipBomb(size) {
	const cached = bombs.get(size);
	if (cached) return cached;
	const built = new Promise((resolve, reject) => {
		const gzip = zlib.createGzip({ level: 9, memLevel: 9 });
		/** @type {Buffer[]} */
		const out = [];
		gzip.on('data', (chunk) => out.push(chunk));
		gzip.on('end', () => resolve(Buffer.concat(out)));
		gzip.on('error', reject);
		const chunk = Buffer.alloc(1 << 20, 0x20);
		let left = size - 1;
		gzip.write('[');
		const pump = () => {
			while (left > 0) {
				const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
				left -= piece.length;
				if (!gzip.write(piece)) return void gzip.once('drain', pump);
			}
			gzip.end();
		};
		pump();
	});
	bombs.set(size, built);
	return built;
}

/**
 * Compares in constant time (hashing first hides the length), as a real service must.
 * @param {string | undefined} header
 * @param {string} token
 */
function bearerMatches(header, token) {
	const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
	if (!m) return false;
	const digest = (/** @type {string} */ s) => crypto.createHash('sha256').update(s).digest();
	return crypto.timingSafeEqual(digest(m[1].trim()), digest(token));
}

/**
 * Replaces every occurrence of the token, wherever a client put it (query, body, another header).
 * @param {unknown} value
 * @param {string} token
 * @returns {unknown}
 */
function scrub(value, token) {
	if (typeof value === 'string')
		return value.includes(token) ? value.split(token).join('***') : value;
	if (Array.isArray(value)) return value.map((v) => scrub(v, token));
	if (typeof value === 'object' && value !== null) {
		return Object.fromEntries(
			Object.entries(value).map(([k, v]) => [scrub(k, token), scrub(v, token)]),
		);
	}
	return value;
}

/**
 * @param {IncomingMessage['headers']} raw
 * @param {string} token
 * @returns {Record<string, string>}
 */
function logHeaders(raw, token) {
	/** @type {Record<string, string>} */
	const headers = {};
	for (const [name, value] of Object.entries(raw)) {
		if (value === undefined) continue;
		headers[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	if (headers.authorization !== undefined) {
		headers.authorization = /^bearer\s/i.test(headers.authorization) ? 'Bearer ***' : '***';
	}
	return /** @type {Record<string, string>} */ (scrub(headers, token));
}

/** @param {string} text */
function parseOrRaw(text) {
	if (text.trim() === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/**
 * Starts the sandbox on 127.0.0.1.
 * @param {SandboxOptions} [options]
 * @returns {Promise<Sandbox>}
 */
async function startSandbox(options = {}) {
	const {
		port = 0,
		seed: initialSeed = {},
		now = () => new Date(),
		webhooks: initialWebhooks = {},
		api = 'rest',
		supportBoard: supportBoardOptions = {},
		...settings
	} = options;
	if (api !== 'rest' && api !== 'support-board')
		throw new TypeError('api must be rest or support-board');
	const initialConfig = mergeConfig(DEFAULT_CONFIG, settings);
	let config = initialConfig;
	const store = new Store({ now });
	store.seed(initialSeed);
	const webhooks = new Webhooks({ now, state: store.state, initial: initialWebhooks });
	store.events.on('change', (event) => webhooks.onChange(event));
	const faults = new FaultQueue();
	const files = new Files();
	/** @type {LoggedRequest[]} */
	const requests = [];
	/** @type {Set<NodeJS.Timeout>} */
	const timers = new Set();
	let origin = '';
	/** Support Board's webhooks are sent inline by the call that fires them; these are the ones under way. */
	/** @type {Set<Promise<void>>} */
	const sbPending = new Set();
	const sb =
		api === 'support-board'
			? createSupportBoard({
					store,
					now,
					token: () => config.token,
					origin: () => origin,
					post: (target, headers, body, timeoutMs, signal) =>
						webhooks.post(target, headers, body, timeoutMs, signal),
					track: (sending) => {
						const settledOne = sending
							.catch(() => undefined)
							.finally(() => sbPending.delete(settledOne));
						sbPending.add(settledOne);
					},
					options: supportBoardOptions,
				})
			: null;
	sb?.afterSeed();

	/** @param {number} ms */
	const delay = (ms) =>
		new Promise((resolve) => {
			const timer = setTimeout(() => {
				timers.delete(timer);
				resolve(undefined);
			}, ms);
			timers.add(timer);
		});

	/**
	 * Logs a request as both modes do, the token scrubbed from every part, and gives the function that
	 * answers it, which records the status on the entry.
	 * @param {IncomingMessage} req
	 * @param {ServerResponse} res
	 * @param {string} method
	 * @param {string} path
	 * @param {LoggedRequest['query']} query
	 * @param {unknown} body
	 */
	function logged(req, res, method, path, query, body) {
		/** @type {LoggedRequest} */
		const entry = {
			method,
			path: /** @type {string} */ (scrub(path, config.token)),
			query: /** @type {LoggedRequest['query']} */ (scrub(query, config.token)),
			body: scrub(body, config.token),
			status: 0,
			headers: logHeaders(req.headers, config.token),
			time: Date.now(),
		};
		if (config.log) requests.push(entry);
		/** @param {number} status @param {Record<string, string>} headers @param {string} [text] */
		const answer = (status, headers, text) => {
			entry.status = status;
			entry.answered = Date.now();
			send(res, status, headers, text);
		};
		return { entry, answer };
	}

	/**
	 * @param {IncomingMessage} req
	 * @param {ServerResponse} res
	 * @param {URL} url
	 */
	async function handleApi(req, res, url) {
		const method = (req.method ?? 'GET').toUpperCase();
		const body = await readBody(req);
		const inApi = url.pathname === API_PREFIX || url.pathname.startsWith(`${API_PREFIX}/`);
		const path = inApi ? url.pathname.slice(API_PREFIX.length) || '/' : url.pathname;
		const query = queryObject(url.searchParams);
		const cfg = config;
		const { entry, answer } = logged(req, res, method, path, query, parseOrRaw(body.text));
		/**
		 * @param {number} status
		 * @param {string} message
		 * @param {string} [field]
		 * @param {Record<string, string>} [headers]
		 */
		const fail = (status, message, field, headers = {}) => {
			const { contentType, body: text } = errorBody(config.errorStyle, status, message, field);
			answer(status, { 'content-type': contentType, ...headers }, text);
		};
		/** @param {number} status @param {unknown} value @param {Record<string, string>} [headers] */
		const json = (status, value, headers = {}) =>
			answer(
				status,
				{ 'content-type': 'application/json; charset=utf-8', ...headers },
				JSON.stringify(value),
			);

		if (!inApi) return fail(404, `No such path: ${url.pathname}`);
		if (!bearerMatches(req.headers.authorization, cfg.token)) {
			const missing = !req.headers.authorization;
			return fail(401, missing ? 'Missing bearer token' : 'Invalid bearer token', undefined, {
				'www-authenticate': 'Bearer realm="api"',
			});
		}

		const routePath = path.replace(/\/+$/, '') || '/';
		const fault = faults.take(method, routePath, url.searchParams.get('page') ?? undefined);
		if (fault) entry.fault = fault.kind;
		switch (fault?.kind) {
			case 'reset':
				req.socket.destroy();
				return;
			case '429': {
				/** @type {Record<string, string>} */
				const headers =
					fault.retryAfter === undefined
						? {}
						: { 'retry-after': retryAfterHeader(fault.retryAfter) };
				return fail(429, fault.message ?? 'Too many requests', undefined, headers);
			}
			case '500':
			case '503':
			case 'status': {
				const status = fault.kind === 'status' ? Number(fault.status) : Number(fault.kind);
				/** @type {Record<string, string>} */
				const headers =
					fault.retryAfter === undefined
						? {}
						: { 'retry-after': retryAfterHeader(fault.retryAfter) };
				return fail(
					status,
					fault.message ?? (status >= 500 ? 'Server error, try again later' : 'Request failed'),
					undefined,
					headers,
				);
			}
			case 'html':
				return answer(
					fault.status ?? 502,
					{ 'content-type': 'text/html; charset=utf-8' },
					htmlPage(fault.status ?? 502, fault.message),
				);
			case 'malformed':
				return answer(
					200,
					{ 'content-type': 'application/json; charset=utf-8' },
					'{"data":[{"id":"u_0001","name":"Ada Ad',
				);
			case 'success-false':
				return json(200, {
					success: false,
					error: fault.message ?? 'The service could not complete the request',
				});
			case 'slow':
				await delay(fault.delayMs ?? 1000);
				if (res.destroyed) return;
				break;
			case 'redirect':
				// A slow hop: a chain of them tests that Timeout covers the whole answer, not each hop.
				if (fault.delayMs !== undefined) await delay(fault.delayMs);
				if (res.destroyed) return;
				return answer(
					fault.status ?? 302,
					{ location: String(fault.location), 'content-type': 'text/plain; charset=utf-8' },
					'Moved',
				);
			case 'raw': {
				/** @type {Record<string, string>} */
				const headers =
					fault.contentType === undefined ? {} : { 'content-type': fault.contentType };
				return answer(fault.status ?? 200, headers, fault.body ?? '');
			}
			case 'trickle': {
				// Headers at once, then one byte at a time: an idle timeout never fires.
				entry.status = 200;
				res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
				const text = `[${' '.repeat(Math.max(0, (fault.bytes ?? 200) - 2))}]`;
				for (const char of text) {
					if (res.destroyed) return;
					res.write(char);
					await delay(fault.intervalMs ?? 300);
				}
				res.end();
				return;
			}
			case 'gzip-bomb': {
				const bomb = await gzipBomb(fault.inflatedBytes ?? 600 * 1024 * 1024);
				entry.status = 200;
				res.writeHead(200, {
					'content-type': 'application/json; charset=utf-8',
					'content-encoding': 'gzip',
					'content-length': String(bomb.length),
				});
				res.end(bomb);
				return;
			}
			default:
				break;
		}

		if (body.tooLarge) return fail(413, 'Request body is too large');
		/** @type {Record<string, unknown>} */
		let input = {};
		if (body.text.trim() !== '' && method !== 'GET' && method !== 'DELETE') {
			/** @type {unknown} */
			let parsed;
			try {
				parsed = JSON.parse(body.text);
			} catch {
				return fail(400, 'Request body is not valid JSON');
			}
			if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
				return fail(422, 'Request body must be a JSON object');
			}
			input = /** @type {Record<string, unknown>} */ (parsed);
		}

		const match = matchRoute(method, routePath);
		if (!match) return fail(404, `No such path: ${routePath}`);
		if ('allowed' in match)
			return fail(405, `Method ${method} not allowed on ${routePath}`, undefined, {
				allow: match.allowed.join(', '),
			});

		const linkOrigin =
			cfg.publicOrigin ?? (req.headers.host ? `http://${req.headers.host}` : origin);
		/** @type {import('./api').Result} */
		let result;
		try {
			result = match.route.handle({
				store,
				config: cfg,
				params: match.params,
				query,
				body: input,
				repeat: fault?.kind === 'repeat-cursor',
				urlFor: (q) => `${linkOrigin}${API_PREFIX}${routePath}${queryString(q)}`,
			});
		} catch (error) {
			if (error instanceof SandboxError) return fail(error.status, error.message, error.field);
			throw error;
		}
		// The write happened; the answer is lost, so a client that re-sends the POST creates a duplicate.
		if (fault?.kind === 'drop-after-write')
			return fail(fault.status ?? 500, fault.message ?? 'Internal server error');

		switch (result.type) {
			case 'record': {
				// A service that echoes the caller's token back, raw, URL-encoded and inside base64.
				const record =
					fault?.kind === 'echo-token'
						? {
								.../** @type {Record<string, unknown>} */ (result.record),
								api_token: cfg.token,
								callback_url: `https://chat.example.com/hook?token=${encodeURIComponent(cfg.token)}`,
								auth_header_b64: Buffer.from(`Bearer ${cfg.token}`).toString('base64'),
							}
						: result.record;
				return json(result.status, wrapRecord(record, cfg.envelope));
			}
			case 'page':
				return json(200, wrapPage(result.page.body, cfg.envelope), result.page.headers);
			case 'deleted':
				if (cfg.deleteStatus === 204) return answer(204, {});
				return json(
					200,
					cfg.envelope === 'success-response'
						? { success: true, response: { id: result.id, deleted: true } }
						: { success: true },
				);
		}
	}

	/**
	 * Support Board mode: its Web API at the product's paths, and nothing else, as a PHP server answers
	 * (a 404 page for any other path, the REST paths of the description included).
	 * @param {IncomingMessage} req
	 * @param {ServerResponse} res
	 * @param {URL} url
	 */
	async function handleSupportBoardApi(req, res, url) {
		const mode = /** @type {NonNullable<typeof sb>} */ (sb);
		const method = (req.method ?? 'GET').toUpperCase();
		const body = await readBody(req);
		const cfg = config;
		// The body is logged once the product's arguments are read from it (log below).
		const { entry, answer } = logged(
			req,
			res,
			method,
			url.pathname,
			queryObject(url.searchParams),
			undefined,
		);
		if (SUPPORT_BOARD_PATHS.map((p) => p.replace(/api\.php$/, 'upload.php')).includes(url.pathname))
			return answer(
				200,
				{ 'content-type': 'text/html; charset=UTF-8' },
				mode.uploads.upload(body.bytes, req.headers['content-type']),
			);
		const uploaded = url.pathname.startsWith(INSTALL_PREFIX)
			? mode.uploads.file(url.pathname.slice(INSTALL_PREFIX.length))
			: undefined;
		if (uploaded && method === 'GET') {
			entry.status = 200;
			res.writeHead(200, {
				'content-type': uploaded.type,
				'content-length': String(uploaded.bytes.length),
			});
			return res.end(uploaded.bytes);
		}
		if (!SUPPORT_BOARD_PATHS.includes(url.pathname)) {
			return answer(
				404,
				{ 'content-type': 'text/html; charset=UTF-8' },
				htmlPage(404, `The requested resource ${url.pathname} was not found on this server.`),
			);
		}
		await mode.handle({
			req,
			text: body.text,
			log: (params, fn) => {
				entry.body = scrub(params, cfg.token);
				if (fn !== undefined) entry.function = fn;
			},
			takeFault: (fn, pagination) => {
				const fault = faults.take('POST', fn, pagination);
				if (fault) entry.fault = fault.kind;
				return fault;
			},
			answer,
			delay,
		});
	}

	/** @param {IncomingMessage} req @param {ServerResponse} res @param {URL} url */
	async function serveFile(req, res, url) {
		const { entry } = logged(
			req,
			res,
			'GET',
			url.pathname,
			queryObject(url.searchParams),
			undefined,
		);
		await files.serve(url.pathname, res, (status) => (entry.status = status), delay);
	}

	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		if (files.has(url.pathname) && (req.method ?? 'GET').toUpperCase() === 'GET') {
			serveFile(req, res, url).catch(() => res.destroy());
			return;
		}
		const inControl =
			url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`);
		const work = inControl
			? handleSupportBoardControl(req, res, url, sandbox.supportBoard).then(async (done) => {
					if (!done) await handleControl(req, res, url, sandbox);
				})
			: sb
				? handleSupportBoardApi(req, res, url)
				: handleApi(req, res, url);
		work.catch((error) => {
			send(
				res,
				500,
				{ 'content-type': 'text/plain; charset=utf-8' },
				`sandbox failure: ${error instanceof Error ? error.stack : String(error)}`,
			);
		});
	});
	// Keep-alive matters for the benchmark: a client should reuse its connections across pages.
	server.keepAliveTimeout = 10_000;

	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, HOST, () => {
			server.off('error', reject);
			resolve(undefined);
		});
	});
	const address = server.address();
	const boundPort = typeof address === 'object' && address ? address.port : port;
	origin = `http://${HOST}:${boundPort}`;

	/** @type {Sandbox} */
	const sandbox = {
		baseUrl: `${origin}${API_PREFIX}`,
		origin,
		controlUrl: `${origin}${CONTROL_PREFIX}`,
		port: boundPort,
		requests,
		state: store.state,
		get config() {
			return config;
		},
		events: store.events,
		visitor: {
			startConversation: (input) => store.visitorStart(input),
			say: (conversationId, text) => store.visitorSay(conversationId, text),
			captureLead: (input) => store.captureLead(input),
		},
		clearLog() {
			requests.length = 0;
		},
		configure(patch) {
			config = mergeConfig(config, patch);
			return config;
		},
		fault: (spec) => faults.add(spec),
		faults: () => faults.list(),
		clearFaults: () => faults.clear(),
		get webhooks() {
			return webhooks.config;
		},
		deliveries: webhooks.deliveries,
		configureWebhooks: (patch) => webhooks.configure(patch),
		webhookSignatureOptions: (signatureOptions) => webhooks.signatureOptions(signatureOptions),
		emitWebhook: (kind, data, emitOptions) =>
			webhooks.emit(kind, /** @type {Record<string, unknown> | undefined} */ (data), emitOptions),
		settled: async () => {
			await webhooks.settled();
			while (sbPending.size > 0) await Promise.all([...sbPending]);
		},
		seed(seedOptions) {
			store.seed(seedOptions ?? initialSeed);
			sb?.afterSeed();
		},
		files: {
			put: (path, file) => `${origin}${files.put(path, file)}`,
			clear: () => files.clear(),
		},
		reset() {
			config = initialConfig;
			faults.clear();
			files.clear();
			requests.length = 0;
			webhooks.reset();
			sb?.reset();
			store.seed(initialSeed);
			sb?.afterSeed();
		},
		supportBoard: sb && {
			installUrl: sb.installUrl(),
			apiUrl: `${sb.installUrl()}/include/api.php`,
			data: sb.data,
			get webhooks() {
				return sb.webhooks.config;
			},
			configureWebhooks: (patch) => sb.webhooks.configure(patch),
			deliveries: sb.webhooks.deliveries,
			settled: async () => {
				while (sbPending.size > 0) await Promise.all([...sbPending]);
			},
			describe: () => ({
				installUrl: sb.installUrl(),
				apiUrl: `${sb.installUrl()}/include/api.php`,
				webhooks: { ...sb.webhooks.config, key: sb.webhooks.config.key ? '***' : '' },
			}),
			visitor: sb.visitor,
			agent: sb.agent,
			sendWebhook: (name, ids) => sb.sendWebhook(name, ids),
			channels: sb.channels,
			uploads: sb.uploads,
			ageMessage: sb.ageMessage,
		},
		close() {
			for (const timer of timers) clearTimeout(timer);
			timers.clear();
			webhooks.close();
			sb?.close();
			return new Promise((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			});
		},
	};
	return sandbox;
}

module.exports = {
	API_PREFIX,
	CONTROL_PREFIX,
	DEFAULT_CONFIG,
	ENVELOPES,
	ERROR_STYLES,
	FAULT_KINDS,
	PAGINATION_STYLES,
	WEBHOOK_EVENT_NAMES,
	WEBHOOK_KINDS,
	WEBHOOK_STYLES,
	WEBHOOK_TAMPERS,
	parseWebhookUrls,
	signWebhook,
	startSandbox,
};
