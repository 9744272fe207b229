import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isDataObject } from '../../shared/json';
import { QUOTE_LENGTH } from '../../shared/text';
import type { WirePort } from '../../transport/wire';
import type { Channel, Outgoing } from './channels';
import { CHANNELS } from './channels';
import { tokenForward } from './forwardsToken';
import { fn, notFound } from './functions';
import type { WindowState } from './replyWindow';
import { closedAfterStore, closedBeforeStore, windowOf } from './replyWindow';

/**
 * A reply in a messaging channel's conversation reaches the customer as the admin area's does: first
 * stored (send-message), then sent with the channel's function (./channels). Where it is going, and
 * whether its app answers, is read before anything is stored, so that a reply that cannot go anywhere
 * is refused whole; after the store, a refusal known to have sent nothing fails the item, saying the
 * message is stored and was not delivered, and an answer that tells neither (an empty 500, a timeout,
 * a lost answer, `null`, an empty ID) says that whether it was delivered is not known. Where the app
 * sends one file per call (Telegram's), each file is a call of its own, and a call that stops says which
 * files reached the customer, which may not have, and which were never sent. A reply to a channel with
 * a reply window (WhatsApp, Messenger, Instagram) that has closed is refused before the store, from the
 * conversation already read (./replyWindow).
 * The channel's call is a write: never repeated after it was sent (../../retry).
 */

/** Where a reply goes: the channel and the recipient's value, read from the conversation and its user. */
export interface Route {
	channel: Channel & { fn: string };
	recipient: string;
	extra: string;
	/** The conversation's reply window, where its channel has one. */
	window?: WindowState;
}

const TURN_OFF =
	'To store the reply in Support Board only, turn off Additional Fields → Deliver to Channel.';

const text = (value: unknown): string =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** The user's extra field `slug` (get-user-extra with a slug answers its value, or false). */
async function userExtra(port: WirePort, userId: string, slug: string): Promise<string> {
	return text(await fn.read(port, 'get-user-extra', { user_id: userId, slug })).trim();
}

/** The conversation's channel and recipient, or undefined when it came from no messaging channel. */
export async function routeOf(port: WirePort, conversationId: string): Promise<Route | undefined> {
	const answer = notFound(
		port,
		await fn.read(port, 'get-conversation', { conversation_id: conversationId }),
		'conversation',
		conversationId,
	);
	const details = isDataObject(answer) && isDataObject(answer.details) ? answer.details : {};
	const channel = CHANNELS.get(text(details.source));
	if (channel === undefined) return undefined;
	const { fn: name, recipient } = channel;
	const unsendable =
		name === undefined
			? (channel.unsendable ?? 'the node has no function that sends to it')
			: tokenForward(name);
	if (name === undefined || unsendable !== undefined)
		throw port.refuse(
			`Conversation ${conversationId} is on ${channel.name}, and ${unsendable}: nothing was stored`,
			TURN_OFF,
		);
	const window = channel.window && windowOf(answer, Date.now());
	if (channel.window && window && !window.open)
		throw port.refuse(closedBeforeStore(conversationId, channel.window, window), TURN_OFF);
	const extra = text(details.extra);
	const value =
		recipient.from === 'conversation'
			? extra
			: await userExtra(port, text(details.user_id), recipient.slug);
	if (value === '')
		throw port.refuse(
			`Conversation ${conversationId} is on ${channel.name}, but Support Board has no ${recipient.from === 'conversation' ? 'channel address on the conversation' : `${recipient.slug} for its user`}, so the reply could not reach the customer: nothing was stored`,
			TURN_OFF,
		);
	const route = { channel: { ...channel, fn: name }, recipient: value, extra, window };
	await appAnswers(port, route, conversationId);
	return route;
}

/** The channel function's arguments: the recipient (WhatsApp's number without its +) and the rest. */
function callArgs(route: Route, out: Outgoing): IDataObject {
	const { channel, recipient } = route;
	const to = channel.recipient.arg === 'to' ? recipient.replace(/^\+/, '') : recipient;
	return { [channel.recipient.arg]: to, ...channel.args(out) };
}

/**
 * Whether the channel's app answers, asked before the reply is stored. Every channel function of the
 * product's apps returns before it reaches its channel when it has no text and no attachment (false,
 * or Messenger's missing-arguments SBError), so this call sends nothing; without the app, PHP dies on
 * the undefined function: an empty HTTP 500. That is the only time the node can tell a missing app
 * from a function that died after sending: once the reply is stored, an empty 500 is taken for
 * neither (thrown, below).
 */
