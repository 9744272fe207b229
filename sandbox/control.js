// @ts-check
'use strict';

const { SandboxError } = require('./errors');
const { isLoopback, readBody, sendJson } = require('./httpio');

/**
 * The control API under /_sandbox/: the same levers as the JavaScript handle, for a process that did
 * not start the sandbox (the demo, an n8n instance under test). No bearer token; loopback callers only.
 *
 * @typedef {import('./sandbox').Sandbox} Sandbox
 * @typedef {import('./sandbox').SandboxConfig} SandboxConfig
 * @typedef {import('./faults').FaultSpec} FaultSpec
 * @typedef {import('./faults').QueuedFault} QueuedFault
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').ServerResponse} ServerResponse
 * @typedef {{ status?: number, body: unknown }} Reply
 * @typedef {(input: Record<string, unknown>, sb: Sandbox, url: URL, params: string[]) => Reply | Promise<Reply>} Handler
 */

/** @param {SandboxConfig} config */
const publicConfig = (config) => ({ ...config, token: '***' });

/** @param {Sandbox} sb */
const publicWebhooks = (sb) => ({
	...sb.webhooks,
	secret: sb.webhooks.secret === null ? null : '***',
	signature: sb.webhookSignatureOptions(),
});

/**
 * JSON has no RegExp and no Infinity: a pattern is given as `pathRegex`, endless as `times: null`.
 * @param {Record<string, unknown>} input
 * @returns {FaultSpec}
 */
function faultFromJson(input) {
	const { pathRegex, times, ...rest } = input;
	const spec = /** @type {FaultSpec} */ (/** @type {unknown} */ (rest));
	if (pathRegex !== undefined) {
		if (typeof pathRegex !== 'string') throw new TypeError('pathRegex must be a string');
		spec.path = new RegExp(pathRegex);
	}
	if (times === null || times === 'Infinity') spec.times = Infinity;
	else if (times !== undefined) spec.times = /** @type {number} */ (times);
	return spec;
}

/** @param {QueuedFault} fault */
function faultToJson(fault) {
	const { path, remaining, retryAfter, ...rest } = fault;
	return {
		...rest,
		...(path instanceof RegExp ? { pathRegex: path.source } : path === undefined ? {} : { path }),
		...(retryAfter === undefined
			? {}
			: { retryAfter: retryAfter instanceof Date ? retryAfter.toISOString() : retryAfter }),
		remaining: remaining === Infinity ? null : remaining,
	};
}

