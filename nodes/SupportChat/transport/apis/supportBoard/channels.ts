import type { IDataObject } from 'n8n-workflow';

import { isDataObject } from '../../../shared/json';

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

export type Verdict = { delivered: true; id?: string } | { delivered: false; reason: string };

export interface Channel {
	/** As people name it. */
	name: string;
	/** The Web API function that sends, or undefined where the Web API has none (X). */
	fn: string | undefined;
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

/** A Graph (Cloud API) error, Twilio's ErrorCode, or 360dialog's meta, as the admin area reads them. */
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
	return { delivered: true, id: idText(field(first, 'id')) ?? idText(field(answer, 'sid')) };
}

/** One Send API answer per part sent; any with an error is a refusal. */
function messenger(answer: unknown): Verdict {
	const parts: unknown[] = Array.isArray(answer) ? answer : [answer];
	for (const part of parts) {
		const error = field(part, 'error');
		if (error) return { delivered: false, reason: said(field(error, 'message') ?? error) };
	}
	if (parts.length === 0 || parts[0] === false) return NOTHING;
	return { delivered: true, id: idText(field(parts[0], 'message_id')) };
}

/** Bot API: `ok`, or a `description` of the refusal. */
function telegram(answer: unknown): Verdict {
	if (field(answer, 'ok') === true)
		return { delivered: true, id: idText(field(field(answer, 'result'), 'message_id')) };
	if (answer === false) return NOTHING;
	return { delivered: false, reason: said(field(answer, 'description') ?? answer) };
}

function viber(answer: unknown): Verdict {
	if (field(answer, 'status_message') === 'ok')
		return { delivered: true, id: idText(field(answer, 'message_token')) };
	if (answer === false) return NOTHING;
	return { delivered: false, reason: said(field(answer, 'status_message') ?? answer) };
}

/**
 * `{error: false}` when sent; otherwise `error` holds the channel's answer. For Zalo that answer is kept
 * even on success (`error: 0`), so a refusal is an answer whose own `error` is set, as the admin area reads it.
 */
function errorField(answer: unknown, nested: boolean): Verdict {
	if (answer === false) return NOTHING;
	const error = field(answer, 'error');
	if (!error) return { delivered: true };
	if (nested && isDataObject(error) && !error.error)
		return { delivered: true, id: idText(field(field(error, 'data'), 'message_id')) };
	return { delivered: false, reason: said(field(error, 'message') ?? error) };
}

/** `[answer, access token]`; the answer's `errmsg` is `ok` when sent. */
function wechat(answer: unknown): Verdict {
	const own: unknown = Array.isArray(answer) ? answer[0] : answer;
	if (field(own, 'errmsg') === 'ok') return { delivered: true, id: idText(field(own, 'msgid')) };
	if (own === false) return NOTHING;
	return { delivered: false, reason: said(field(own, 'errmsg') ?? own) };
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
			fn: 'wechat-send-message',
			recipient: { arg: 'open_id', from: 'user', slug: 'wechat-id' },
			args: common,
			verdict: wechat,
		},
	],
	[
		'tw',
		{
			name: 'X (Twitter)',
			fn: undefined,
			recipient: { arg: 'twitter_id', from: 'user', slug: 'twitter-id' },
			args: common,
			verdict: () => NOTHING,
		},
	],
]);
