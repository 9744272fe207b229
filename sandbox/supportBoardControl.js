// @ts-check
'use strict';

const { SandboxError } = require('./errors');
const { isLoopback, readBody, sendJson } = require('./httpio');

/**
 * The control routes of the Support Board mode, under `/_sandbox/support-board`: the webhook settings and
 * log, and what visitors and agents do in their browsers (so that tests can make the product's
 * browser-side webhooks happen).
 *
 * @typedef {import('./sandbox').SupportBoardHandle} SupportBoardHandle
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').ServerResponse} ServerResponse
 * @typedef {Record<string, unknown>} Input
 * @typedef {(input: Input, sb: SupportBoardHandle, url: URL, params: string[]) => unknown} Route
 */

const PREFIX = '/_sandbox/support-board';

/** A visitor's form answered with a refusal (`{ refused }`) is a 409. @param {unknown} result */
const reply = (result) => ({
	status: typeof result === 'object' && result !== null && 'refused' in result ? 409 : 200,
	body: result,
});

/** @param {Input} input @param {string} name */
const text = (input, name) => {
	const v = input[name];
	if (typeof v !== 'string') throw new SandboxError(422, `${name} must be a string`, name);
	return v;
};

/** @type {[string, RegExp, Route][]} */
const ROUTES = [
	['GET', /^$/, (_i, sb) => sb.describe()],
	['GET', /^\/webhooks$/, (_i, sb) => sb.describe().webhooks],
	[
		'POST',
		/^\/webhooks$/,
		(input, sb) => {
			sb.configureWebhooks(
				/** @type {import('./supportBoardWebhooks').SupportBoardWebhookInput} */ (input),
			);
			return sb.describe().webhooks;
		},
	],
	[
		'GET',
		/^\/deliveries$/,
		async (_i, sb, url) => {
			const wait = url.searchParams.get('settled');
			if (wait !== null && wait !== '0' && wait !== 'false') await sb.settled();
			const since = Number(url.searchParams.get('since') ?? 0);
			return sb.deliveries.slice(Number.isInteger(since) && since > 0 ? since : 0);
		},
	],
	[
		'DELETE',
		/^\/deliveries$/,
		(_i, sb) => {
			sb.deliveries.length = 0;
			return { ok: true };
		},
	],
	['POST', /^\/visitor\/start$/, (input, sb) => sb.visitor.start(/** @type {never} */ (input))],
	[
		'POST',
		/^\/visitor\/conversations\/(\d+)\/messages$/,
		(input, sb, _u, [id]) => sb.visitor.say(id, text(input, 'message')),
	],
	[
		'POST',
		/^\/visitor\/conversations\/(\d+)\/receive-messages$/,
		(_i, sb, _u, [id]) => sb.visitor.receiveMessages(id),
	],
	[
		'POST',
		/^\/visitor\/conversations\/(\d+)\/receive-conversation$/,
		(_i, sb, _u, [id]) => sb.visitor.receiveConversation(id),
	],
	[
		'POST',
		/^\/visitor\/register$/,
		(input, sb) => sb.visitor.register(/** @type {never} */ (input)),
	],
	['POST', /^\/visitor\/login$/, (input, sb) => sb.visitor.login(/** @type {never} */ (input))],
	[
		'POST',
		/^\/visitor\/follow-up$/,
		(input, sb) => sb.visitor.followUp(/** @type {never} */ (input)),
	],
	['POST', /^\/agent\/users\/(\d+)\/delete$/, (_i, sb, _u, [id]) => sb.agent.deleteUser(id)],
];

/**
 * Answers a control call under `/_sandbox/support-board`; false when the path is not one of them.
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {URL} url
 * @param {SupportBoardHandle | null} sb
 */
async function handleSupportBoardControl(req, res, url, sb) {
	if (url.pathname !== PREFIX && !url.pathname.startsWith(`${PREFIX}/`)) return false;
	if (!isLoopback(req.socket.remoteAddress))
		return (sendJson(res, 403, { error: 'the control API answers loopback callers only' }), true);
	if (!sb)
		return (
			sendJson(res, 404, {
				error: 'the sandbox runs in REST mode; start it with api: support-board',
			}),
			true
		);
	const method = (req.method ?? 'GET').toUpperCase();
	const path = url.pathname.slice(PREFIX.length).replace(/\/+$/, '');
	const { text: body } = await readBody(req);
	/** @type {Input} */
	let input = {};
	if (body.trim() !== '') {
		try {
			input = JSON.parse(body);
		} catch {
			return (sendJson(res, 400, { error: 'body is not valid JSON' }), true);
		}
		if (typeof input !== 'object' || input === null || Array.isArray(input))
			return (sendJson(res, 400, { error: 'body must be a JSON object' }), true);
	}
	const known = ROUTES.filter(([, pattern]) => pattern.test(path));
	const route = known.find(([m]) => m === method);
	if (!route) {
		if (known.length > 0)
			sendJson(
				res,
				405,
				{ error: `${method} not allowed on ${url.pathname}` },
				{ allow: known.map(([m]) => m).join(', ') },
			);
		else sendJson(res, 404, { error: `no control route ${url.pathname}` });
		return true;
	}
	const params = (route[1].exec(path) ?? []).slice(1);
	try {
		const { status, body: out } = reply(await route[2](input, sb, url, params));
		sendJson(res, status, out);
	} catch (error) {
		if (error instanceof SandboxError)
			sendJson(res, error.status, { error: error.message, field: error.field ?? null });
		else if (error instanceof TypeError) sendJson(res, 400, { error: error.message });
		else throw error;
	}
	return true;
}

module.exports = { handleSupportBoardControl, SUPPORT_BOARD_CONTROL_PREFIX: PREFIX };