/** @type {Array<[string, RegExp, Handler]>} */
const ROUTES = [
	[
		'GET',
		/^\/?$/,
		(_i, sb) => ({
			body: { ok: true, baseUrl: sb.baseUrl, origin: sb.origin, controlUrl: sb.controlUrl },
		}),
	],
	['GET', /^\/health$/, (_i, sb) => ({ body: { ok: true, baseUrl: sb.baseUrl } })],
	['GET', /^\/config$/, (_i, sb) => ({ body: publicConfig(sb.config) })],
	['POST', /^\/configure$/, (input, sb) => ({ body: publicConfig(sb.configure(input)) })],
	['GET', /^\/faults$/, (_i, sb) => ({ body: sb.faults().map(faultToJson) })],
	[
		'POST',
		/^\/faults?$/,
		(input, sb) => ({ status: 201, body: faultToJson(sb.fault(faultFromJson(input))) }),
	],
	[
		'DELETE',
		/^\/faults$/,
		(_i, sb) => {
			sb.clearFaults();
			return { body: { ok: true } };
		},
	],
	[
		'POST',
		/^\/seed$/,
		(input, sb) => {
			// An empty body re-seeds the startup seed, like `sb.seed()`.
			sb.seed(Object.keys(input).length > 0 ? input : undefined);
			const s = sb.state;
			return {
				body: {
					users: s.users.length,
					conversations: s.conversations.length,
					messages: s.messages.length,
					tags: s.tags.length,
				},
			};
		},
	],
	[
		'POST',
		/^\/reset$/,
		(_i, sb) => {
			sb.reset();
			return { body: { ok: true } };
		},
	],
	[
		'GET',
		/^\/log$/,
		(_i, sb, url) => {
			const since = Number(url.searchParams.get('since') ?? 0);
			return { body: sb.requests.slice(Number.isInteger(since) && since > 0 ? since : 0) };
		},
	],
	[
		'DELETE',
		/^\/log$/,
		(_i, sb) => {
			sb.clearLog();
			return { body: { ok: true } };
		},
	],
	[
		'GET',
		/^\/state$/,
		(_i, sb, url) => {
			const resource = url.searchParams.get('resource');
			if (resource === null) return { body: sb.state };
			if (!(resource in sb.state)) throw new SandboxError(404, `no resource ${resource}`);
			return { body: sb.state[/** @type {keyof Sandbox['state']} */ (resource)] };
		},
	],
	['GET', /^\/webhooks$/, (_i, sb) => ({ body: publicWebhooks(sb) })],
	[
		'POST',
		/^\/webhooks$/,
		(input, sb) => {
			sb.configureWebhooks(/** @type {import('./webhooks').WebhookConfigInput} */ (input));
			return { body: publicWebhooks(sb) };
		},
	],
	['POST', /^\/webhooks\/signature$/, (input, sb) => ({ body: sb.webhookSignatureOptions(input) })],
	[
		'POST',
		/^\/webhooks\/emit$/,
		(input, sb) => {
			const { kind, data, source } = input;
			if (typeof kind !== 'string') throw new TypeError('kind is required');
			if (data !== undefined && (typeof data !== 'object' || data === null))
				throw new TypeError('data must be an object');
			const id = sb.emitWebhook(
				/** @type {import('./webhooks').WebhookKind} */ (kind),
				/** @type {never} */ (data),
				source === undefined
					? {}
					: { source: /** @type {import('./store').EventSource} */ (source) },
			);
			return { status: id ? 202 : 200, body: { id } };
		},
	],
	[
		'GET',
		/^\/deliveries$/,
		async (_i, sb, url) => {
			// ?settled=1 answers once every queued delivery has ended.
			const wait = url.searchParams.get('settled');
			if (wait !== null && wait !== '0' && wait !== 'false') await sb.settled();
			const since = Number(url.searchParams.get('since') ?? 0);
			return { body: sb.deliveries.slice(Number.isInteger(since) && since > 0 ? since : 0) };
		},
	],
	[
		'DELETE',
		/^\/deliveries$/,
		(_i, sb) => {
			sb.deliveries.length = 0;
			return { body: { ok: true } };
		},
	],
	[
		'POST',
		/^\/visitor\/conversations$/,
		(input, sb) => ({
			status: 201,
			body: sb.visitor.startConversation(
				/** @type {import('./store').VisitorStart} */ (/** @type {unknown} */ (input)),
			),
		}),
	],
	[
		'POST',
		/^\/visitor\/conversations\/([^/]+)\/messages$/,
		(input, sb, _url, params) => {
			const text = input.message ?? input.text;
			return { status: 201, body: sb.visitor.say(params[0], /** @type {string} */ (text)) };
		},
	],
	[
		'POST',
		/^\/visitor\/leads$/,
		(input, sb) => {
			const result = sb.visitor.captureLead(
				/** @type {import('./store').LeadInput} */ (/** @type {unknown} */ (input)),
			);
			return { status: result.created ? 201 : 200, body: result };
		},
	],
];

/**
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {URL} url
 * @param {Sandbox} sb
 */
async function handleControl(req, res, url, sb) {
	if (!isLoopback(req.socket.remoteAddress))
		return sendJson(res, 403, { error: 'the control API answers loopback callers only' });
	const method = (req.method ?? 'GET').toUpperCase();
	const path = url.pathname.slice('/_sandbox'.length).replace(/\/+$/, '');
	const { text } = await readBody(req);
	/** @type {Record<string, unknown>} */
	let input = {};
	if (text.trim() !== '') {
		try {
			input = JSON.parse(text);
		} catch {
			return sendJson(res, 400, { error: 'body is not valid JSON' });
		}
		if (typeof input !== 'object' || input === null || Array.isArray(input)) {
			return sendJson(res, 400, { error: 'body must be a JSON object' });
		}
	}
	const known = ROUTES.filter(([, pattern]) => pattern.test(path));
	const route = known.find(([m]) => m === method);
	if (!route) {
		return known.length > 0
			? sendJson(
					res,
					405,
					{ error: `${method} not allowed on ${url.pathname}` },
					{ allow: known.map(([m]) => m).join(', ') },
				)
			: sendJson(res, 404, { error: `no control route ${url.pathname}` });
	}
	const params = (route[1].exec(path) ?? []).slice(1).map(decodeURIComponent);
	try {
		const reply = await route[2](input, sb, url, params);
		return sendJson(res, reply.status ?? 200, reply.body);
	} catch (error) {
		if (error instanceof SandboxError)
			return sendJson(res, error.status, { error: error.message, field: error.field ?? null });
		if (error instanceof TypeError) return sendJson(res, 400, { error: error.message });
		throw error;
	}
}

module.exports = { handleControl };
