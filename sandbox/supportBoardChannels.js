// @ts-check
'use strict';

const { error, fatal, ok } = require('./supportBoardResult');
const { writeMessage } = require('./supportBoardConversations');

/**
 * The messaging channels' functions of Support Board's apps (WhatsApp, Messenger/Instagram, Telegram,
 * Viber, Zalo, LINE, WeChat), as the Web API reaches them through ajax.php, and the product's own
 * upload endpoint (include/upload.php) with the files it serves back.
 *
 * A channel function of an app that is not installed dies in PHP: HTTP 500, empty body. An installed
 * one "sends" (each send is logged in `sent`) and answers what the product returns: the channel's own
 * answer, in `success: true` even when the channel refused. A message whose text or attachment URL holds
 * `#channel-error` (or the test bed's markers: `#graph-error`, `#tg-error`, `#fb-error`) is refused in
 * that channel's shape, and with a code the channel knows, as the test bed's stand-in refuses it:
 * `#graph-error:131047`, WhatsApp's "Re-engagement message" (its 24-hour window has closed);
 * `#fb-error`, Messenger's and Instagram's code 10, subcode 2018278 ("outside of allowed window"). One whose
 * text holds `#channel-lost` is answered `null`, as the product answers when it could not reach the
 * channel (sb_curl's error text, json_decode'd), after it may have sent it; with `#channel-unknown`,
 * Messenger and Telegram end in the SBError they raise for a recipient they do not know, before any
 * send (HTTP 200 `{"status":"error",…}`). With `#channel-dies`, PHP dies after the send (an empty 500,
 * as a timeout, or the product's Telegram app after the first of two attachments); with
 * `#channel-empty-id`, the channel's answer of a sent message carries an empty ID. With no text and no
 * attachment, every function returns before reaching its channel, as the product's do: `false`, or
 * Messenger's missing-arguments SBError. Telegram's app (1.1.1) sends the first attachment with the
 * text, then dies on the second (an empty 500): `sent` logs the first only.
 *
 * @typedef {import('./supportBoardResult').CallContext} CallContext
 * @typedef {import('./supportBoardResult').Outcome} Outcome
 *
 * @typedef {object} ChannelSend
 * @property {string} app
 * @property {string} fn
 * @property {string} recipient The recipient argument's value.
 * @property {string} message
 * @property {unknown[]} attachments
 * @property {Record<string, unknown>} args Every argument but the token.
 * @property {boolean} refused
 */

const REFUSE = /#(?:channel|graph|tg|fb)-error(?::(\d+))?/;
/** `#fb-error` without a code: the test bed's stand-in refuses with Messenger's window error. */
const FB_WINDOW = /#fb-error(?!:)/;
const LOST = /#channel-lost/;
const UNKNOWN = /#channel-unknown/;
const DIES = /#channel-dies/;
const EMPTY_ID = /#channel-empty-id/;

/** @type {Record<string, (recipient: string) => import('./supportBoardResult').Outcome>} */
const UNKNOWN_RECIPIENT = {
	messenger: (psid) => error('psid-not-found', `User with PSID ${psid} not found.`),
	telegram: (chatId) => error('chat-id-not-found', `User with chat ID  ${chatId} not found.`),
};

/** @param {string} prefix @param {number | string} n */
const idOf = (prefix, n) => (n === '' ? '' : `${prefix}${n}`);

/**
 * Graph's WhatsApp errors by code, as the test bed's stand-in words them.
 * @type {Record<number, string>}
 */
const GRAPH_ERRORS = {
	131030: 'Recipient phone number not in allowed list',
	131047: 'Re-engagement message',
};

/** @param {number} code */
const graphError = (code) => ({
	error: {
		message: `(#${code}) ${GRAPH_ERRORS[code]}`,
		type: 'OAuthException',
		code,
		error_data: { messaging_product: 'whatsapp', details: GRAPH_ERRORS[code] },
		fbtrace_id: 'Asandbox',
	},
});

/**
 * Messenger's Send API errors by code: [subcode, message], as Meta's "Common error codes" list them.
 * @type {Record<number, [number, string]>}
 */
const MESSENGER_ERRORS = {
	10: [
		2018278,
		'This message is sent outside of allowed window. Learn more about the new policy here: https://developers.facebook.com/docs/messenger-platform/policy-overview',
	],
	551: [1545041, "This person isn't available right now."],
};

/** @param {number} code */
const messengerError = (code) => [
	{
		error: {
			message: `(#${code}) ${MESSENGER_ERRORS[code][1]}`,
			type: 'OAuthException',
			code,
			error_subcode: MESSENGER_ERRORS[code][0],
			fbtrace_id: 'Asandbox',
		},
	},
];

/** @param {Record<number, unknown>} known @param {number | undefined} code @param {number} otherwise */
const knownCode = (known, code, otherwise) =>
	code !== undefined && Object.hasOwn(known, code) ? code : otherwise;

/**
 * `ok(n)` answers the n-th send; `ok('')` is that answer with an empty ID; `refused(code, message)`
 * answers a refusal, by the marker's code where the channel knows it.
 * @type {Record<string, { app: string, recipient: string, ok: (n: number | string) => unknown, refused: (code: number | undefined, message: string) => unknown }>}
 */
