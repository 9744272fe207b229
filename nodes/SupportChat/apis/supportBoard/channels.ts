import type { IDataObject } from 'n8n-workflow';

import { isDataObject } from '../../shared/json';
import { tokenForward } from './forwardsToken';

/**
 * The messaging channels Support Board's apps connect, by a conversation's `source`. Its Web API
 * `send-message` only stores a reply; its admin area then sends it on with the channel's own function
 * (js/admin.js, on SBMessageSent; include/messages.php sb_messaging_platforms_send_message makes the same
 * choice for the bot). Each row says which function, where the recipient is (the conversation's `extra`,
 * or one of the user's extra fields), the arguments as the admin area sends them, and how the channel's
 * answer tells a refusal: the product answers a refused delivery with `success: true` and the channel's
 * own error inside, so `success` says nothing about delivery.
 *
 * WhatsApp, Telegram, Messenger and Instagram were run against the product's own apps (WhatsApp 1.3.1,
 * Telegram 1.1.1, Messenger 1.2.4, which also serves Instagram) on a test bed whose stand-ins answer as
 * Meta's and Telegram's documentation says; Viber, Zalo and LINE are read from the product's source (its
 * apps at 3.8.5) and are modelled in the sandbox only.
 *
 * WhatsApp, Messenger and Instagram take a free-form reply only within a window after the customer's
 * last message (`window`, ./replyWindow): Meta's rule, which the product's apps do not check before
 * sending (WhatsApp's admin area only warns).
 */

/** What every channel function is given: the stored message, its attachments and its ID. */
export interface Outgoing {
	message: string;
	attachments: Array<[string, string]>;
	messageId: string;
	conversationId: string;
	/** The conversation's `extra`: WhatsApp's phone number ID, Messenger's page ID, Telegram's chat ID. */
	extra: string;
}

/**
 * What a channel's answer says: delivered; refused, in the channel's own words; or `unproven`, neither
 * (`null` when the product could not reach the channel, a proxy's answer, no ID or an empty one).
 */
export type Verdict =
	| { delivered: true; id?: string }
	| { delivered: false; reason: string; unproven?: true; windowClosed?: true };

/** Meta's rule for a free-form reply: only within `hours` of the customer's last message. */
export interface WindowRule {
	hours: number;
	/** Meta's name for the window. */
	term: string;
	/** What to do once it has closed, a clause that follows a colon. */
	instead: string;
}

const META_WINDOW_HOURS = 24;

export interface Channel {
	/** As people name it. */
	name: string;
	/** The Web API function that sends; none for X (no such function) or WeChat (./forwardsToken). */
	fn: string | undefined;
	/** Why there is no `fn`, after "Conversation … is on <name>, and ". */
	unsendable?: string;
	/** The argument that names the recipient, and where its value is. */
	recipient: { arg: string; from: 'conversation' } | { arg: string; from: 'user'; slug: string };
	args(out: Outgoing): IDataObject;
	verdict(answer: unknown): Verdict;
	/**
	 * Its app sends one attachment per call only: Telegram's sends the first with the text, then dies on
	 * the second (attachments 2+ go to `sb_curl` with the bare method name for a URL and the bot token for
	 * its headers: PHP's fatal error, an empty HTTP 500, after the first reached the customer).
	 */
	oneAttachmentPerCall?: true;
	/** The channel's reply window, where it has one. */
	window?: WindowRule;
}

const field = (value: unknown, key: string): unknown =>
	isDataObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;

/** The channel's ID of a sent message: a number above 0 (none numbers one 0) or a text not blank. */
function idText(value: unknown): string | undefined {
	if (typeof value === 'number')
		return Number.isFinite(value) && value > 0 ? String(value) : undefined;
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

const said = (value: unknown): string =>
	typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));

/** `false`: the product had nothing to send (no text and no attachment) or found no such recipient. */
const NOTHING = {
	delivered: false,
	reason: 'the product sent nothing (it answered false)',
} as const;

