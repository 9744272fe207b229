// @ts-check
'use strict';

const { SandboxError } = require('./errors');
const { productId } = require('./supportBoardRecords');

/**
 * A customer writes in through a channel app (WhatsApp, Telegram, Messenger, Instagram), as the
 * product's apps store it, modelled on the test bed's runs of them (the test bed's README, and its
 * capture of the webhooks they fire): the app finds the user by the channel's own ID (WhatsApp: the
 * phone `+<digits>`; Telegram: the user extra `telegram-id`; Messenger and Instagram: `facebook-id`), or
 * creates one (WhatsApp a `user`, the others a `lead`); continues that user's conversation of the
 * channel, or opens one (its `source`, `extra` the phone number ID, the chat ID, the page ID or the
 * Instagram account ID; status 2: `new-conversation-created`); stores the message with the channel's
 * payload (`waid`, `tgid`, `mid`) and the files it downloaded into its uploads (`[[name, url], …]`), and
 * fires `message-sent` with `conversation_source`, as posted by the app's webhook: no `sender-url`.
 *
 * @typedef {import('./supportBoardResult').CallContext} CallContext
 * @typedef {import('./supportBoardResult').Outcome} Outcome
 *
 * @typedef {object} InboundInput
 * @property {'whatsapp' | 'telegram' | 'messenger' | 'instagram'} channel
 * @property {string} from The customer's ID on the channel: phone digits, Telegram user ID, PSID.
 * @property {string} [name] First and last name.
 * @property {string} [text]
 * @property {Array<[string, string]>} [attachments] The files as the app stored them: name and URL.
 */

/** @type {Record<InboundInput['channel'], { source: string, extra: (from: string) => string, slug: string, type: string, payload: (n: number) => Record<string, unknown> }>} */
const APPS = {
	whatsapp: {
		source: 'wa',
		extra: () => '109000000000001',
		slug: 'phone',
		type: 'user',
		payload: (n) => ({ waid: `wamid.SANDBOXIN${n}` }),
	},
	telegram: {
		source: 'tg',
		extra: (from) => from,
		slug: 'telegram-id',
		type: 'lead',
		payload: (n) => ({ tgid: 100000000 + n }),
	},
	messenger: {
		source: 'fb',
		extra: () => '102000000000001',
		slug: 'facebook-id',
		type: 'lead',
		payload: (n) => ({ mid: `m_sandbox_in_${n}` }),
	},
	instagram: {
		source: 'ig',
		extra: () => '17841400000000001',
		slug: 'facebook-id',
		type: 'lead',
		payload: (n) => ({ mid: `aWdfsandbox_in_${n}` }),
	},
};

/** @param {Outcome} outcome @param {string} fn */
function okOf(outcome, fn) {
	if (!('ok' in outcome)) throw new SandboxError(500, `${fn} failed: ${JSON.stringify(outcome)}`);
	return outcome.ok;
}

/**
 * @param {{ functions: Record<string, (ctx: CallContext) => Outcome>, base: () => Omit<CallContext, 'params' | 'fire'> }} deps
 */
function createInbound({ functions, base }) {
	/** The conversation each customer writes in, by channel and ID. @type {Map<string, string>} */
	const open = new Map();
	let count = 0;

	/**
	 * @param {InboundInput} input
	 * @param {(name: string, data: unknown) => void} fire
	 */
	function inbound(input, fire) {
		const app = Object.hasOwn(APPS, input.channel) ? APPS[input.channel] : undefined;
		if (!app) throw new SandboxError(422, `no channel app ${String(input.channel)}`);
		/** @param {string} fn @param {Record<string, unknown>} params */
		const call = (fn, params) => okOf(functions[fn]({ ...base(), params, fire }), fn);
		const key = `${app.source}:${input.from}`;
		const value = app.slug === 'phone' ? `+${input.from}` : input.from;
		const [first, ...rest] = (input.name ?? 'Channel Customer').split(' ');
		const found = call('get-user-by', { by: app.slug, value });
		const userId =
			typeof found === 'object' && found !== null && 'id' in found
				? String(found.id)
				: String(
						call('add-user', {
							first_name: first,
							last_name: rest.join(' '),
							user_type: app.type,
							extra: { [app.slug]: [value, app.slug] },
						}),
					);
		let conversationId = open.get(key);
		if (conversationId === undefined) {
			const made = /** @type {{ details: { id: unknown } }} */ (
				call('new-conversation', {
					user_id: userId,
					source: app.source,
					extra: app.extra(input.from),
					status_code: 2,
				})
			);
			conversationId = String(made.details.id);
			open.set(key, conversationId);
		}
		const sent = /** @type {{ id: number }} */ (
			call('send-message', {
				user_id: Number(userId),
				conversation_id: conversationId,
				message: input.text ?? '',
				attachments: JSON.stringify(input.attachments ?? []),
			})
		);
		const payload = JSON.stringify(app.payload(++count));
		const c = base().data.conversation(conversationId);
		const m =
			c &&
			base()
				.data.messagesOf(c)
				.find((x) => productId(x.id) === String(sent.id));
		if (m) /** @type {Record<string, unknown>} */ (m).payload = payload;
		return {
			user: { id: userId },
			conversation: { id: conversationId, source: app.source, extra: app.extra(input.from) },
			message: { id: String(sent.id), payload },
		};
	}

	return {
		inbound,
		reset() {
			open.clear();
		},
	};
}

module.exports = { createInbound };
