// @ts-check
'use strict';

const crypto = require('node:crypto');

const { SupportBoardData } = require('./supportBoardRecords');
const { isset, phpJson, requestParams } = require('./supportBoardPhp');
const { WEB_API_FUNCTIONS } = require('./supportBoardTable');
const { USER_FUNCTIONS } = require('./supportBoardUsers');
const { CONVERSATION_FUNCTIONS } = require('./supportBoardConversations');
const { SEARCH_FUNCTIONS } = require('./supportBoardSearch');
const { sendMessage } = require('./supportBoardMessages');
const { STAFF_FUNCTIONS } = require('./supportBoardStaff');
const { lifeFunctions } = require('./supportBoardLife');
const { settingsFunctions } = require('./supportBoardSettings');
const { SUPPORT_BOARD_WEBHOOK_BODIES, SupportBoardWebhooks } = require('./supportBoardWebhooks');
const { SupportBoardVisitor } = require('./supportBoardVisitor');
const { createChannels } = require('./supportBoardChannels');
const { createInbound } = require('./supportBoardInbound');
const { createUploads } = require('./supportBoardUploads');
const { htmlPage } = require('./errors');

/**
 * The Support Board mode: the product's Web API (`POST {install}/include/api.php`, `function` and the
 * admin `token` in the body) over the sandbox's store, and the product's webhooks.
 *
 * @typedef {import('./store').Store} Store
 * @typedef {import('./faults').QueuedFault} QueuedFault
 * @typedef {import('./supportBoardResult').Outcome} Outcome
 * @typedef {import('./supportBoardResult').CallContext} CallContext
 * @typedef {import('./supportBoardWebhooks').SupportBoardWebhookInput} SupportBoardWebhookInput
 * @typedef {import('./supportBoardWebhooks').Post} Post
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 *
 * @typedef {object} SupportBoardOptions
 * @property {SupportBoardWebhookInput} [webhooks] Start-up webhook settings (also what `reset` returns to).
 * @property {string} [pageUrl] The page the widget runs on: the `sender-url` of the visitor's webhooks. Default `{origin}/`.
 * @property {'3.8.7' | '3.8.9'} [version] The product's version: 3.8.9 adds update-tags and whatsapp-get-templates to the Web API. Default 3.8.7.
 * @property {import('./supportBoardLife').SupportBoardDepartment[]} [departments] The departments of its settings. Default none.
 * @property {number} [latencyMs] Every Web API call answers this many ms later, as an install across a network does
 *   (what concurrent clients gain shows only then). Default 0.
 *
 * What the HTTP layer gives a call, and how it answers.
 * @typedef {object} Exchange
 * @property {IncomingMessage} req
 * @property {string} text The raw body.
 * @property {(params: Record<string, unknown>, fn: string | undefined) => void} log Records the parsed call.
 * @property {(fn: string, pagination: unknown) => QueuedFault | undefined} takeFault The first fault for this function (and page of a list).
 * @property {(status: number, headers: Record<string, string>, text: string) => void} answer
 * @property {(ms: number) => Promise<void>} delay
 */

/** Where the product's Web API answers: the SaaS-like `/script` install, a self-hosted folder, the root. */
const SUPPORT_BOARD_PATHS = Object.freeze([
	'/script/include/api.php',
	'/supportboard/include/api.php',
	'/include/api.php',
]);
const INSTALL_PREFIX = '/script';

/** @type {Record<string, (ctx: CallContext) => Outcome>} */
const FUNCTIONS = {
	...USER_FUNCTIONS,
	...CONVERSATION_FUNCTIONS,
	...SEARCH_FUNCTIONS,
	...STAFF_FUNCTIONS,
	'send-message': sendMessage,
};

/** api.php's own answers set no CORS header; a function's answer comes through ajax.php, which does. */
const BEFORE = { 'content-type': 'text/html; charset=UTF-8' };
const AFTER = { 'access-control-allow-headers': '*', 'content-type': 'text/html; charset=UTF-8' };

/** @param {string} code @param {string} message */
const apiError = (code, message) => phpJson({ status: 'error', response: code, message });

/** @param {string} a @param {string} b */
const sameSecret = (a, b) => {
	const digest = (/** @type {string} */ s) => crypto.createHash('sha256').update(s).digest();
	return crypto.timingSafeEqual(digest(a), digest(b));
};

/**
 * @param {{ store: Store, now: () => Date, token: () => string, origin: () => string, post: Post, track: (p: Promise<void>) => void, options?: SupportBoardOptions }} deps
 */