const common = (out: Outgoing): IDataObject => ({
	message: out.message,
	attachments: JSON.stringify(out.attachments),
});

/** An answer without the channel's sign of a sent message, quoted as it came. */
const unproven = (answer: unknown): Verdict => ({
	delivered: false,
	reason: said(answer),
	unproven: true,
});

/** Delivered when the channel's ID of the sent message shows it; otherwise not known. */
const byId = (id: string | undefined, answer: unknown): Verdict =>
	id === undefined ? unproven(answer) : { delivered: true, id };

const firstOf = (list: unknown): unknown => (Array.isArray(list) ? list[0] : undefined);

/** A refusal in the channel's words; `closed` when the channel says its reply window has closed. */
const refusal = (error: unknown, closed: boolean): Verdict => ({
	delivered: false,
	reason: said(field(error, 'message') ?? error),
	...(closed ? { windowClosed: true } : {}),
});

/** Graph's 131047, "Re-engagement message": the customer service window has closed. */
const RE_ENGAGEMENT = 131047;
/** Messenger's code 10, subcode 2018278: "This message is sent outside of allowed window". */
const OUTSIDE_WINDOW = { code: 10, subcode: 2018278 };

/**
 * Sent: Graph's (and 360dialog's) `messages[0].id`, or Twilio's `sid`. Refused: a Graph error, Twilio's
 * ErrorCode, or 360dialog's meta, as the admin area reads them.
 */
export function whatsapp(answer: unknown): Verdict {
	if (answer === false) return NOTHING;
	const error = field(answer, 'error');
	if (error) return refusal(error, Number(field(error, 'code')) === RE_ENGAGEMENT);
	if (field(answer, 'ErrorCode'))
		return { delivered: false, reason: said(field(answer, 'errorMessage')) };
	const meta = field(answer, 'meta');
	if (isDataObject(meta) && meta.success === false)
		return { delivered: false, reason: said(meta.developer_message) };
	const id = idText(field(firstOf(field(answer, 'messages')), 'id'));
	return byId(id ?? idText(field(answer, 'sid')), answer);
}

/** One Send API answer per part sent, each a `message_id` when sent; any with an error is a refusal. */
function messenger(answer: unknown): Verdict {
	const parts: unknown[] = Array.isArray(answer) ? answer : [answer];
	if (parts[0] === false) return NOTHING;
	// `[]`: its page was found, but nothing was left to send.
	if (parts.length === 0)
		return { delivered: false, reason: 'the product sent nothing (it answered [])' };
	for (const part of parts) {
		const error = field(part, 'error');
		if (error)
			return refusal(
				error,
				Number(field(error, 'code')) === OUTSIDE_WINDOW.code &&
					Number(field(error, 'error_subcode')) === OUTSIDE_WINDOW.subcode,
			);
	}
	const missing = parts.find((part) => idText(field(part, 'message_id')) === undefined);
	if (missing !== undefined) return unproven(missing);
	return { delivered: true, id: idText(field(parts[0], 'message_id')) };
}

/** Bot API: `ok` and the sent message's `message_id`, or `ok: false` and a `description` of the refusal. */
function telegram(answer: unknown): Verdict {
	const id = idText(field(field(answer, 'result'), 'message_id'));
	if (field(answer, 'ok') === true && id !== undefined) return { delivered: true, id };
	if (answer === false) return NOTHING;
	if (field(answer, 'ok') === false)
		return { delivered: false, reason: said(field(answer, 'description') ?? answer) };
	return unproven(answer);
}

/**
 * `status_message` `ok` and a `message_token` (with attachments only, the first one's: the product's own
 * answer starts as `status_message: ok`); another `status_message` names the refusal.
 */
function viber(answer: unknown): Verdict {
	const status = field(answer, 'status_message');
	const part = firstOf(field(answer, 'attachments'));
	const id = idText(field(answer, 'message_token')) ?? idText(field(part, 'message_token'));
	if (status === 'ok') return byId(id, answer);
	if (answer === false) return NOTHING;
	return status === undefined ? unproven(answer) : { delivered: false, reason: said(status) };
}