const CHANNEL_FUNCTIONS = {
	'whatsapp-send-message': {
		app: 'whatsapp',
		recipient: 'to',
		ok: (n) => ({
			messaging_product: 'whatsapp',
			contacts: [{ input: 'to', wa_id: 'to' }],
			messages: [{ id: idOf('wamid.SANDBOX', n) }],
		}),
		refused: (code) => graphError(knownCode(GRAPH_ERRORS, code, 131030)),
	},
	'messenger-send-message': {
		app: 'messenger',
		recipient: 'psid',
		ok: (n) => [{ recipient_id: 'psid', message_id: idOf('m_sandbox', n) }],
		refused: (code, message) =>
			messengerError(FB_WINDOW.test(message) ? 10 : knownCode(MESSENGER_ERRORS, code, 551)),
	},
	'telegram-send-message': {
		app: 'telegram',
		recipient: 'chat_id',
		ok: (n) => ({ ok: true, result: { message_id: n } }),
		refused: () => ({
			ok: false,
			error_code: 403,
			description: 'Forbidden: bot was blocked by the user',
		}),
	},
	'viber-send-message': {
		app: 'viber',
		recipient: 'viber_id',
		ok: (n) => ({
			status: 0,
			status_message: 'ok',
			message_token: n === '' ? '' : 5000 + Number(n),
		}),
		refused: () => ({ status: 6, status_message: 'notSubscribed' }),
	},
	'zalo-send-message': {
		app: 'zalo',
		recipient: 'zalo_id',
		ok: (n) => ({ error: { error: 0, message: 'Success', data: { message_id: idOf('zalo', n) } } }),
		refused: () => ({
			error: { error: -213, message: 'User has not interacted with the OA in 7 days' },
		}),
	},
	'line-send-message': {
		app: 'line',
		recipient: 'line_id',
		ok: () => ({ error: false }),
		refused: () => ({ error: { message: "The property, 'to', in the request body is invalid" } }),
	},
	'wechat-send-message': {
		app: 'wechat',
		recipient: 'open_id',
		ok: (n) => [{ errcode: 0, errmsg: 'ok', msgid: 7000 + Number(n) }, 'sandbox-access-token'],
		refused: () => [
			{ errcode: 45015, errmsg: 'response out of time limit' },
			'sandbox-access-token',
		],
	},
};

/** @param {unknown} raw The `attachments` argument: JSON text of `[[name, url], …]`, or the list. */
function attachmentList(raw) {
	if (Array.isArray(raw)) return raw;
	if (typeof raw !== 'string' || raw === '') return [];
	try {
		const list = JSON.parse(raw);
		return Array.isArray(list) ? list : [];
	} catch {
		return [];
	}
}

/**
 * The WhatsApp app's templates, as its whatsapp-get-templates answers them with the Cloud API provider:
 * sb_whatsapp_cloud_get_templates merges Graph's message_templates of every number by name, with the
 * languages, ids, phone_number_id, the number's label and departments (app 1.3.1, the SaaS copy at 3.8.5).
 */
const SANDBOX_TEMPLATES = Object.freeze([
	{
		name: 'order_update',
		status: 'APPROVED',
		category: 'UTILITY',
		components: [{ type: 'BODY', text: 'Hello {{1}}, your order {{2}} has shipped.' }],
		languages: ['en_US', 'de'],
		ids: ['1400000000000001', '1400000000000002'],
		phone_number_id: '109000000000001',
		label: 'Sandbox number',
		department: [],
	},
	{
		name: 'spring_sale',
		status: 'PENDING',
		category: 'MARKETING',
		components: [{ type: 'BODY', text: 'Our spring sale starts today.' }],
		languages: ['en_US'],
		ids: ['1400000000000003'],
		phone_number_id: '109000000000001',
		label: 'Sandbox number',
		department: [],
	},
]);

/**
 * whatsapp-send-template's `parameters`: `[header, body, button]`, each a comma-separated text (JSON text
 * through api.php, which decodes it). @param {unknown} raw
 */
function templateParts(raw) {
	let value = raw;
	if (typeof raw === 'string') {
		try {
			value = JSON.parse(raw);
		} catch {
			value = [];
		}
	}
	const list = Array.isArray(value) ? value : [];
	return [0, 1, 2].map((i) =>
		String(list[i] ?? '')
			.split(',')
			.map((part) => part.trim())
			.filter((part) => part !== ''),
	);
}

/**
 * The product's record of a sent template (sb_whatsapp_send_template): as the token's admin, in the
 * recipient's latest WhatsApp conversation of that number, or a new one (status 2) when there is none.
 * @param {CallContext} ctx @param {string} template
 */