function createSupportBoard({ store, now, token, origin, post, track, options = {} }) {
	const installUrl = () => `${origin()}${INSTALL_PREFIX}`;
	const pageUrl = () => options.pageUrl ?? `${origin()}/`;
	const data = new SupportBoardData({ store, installUrl, adminToken: token });
	const webhooks = new SupportBoardWebhooks({ initial: options.webhooks, post, now, track });
	const visitor = new SupportBoardVisitor({ data, store, installUrl });
	const life = lifeFunctions(options);
	const channels = createChannels();
	const inbound = createInbound({ functions: FUNCTIONS, base: () => ({ data, store }) });
	const uploads = createUploads(installUrl);
	const settings = settingsFunctions(webhooks);
	/** @type {Record<string, (ctx: CallContext) => Outcome>} */
	const functions = {
		...FUNCTIONS,
		...life.functions,
		...channels.functions,
		...settings.functions,
	};

	/**
	 * Runs an action that fires webhooks, then sends them one after the other, as PHP does inline.
	 * @template T
	 * @param {(fire: (name: string, data: unknown) => void) => T} action
	 * @param {string} senderUrl
	 * @returns {Promise<T>}
	 */
	async function withWebhooks(action, senderUrl) {
		/** @type {{ name: string, data: unknown }[]} */
		const fired = [];
		const result = action((name, d) => fired.push({ name, data: d }));
		for (const f of fired) await webhooks.fire(f.name, f.data, senderUrl);
		return result;
	}

	/** An admin's token, wherever it was found (the product reads it from the body only when checking). @param {unknown} given */
	function isAdminToken(given) {
		if (typeof given !== 'string' || given === '') return false;
		if (sameSecret(given, token())) return true;
		return store.state.users.some((u) => data.userType(u) === 'admin' && data.token(u) === given);
	}

	/** @param {IncomingMessage} req The `token` header exactly so spelled, as apache_request_headers gives it. */
	function headerToken(req) {
		for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
			if (req.rawHeaders[i] === 'token') return req.rawHeaders[i + 1];
		return undefined;
	}

	/** @param {Exchange} x */
	async function handle(x) {
		if (options.latencyMs) await x.delay(options.latencyMs);
		const params = requestParams(x.text, x.req.headers['content-type']);
		const fnValue = params.function;
		const fn = fnValue === undefined || fnValue === null ? undefined : String(fnValue);
		x.log(params, fn);
		if (fn === undefined)
			return x.answer(
				400,
				BEFORE,
				apiError('missing-function-name', 'Function name is required. Get it from the docs.'),
			);
		const required = WEB_API_FUNCTIONS.get(fn) ?? life.added.get(fn);
		if (!required)
			return x.answer(
				404,
				BEFORE,
				apiError('function-not-found', `Function ${fn} not found. Check the function name.`),
			);
		const given = isset(params, 'token') || headerToken(x.req);
		if (!given)
			return x.answer(
				401,
				BEFORE,
				apiError(
					'token-not-found',
					'Admin token is required. Get it from Users > Your admin user profile box.',
				),
			);
		if (!isAdminToken(params.token))
			return x.answer(401, BEFORE, apiError('invalid-token', 'Use a token of an administrator.'));
		const missing = required.find((arg) => params[arg] === undefined || params[arg] === null);
		if (missing)
			return x.answer(400, BEFORE, apiError('missing-argument', `Missing argument: ${missing}`));

		const fault = x.takeFault(fn, params.pagination);
		const early = await applyFault(x, fault);
		if (early) return;

		const impl = functions[fn];
		if (!impl)
			return x.answer(
				501,
				AFTER,
				apiError('not-implemented', `The sandbox does not imitate ${fn}.`),
			);
		const referer = typeof x.req.headers.referer === 'string' ? x.req.headers.referer : '';
		const outcome = await withWebhooks((fire) => impl({ data, store, params, fire }), referer);
		if (fault?.kind === 'drop-after-write') return x.answer(fault.status ?? 500, BEFORE, '');
		if ('ok' in outcome)
			return x.answer(200, AFTER, phpJson({ success: true, response: outcome.ok }));
		if ('refused' in outcome)
			return x.answer(200, AFTER, phpJson({ success: false, response: outcome.refused }));
		if ('error' in outcome)
			return x.answer(
				200,
				AFTER,
				phpJson(
					outcome.message === undefined
						? { status: 'error', response: outcome.error }
						: { status: 'error', response: outcome.error, message: outcome.message },
				),
			);
		if ('fatal' in outcome) return x.answer(500, BEFORE, '');
		return x.answer(501, AFTER, apiError('not-implemented', outcome.missing));
	}

	/**
	 * The sandbox's faults, for the kinds that mean something to this API. Returns true when the fault
	 * answered the call.
	 * @param {Exchange} x
	 * @param {QueuedFault | undefined} fault
	 */
	async function applyFault(x, fault) {
		switch (fault?.kind) {
			case 'reset':
				x.req.socket.destroy();
				return true;
			case '429':
			case '500':
			case '503':
			case 'status': {
				const status = fault.kind === 'status' ? Number(fault.status) : Number(fault.kind);
				/** @type {Record<string, string>} */
				const headers =
					fault.retryAfter === undefined
						? {}
						: {
								'retry-after': String(
									fault.retryAfter instanceof Date
										? fault.retryAfter.toUTCString()
										: fault.retryAfter,
								),
							};
				x.answer(status, { ...BEFORE, ...headers }, fault.message ?? '');
				return true;
			}
			case 'html':
				x.answer(
					fault.status ?? 502,
					{ 'content-type': 'text/html; charset=utf-8' },
					htmlPage(fault.status ?? 502, fault.message),
				);
				return true;
			case 'raw':
				x.answer(
					fault.status ?? 200,
					fault.contentType === undefined ? {} : { 'content-type': fault.contentType },
					fault.body ?? '',
				);
				return true;
			case 'malformed':
				x.answer(200, AFTER, '{"success":true,"response":[{"id":"1","first_name":"Ad');
				return true;
			case 'success-false':
				x.answer(
					200,
					AFTER,
					phpJson({ success: false, response: fault.message ?? 'sandbox-refused' }),
				);
				return true;
			case 'redirect':
				x.answer(
					fault.status ?? 302,
					{ location: String(fault.location), 'content-type': 'text/plain; charset=utf-8' },
					'Moved',
				);
				return true;
			case 'slow':
				await x.delay(fault.delayMs ?? 1000);
				return x.req.socket.destroyed;
			default:
				return false;
		}
	}

	const page = () => pageUrl();
	const admin = () => `${installUrl()}/admin.php`;
	return {
		data,
		webhooks,
		handle,
		/** After every seed: the staff of a fresh install. */
		afterSeed() {
			data.addStaff();
			visitor.seen.clear();
		},
		reset() {
			webhooks.reset();
			channels.reset();
			inbound.reset();
			uploads.reset();
			settings.reset();
		},
		channels: {
			...channels,
			/**
			 * A customer writes in through a channel app, which posts its webhooks without a page.
			 * @param {import('./supportBoardInbound').InboundInput} input
			 */
			inbound: (input) => withWebhooks((fire) => inbound.inbound(input, fire), ''),
		},
		uploads,
		/**
		 * Moves a stored message `hours` back in time, as a test ages one in the product's database
		 * (`UPDATE sb_messages SET creation_time = creation_time - INTERVAL <hours> HOUR`).
		 * @param {string | number} id The product's message ID.
		 * @param {number} hours
		 */
		ageMessage(id, hours) {
			const message = store.state.messages.find((m) => Number(m.id.slice(2)) === Number(id));
			if (!message) throw new Error(`no message ${id}`);
			message.created_at = new Date(
				Date.parse(message.created_at) - hours * 3_600_000,
			).toISOString();
		},
		close() {
			webhooks.close();
		},
		installUrl,
		visitor: {
			/** @param {import('./supportBoardVisitor').VisitorStartInput} input */
			start: (input) => withWebhooks((fire) => visitor.start(input, fire), page()),
			/** @param {string | number} id @param {string} text */
			say: (id, text) => withWebhooks((fire) => visitor.say(id, text, fire), page()),
			/** @param {string | number} id */
			receiveMessages: (id) => withWebhooks((fire) => visitor.receive(id, fire), page()),
			/** @param {string | number} id */
			receiveConversation: (id) =>
				withWebhooks((fire) => visitor.receiveConversation(id, fire), page()),
			/** @param {import('./supportBoardVisitor').RegistrationInput} input */
			register: (input) => withWebhooks((fire) => visitor.register(input, fire), page()),
			/** @param {import('./supportBoardVisitor').LoginInput} input */
			login: (input) => withWebhooks((fire) => visitor.login(input, fire), page()),
			/** @param {import('./supportBoardVisitor').FollowUpInput} input */
			followUp: (input) => withWebhooks((fire) => visitor.followUp(input, fire), page()),
		},
		agent: {
			/** @param {string | number} id */
			deleteUser: (id) => withWebhooks((fire) => visitor.deleteUser(id, fire), admin()),
		},
		/**
		 * Sends one kind in the product's body shape (`SUPPORT_BOARD_WEBHOOK_BODIES`), for kinds no action
		 * of the sandbox causes; as the widget sends it, from the page.
		 * @param {import('./supportBoardWebhooks').SupportBoardWebhook} name
		 * @param {import('./supportBoardWebhooks').WebhookIds} [ids]
		 */
		sendWebhook: (name, ids = {}) => {
			if (!Object.hasOwn(SUPPORT_BOARD_WEBHOOK_BODIES, name))
				throw new TypeError(`unknown webhook ${String(name)}`);
			return webhooks.fire(name, SUPPORT_BOARD_WEBHOOK_BODIES[name](ids), page());
		},
	};
}

/** @typedef {ReturnType<typeof createSupportBoard>} SupportBoardMode */

module.exports = { createSupportBoard, SUPPORT_BOARD_PATHS, INSTALL_PREFIX };