async function appAnswers(port: WirePort, route: Route, conversationId: string): Promise<void> {
	const { name, fn: fnName } = route.channel;
	const nothing = {
		message: '',
		attachments: [],
		messageId: '',
		conversationId,
		extra: route.extra,
	};
	try {
		await fn.named(port, fnName, callArgs(route, nothing), { read: false, repeatable: false });
	} catch (error) {
		const api = error instanceof NodeApiError ? error : undefined;
		if (api && refusedByProduct(api)) return;
		const why =
			api?.httpCode === '500'
				? `answered ${fnName} with HTTP 500 when asked to send nothing, as it does when its ${name} app is not installed or not enabled`
				: `did not answer ${fnName} when asked to send nothing: ${port.mask.quote(error instanceof Error ? error.message : String(error), QUOTE_LENGTH)}`;
		throw port.error(
			Number(api?.httpCode) || undefined,
			`Conversation ${conversationId} is on ${name}, and Support Board ${why}: nothing was stored`,
			{ description: `Nothing was sent to ${name}. ${TURN_OFF}` },
		);
	}
}

/**
 * The product's own refusal, raised before any send: an SBError (psid-not-found, chat-id-not-found,
 * security-error…), which api.php answers with HTTP 200 `{"status": "error", "response": code, …}`.
 * Any other 200 without the envelope (PHP's notices or a page printed in place of JSON) may come after
 * the channel was called.
 */
function refusedByProduct(error: NodeApiError): boolean {
	if (error.httpCode !== '200') return false;
	try {
		// The body as the error keeps it: masked and cut to 2000 characters, which an SBError fits in.
		const body: unknown = JSON.parse(String(error.context.responseBody ?? ''));
		return isDataObject(body) && body.status === 'error';
	} catch {
		return false;
	}
}

/** What became of the channel's call: refused (certain), or not known (no answer that tells). */
interface Failure {
	reason: string;
	status: number | undefined;
	known: boolean;
	/** The channel said its reply window has closed. */
	windowClosed?: boolean;
}

function notDelivered(port: WirePort, route: Route, messageId: string, failure: Failure) {
	const { name, fn: fnName } = route.channel;
	const stored = `The message is stored in Support Board (message ID ${messageId})`;
	// Masked (channel tokens by shape) before the cut: a token across the cut would lose its shape.
	const reason = port.mask.quote(failure.reason, QUOTE_LENGTH);
	const again = `once the cause is fixed, send it with Web API → Call a Function (${fnName}, message_id ${messageId}) or from Support Board's admin area.`;
	const { window } = route.channel;
	const closed = failure.windowClosed === true ? window : undefined;
	return failure.known
		? port.error(
				failure.status,
				`${stored} but was NOT delivered to ${name}: ${closed ? `${closedAfterStore(name, closed, route.window)}. ` : ''}${reason}`,
				{
					description: closed
						? `Support Board stored the reply, then ${name} refused it, its window having closed. Running this item again stores the message a second time, and ${name} refuses it again until the customer writes; ${closed.instead}.`
						: `Support Board stored the reply, then its ${fnName} did not deliver it. Running this item again stores the message a second time; ${again}`,
				},
			)
		: port.error(
				failure.status,
				`${stored}, but whether ${name} received it is not known: ${reason}`,
				{
					description: `Support Board stored the reply; the answer to its ${fnName} shows neither a delivery nor a refusal, and ${name} may have received it. Look at the conversation before sending it again: running this item again stores the message a second time; ${again}`,
				},
			);
}

/**
 * Whatever stopped the channel's call, after the store. Known not to have sent it: a 4xx, a refusal
 * before the function ran (api.php's own: missing-argument, invalid-token, function-not-found; or a
 * proxy's: 413, 429 after the retries), and the product's own SBError. Anything else is not known:
 * the app answered a moment ago (appAnswers), so an empty 500 is PHP dying inside the function, maybe
 * after sending (a timeout), as is a lost answer or a timeout of ours.
 */