function recordTemplate(ctx, template) {
	const { data, store, params } = ctx;
	const userId = params.recipient_id ?? params.user_id;
	const user =
		userId === undefined || userId === null || userId === '' ? undefined : data.user(userId);
	if (!user) return;
	const phoneId = typeof params.phone_id === 'string' ? params.phone_id : '';
	let conversation = store.state.conversations
		.filter(
			(c) => c.user_id === user.id && c.source === 'wa' && (phoneId === '' || c.extra === phoneId),
		)
		.at(-1);
	if (!conversation)
		conversation = store.createConversation(
			{ user_id: user.id, status: 'pending', status_code: 2, source: 'wa', extra: phoneId },
			'api',
		).conversation;
	writeMessage(ctx, conversation, data.admin, `WhatsApp Template *${template}*`);
}

function createChannels() {
	/** Installed apps: none, as in the product's own download; a test installs what it needs. */
	const installed = new Set(/** @type {string[]} */ ([]));
	/** @type {ChannelSend[]} */
	const sent = [];

	/** @type {Record<string, (ctx: CallContext) => Outcome>} */
	const functions = {};
	for (const [fn, spec] of Object.entries(CHANNEL_FUNCTIONS)) {
		functions[fn] = ({ params }) => {
			if (!installed.has(spec.app))
				return fatal(`Call to undefined function sb_${spec.app}_send_message()`);
			const message = typeof params.message === 'string' ? params.message : '';
			const attachments = attachmentList(params.attachments);
			if (message === '' && attachments.length === 0)
				return spec.app === 'messenger' ? error('missing-arguments') : ok(false);
			const unknown = UNKNOWN_RECIPIENT[spec.app];
			if (unknown && UNKNOWN.test(message)) return unknown(String(params[spec.recipient]));
			const dies = spec.app === 'telegram' && attachments.length > 1;
			const parts = dies ? attachments.slice(0, 1) : attachments;
			// As the test bed's stand-ins read their markers: anywhere in what goes to the channel.
			const marker = [message, ...parts.map((a) => JSON.stringify(a))]
				.map((text) => REFUSE.exec(text))
				.find((found) => found !== null);
			const refused = marker !== undefined;
			const marked = (/** @type {RegExp} */ re) =>
				re.test(message) || parts.some((a) => re.test(JSON.stringify(a)));
			const { token: _token, ...args } = params;
			sent.push({
				app: spec.app,
				fn,
				recipient: String(params[spec.recipient]),
				message,
				attachments: parts,
				args,
				refused,
			});
			if (dies) return fatal('sb_curl: the bot token given for its headers (a TypeError)');
			if (LOST.test(message)) return ok(null);
			if (marked(DIES)) return fatal('died after sending (a timeout, a crash)');
			if (EMPTY_ID.test(message)) return ok(spec.ok(''));
			const code = marker?.[1] === undefined ? undefined : Number(marker[1]);
			return ok(refused ? spec.refused(code, message) : spec.ok(sent.length));
		};
	}
	/** The app's templates, as whatsapp-get-templates lists them; a test may replace them. */
	const templates = SANDBOX_TEMPLATES.map((t) => ({ ...t }));
	/** What the app answers in place of the list when a test sets `value`: Graph's refusal, say. */
	const templatesRefusal = { value: /** @type {unknown} */ (null) };
	/** whatsapp-get-templates: the Web API has it from 3.8.9 (./supportBoardLife lists it there). */
	functions['whatsapp-get-templates'] = () =>
		installed.has('whatsapp')
			? ok(['official', templatesRefusal.value ?? templates])
			: fatal('Call to undefined function sb_whatsapp_get_templates()');
	/**
	 * whatsapp-send-template with the Cloud API provider: Graph's answer of a template message, or its
	 * refusal for a template whose name or values hold `#graph-error`; recorded when Graph took it.
	 */
	functions['whatsapp-send-template'] = (ctx) => {
		const { params } = ctx;
		if (!installed.has('whatsapp'))
			return fatal('Call to undefined function sb_whatsapp_send_template()');
		const template = typeof params.template_name === 'string' ? params.template_name : '';
		// No name and no default template in the app's settings: nothing is sent.
		if (template === '') return ok(false);
		const parts = templateParts(params.parameters);
		const to = String(params.to).replace(/\+/g, '').trim();
		const marker = REFUSE.exec([template, ...parts.flat()].join(' '));
		const refused = marker !== null;
		const { token: _token, ...args } = params;
		sent.push({
			app: 'whatsapp',
			fn: 'whatsapp-send-template',
			recipient: to,
			message: '',
			attachments: [],
			args: { ...args, parameters: parts },
			refused,
		});
		if (marker !== null) {
			const code = marker[1] === undefined ? undefined : Number(marker[1]);
			return ok(CHANNEL_FUNCTIONS['whatsapp-send-message'].refused(code, ''));
		}
		recordTemplate(ctx, template);
		return ok({
			messaging_product: 'whatsapp',
			contacts: [{ input: to, wa_id: to }],
			messages: [{ id: `wamid.SANDBOXTEMPLATE${sent.length}`, message_status: 'accepted' }],
		});
	};
	return {
		functions,
		installed,
		sent,
		templates,
		templatesRefusal,
		reset() {
			sent.length = 0;
		},
	};
}

module.exports = { createChannels, CHANNEL_FUNCTIONS };