/**
 * The product's own `{error: false}` when sent (LINE answers no ID); else `error` holds the channel's
 * answer, which Zalo's keeps on success too (its own `error` 0 and the sent message's ID), so a
 * refusal is an answer whose own `error` is set, as the admin area reads it.
 */
function errorField(answer: unknown, nested: boolean): Verdict {
	if (answer === false) return NOTHING;
	const error = field(answer, 'error');
	if (error === false) return { delivered: true };
	if (nested && isDataObject(error) && error.error === 0)
		return byId(idText(field(field(error, 'data'), 'message_id')), answer);
	if (!error || (nested && isDataObject(error) && error.error === undefined))
		return unproven(answer);
	return { delivered: false, reason: said(field(error, 'message') ?? error) };
}

const MESSENGER: Channel = {
	name: 'Messenger',
	fn: 'messenger-send-message',
	recipient: { arg: 'psid', from: 'user', slug: 'facebook-id' },
	args: (out) => ({
		...common(out),
		facebook_page_id: out.extra,
		message_id: out.messageId,
		metadata: out.messageId,
	}),
	verdict: messenger,
	window: {
		hours: META_WINDOW_HOURS,
		term: 'standard messaging window',
		instead:
			"Support Board's Messenger app sends every reply as a response (messaging_type RESPONSE), with none of the message tags Meta allows past the window, so wait for the customer to write again",
	},
};

/** A channel the node sends nothing to, and why (after "Conversation … is on <name>, and "). */
const unsendable = (name: string, why: string | undefined, arg: string, slug: string): Channel => ({
	name,
	fn: undefined,
	unsendable: why,
	recipient: { arg, from: 'user', slug },
	args: common,
	verdict: () => NOTHING,
});

/** By `source`, as the product writes it on a conversation. */
export const CHANNELS: ReadonlyMap<string, Channel> = new Map<string, Channel>([
	[
		'wa',
		{
			name: 'WhatsApp',
			fn: 'whatsapp-send-message',
			recipient: { arg: 'to', from: 'user', slug: 'phone' },
			args: (out) => ({ ...common(out), phone_id: out.extra, message_id: out.messageId }),
			verdict: whatsapp,
			window: {
				hours: META_WINDOW_HOURS,
				term: 'customer service window',
				instead: 'send a WhatsApp template (Message → Send Template) instead',
			},
		},
	],
	['fb', MESSENGER],
	['ig', { ...MESSENGER, name: 'Instagram' }],
	[
		'tg',
		{
			name: 'Telegram',
			fn: 'telegram-send-message',
			recipient: { arg: 'chat_id', from: 'conversation' },
			args: (out) => ({
				...common(out),
				conversation_id: out.conversationId,
				message_id: out.messageId,
			}),
			verdict: telegram,
			oneAttachmentPerCall: true,
		},
	],
	[
		'vb',
		{
			name: 'Viber',
			fn: 'viber-send-message',
			recipient: { arg: 'viber_id', from: 'user', slug: 'viber-id' },
			args: common,
			verdict: viber,
		},
	],
	[
		'za',
		{
			name: 'Zalo',
			fn: 'zalo-send-message',
			recipient: { arg: 'zalo_id', from: 'user', slug: 'zalo-id' },
			args: common,
			verdict: (answer) => errorField(answer, true),
		},
	],
	[
		'ln',
		{
			name: 'LINE',
			fn: 'line-send-message',
			recipient: { arg: 'line_id', from: 'user', slug: 'line-id' },
			args: (out) => ({ ...common(out), conversation_id: out.conversationId }),
			verdict: (answer) => errorField(answer, false),
		},
	],
	['wc', unsendable('WeChat', tokenForward('wechat-send-message'), 'open_id', 'wechat-id')],
	[
		'tw',
		unsendable(
			'X (Twitter)',
			"Support Board's Web API has no function that sends to it (only its admin area does)",
			'twitter_id',
			'twitter-id',
		),
	],
]);
