import type { IDataObject } from 'n8n-workflow';

import { isDataObject } from '../../../shared/json';
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
 * WhatsApp was run against the product's own code (its app 1.3.1); the other rows are read from the
 * product's source (its apps at 3.8.5) and are modelled in the sandbox only.
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
 * What a channel's answer says: delivered; refused, in the channel's own words; or `unproven`, an answer
 * that is neither (the product hands on `null` when it could not reach the channel, or what a proxy
 * answered in its place): not counted as a delivery, nor said to be a refusal.
 */
export type Verdict =
	| { delivered: true; id?: string }
	| { delivered: false; reason: string; unproven?: true };

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
}

const field = (value: unknown, key: string): unknown =>
	isDataObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;

const idText = (value: unknown): string | undefined =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;

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

/**
 * Sent: Graph's (and 360dialog's) `messages[0].id`, or Twilio's `sid`. Refused: a Graph error, Twilio's
 * ErrorCode, or 360dialog's meta, as the admin area reads them.
 */
function whatsapp(answer: unknown): Verdict {
	if (answer === false) return NOTHING;
	const error = field(answer, 'error');
	if (error) return { delivered: false, reason: said(field(error, 'message') ?? error) };
	if (field(answer, 'ErrorCode'))
		return { delivered: false, reason: said(field(answer, 'errorMessage')) };
	const meta = field(answer, 'meta');
	if (isDataObject(meta) && meta.success === false)
		return { delivered: false, reason: said(meta.developer_message) };
	const messages = field(answer, 'messages');
	const first = Array.isArray(messages) ? (messages[0] as unknown) : undefined;
	const id = idText(field(first, 'id')) ?? idText(field(answer, 'sid'));
	return id === undefined ? unproven(answer) : { delivered: true, id };
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
		if (error) return { delivered: false, reason: said(field(error, 'message') ?? error) };
	}
	const missing = parts.find((part) => idText(field(part, 'message_id')) === undefined);
	if (missing !== undefined) return unproven(missing);
	return { delivered: true, id: idText(field(parts[0], 'message_id')) };
}

/** Bot API: `ok`, or `ok: false` and a `description` of the refusal. */
function telegram(answer: unknown): Verdict {
	if (field(answer, 'ok') === true)
		return { delivered: true, id: idText(field(field(answer, 'result'), 'message_id')) };
	if (answer === false) return NOTHING;
	if (field(answer, 'ok') === false)
		return { delivered: false, reason: said(field(answer, 'description') ?? answer) };
	return unproven(answer);
}

/** `status_message` `ok` when sent; another `status_message` names the refusal. */
function viber(answer: unknown): Verdict {
	if (field(answer, 'status_message') === 'ok')
		return { delivered: true, id: idText(field(answer, 'message_token')) };
	if (answer === false) return NOTHING;
	const status = field(answer, 'status_message');
	return status === undefined ? unproven(answer) : { delivered: false, reason: said(status) };
}

/**
 * The product's own `{error: false}` when sent; otherwise `error` holds the channel's answer. For Zalo
 * that answer is kept even on success (its own `error` 0), so a refusal is an answer whose own `error`
 * is set, as the admin area reads it.
 */
function errorField(answer: unknown, nested: boolean): Verdict {
	if (answer === false) return NOTHING;
	const error = field(answer, 'error');
	if (error === false) return { delivered: true };
	if (nested && isDataObject(error) && error.error === 0)
		return { delivered: true, id: idText(field(field(error, 'data'), 'message_id')) };
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
};

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
	[
		'wc',
		{
			name: 'WeChat',
			fn: undefined,
			unsendable: tokenForward('wechat-send-message'),
			recipient: { arg: 'open_id', from: 'user', slug: 'wechat-id' },
			args: common,
			verdict: () => NOTHING,
		},
	],
	[
		'tw',
		{
			name: 'X (Twitter)',
			fn: undefined,
			unsendable:
				"Support Board's Web API has no function that sends to it (only its admin area does)",
			recipient: { arg: 'twitter_id', from: 'user', slug: 'twitter-id' },
			args: common,
			verdict: () => NOTHING,
		},
	],
]);