function thrown(channel: Route['channel'], error: unknown): Failure {
	const api = error instanceof NodeApiError ? error : undefined;
	const status = Number(api?.httpCode) || undefined;
	const reason =
		status === 500
			? `Support Board answered ${channel.fn} with HTTP 500, as it does when PHP stops inside the function, which may have sent it first`
			: error instanceof Error
				? error.message
				: String(error);
	const before = status !== undefined && status >= 400 && status < 500;
	return { reason, status, known: before || (api !== undefined && refusedByProduct(api)) };
}

/** One call of the channel's function: the channel's ID of the sent message, or what stopped it. */
async function sendPart(
	port: WirePort,
	route: Route,
	part: Outgoing,
): Promise<{ id: string | undefined } | { failure: Failure }> {
	const { channel } = route;
	let answer: unknown;
	try {
		answer = await fn.write(port, channel.fn, callArgs(route, part), 'conversation');
	} catch (error) {
		// After the store, whatever stopped the channel's call fails the item; a timeout or a lost answer
		// says the channel may have it, since the product may have sent it before the answer was lost.
		return { failure: thrown(channel, error) };
	}
	const verdict = channel.verdict(answer);
	if (verdict.delivered) return { id: verdict.id };
	return {
		failure: {
			reason: verdict.unproven
				? `Support Board answered ${channel.fn} with ${verdict.reason}`
				: `${channel.name} refused it: ${verdict.reason}`,
			status: 200,
			known: verdict.unproven !== true,
			windowClosed: verdict.windowClosed,
		},
	};
}

/**
 * The calls a reply takes: one, or one per file where the channel's app sends one attachment per call
 * (the text goes with the first, as the app sends it). Only the first names the stored message, on which
 * the app writes the channel's ID of what it sent.
 */
function partsOf(channel: Route['channel'], out: Outgoing): Outgoing[] {
	if (channel.oneAttachmentPerCall !== true || out.attachments.length < 2) return [out];
	return out.attachments.map((file, index) =>
		index === 0
			? { ...out, attachments: [file] }
			: { ...out, message: '', attachments: [file], messageId: '' },
	);
}

/** A part as people read it: a file by its name, the first with the text when there is one. */
function partName(part: Outgoing, index: number): string {
	const file = `"${part.attachments[0]?.[0] ?? ''}"`;
	return index === 0 && part.message !== '' ? `the text with ${file}` : file;
}

/**
 * A reply sent in parts that stopped at part `failed`: the parts before it reached the customer (the
 * channel answered each with the ID of a sent message), part `failed` was refused or is not known, and
 * the parts after it were never sent. (Refused at the first part, nothing was delivered: notDelivered.)
 */
function partly(port: WirePort, route: Route, parts: Outgoing[], failed: number, failure: Failure) {
	const { name, fn: fnName } = route.channel;
	const names = parts.map(partName);
	const reason = port.mask.quote(failure.reason, QUOTE_LENGTH);
	const stored = `The message is stored in Support Board (message ID ${parts[0].messageId})`;
	const received = failed > 0 ? `; ${name} received ${names.slice(0, failed).join(' and ')}` : '';
	const rest = names.slice(failed + 1);
	const unsent = rest.length > 0 ? `; ${rest.join(' and ')} NOT sent` : '';
	const whether = failed > 0 ? '; whether it' : `, but whether ${name}`;
	return port.error(
		failure.status,
		failure.known
			? `${stored}${received}, but NOT ${names.slice(failed).join(' and ')}: ${reason}`
			: `${stored}${received}${whether} received ${names[failed]} is not known: ${reason}${unsent}`,
		{
			description: `Support Board stored the reply with every file; its ${fnName} sends one file per call, and stopped at ${names[failed]}. Running this item again stores the message a second time and sends every file again; to send only what is missing, use Web API → Call a Function (${fnName}, with those files as attachments) or Support Board's admin area.`,
		},
	);
}

/** Sends the stored message on with the channel's function; what came of it, or a failure that says so. */
export async function deliver(port: WirePort, route: Route, out: Outgoing): Promise<IDataObject> {
	const parts = partsOf(route.channel, out);
	const ids: Array<string | undefined> = [];
	for (const [index, part] of parts.entries()) {
		const sent = await sendPart(port, route, part);
		if ('failure' in sent)
			throw index === 0 && (parts.length === 1 || sent.failure.known)
				? notDelivered(port, route, out.messageId, sent.failure)
				: partly(port, route, parts, index, sent.failure);
		ids.push(sent.id);
	}
	return { channel: route.channel.name, status: 'delivered', channelMessageId: ids[0] ?? null };
}
