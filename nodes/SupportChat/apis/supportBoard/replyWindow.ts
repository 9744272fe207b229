import type { IDataObject } from 'n8n-workflow';

import { asText, isDataObject } from '../../shared/json';
import type { WindowRule } from './channels';
import { CHANNELS } from './channels';

/**
 * A channel's reply window (./channels `window`), read from the conversation as get-conversation answers
 * it (`{messages, details}`): no request of its own. The customer is the conversation's user
 * (`details.user_id`); their last message is the last of theirs in the product's order (by ID), as the
 * admin area finds it (js/main.js getLastUserMessage); its `creation_time` is UTC, as the product writes
 * it (include/functions.php sb_gmt_now: gmdate 'Y-m-d H:i:s'). A message stored as the customer (Send
 * As User) counts too: the product records it as theirs.
 */

/** What Conversation → Get shows, and what a reply is judged by. */
export interface WindowState extends IDataObject {
	channel: string;
	hours: number;
	/** When the customer last wrote (UTC, ISO 8601); null when they never wrote in the conversation. */
	lastCustomerMessageAt: string | null;
	endsAt: string | null;
	open: boolean;
}

const HOUR_MS = 3_600_000;

/** The product's `Y-m-d H:i:s` (UTC) as milliseconds; undefined for anything else. */
function productTime(value: unknown): number | undefined {
	const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(asText(value) ?? '');
	if (match === null) return undefined;
	const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
	const ms = Date.UTC(year, month - 1, day, hour, minute, second);
	// Date.UTC rolls a 13th month or a 31 February over: such a date is none the product wrote.
	const back = new Date(ms);
	return back.getUTCMonth() === month - 1 && back.getUTCDate() === day ? ms : undefined;
}

/** The channel's rule and name, for a conversation whose source has a window. */
function windowRuleOf(source: string): { name: string; rule: WindowRule } | undefined {
	const channel = CHANNELS.get(source);
	return channel?.window === undefined ? undefined : { name: channel.name, rule: channel.window };
}

/**
 * The window of a WhatsApp, Messenger or Instagram conversation at `now`; undefined for any other
 * conversation, and where the customer's last message has no time the product would write (then the
 * channel, not the node, decides).
 */
export function windowOf(conversation: unknown, now: number): WindowState | undefined {
	const details = isDataObject(conversation) ? conversation.details : undefined;
	if (!isDataObject(details)) return undefined;
	const channel = windowRuleOf(asText(details.source) ?? '');
	const customer = asText(details.user_id);
	if (channel === undefined || customer === undefined) return undefined;
	const { name, rule } = channel;
	const messages = isDataObject(conversation) ? conversation.messages : undefined;
	const last = (Array.isArray(messages) ? messages : [])
		.filter((message) => isDataObject(message) && asText(message.user_id) === customer)
		.at(-1);
	const state = { channel: name, hours: rule.hours };
	if (last === undefined)
		return { ...state, lastCustomerMessageAt: null, endsAt: null, open: false };
	const wrote = productTime(isDataObject(last) ? last.creation_time : undefined);
	if (wrote === undefined) return undefined;
	const ends = wrote + rule.hours * HOUR_MS;
	return {
		...state,
		lastCustomerMessageAt: new Date(wrote).toISOString(),
		endsAt: new Date(ends).toISOString(),
		open: now <= ends,
	};
}

/** Why a reply is refused before the store: when the customer last wrote, and what to send instead. */
export function closedBeforeStore(
	conversationId: string,
	rule: WindowRule,
	state: WindowState,
): string {
	const { channel, hours, lastCustomerMessageAt } = state;
	const window = `${channel}'s ${hours}-hour ${rule.term}`;
	const when =
		lastCustomerMessageAt === null
			? `its customer has never written in it, so ${window} is not open`
			: `its customer last wrote at ${lastCustomerMessageAt} (UTC), more than ${hours} hours ago, so ${window} has closed`;
	return `Conversation ${conversationId} is on ${channel}, and ${when}: nothing was stored; ${rule.instead}`;
}

/**
 * What a channel's own window refusal after the store means, in words, put before its own text (which
 * may end in a URL the masking cuts).
 */
export function closedAfterStore(
	channel: string,
	rule: WindowRule,
	state: WindowState | undefined,
): string {
	const wrote =
		state?.lastCustomerMessageAt === null || state === undefined
			? ''
			: ` (the customer last wrote at ${state.lastCustomerMessageAt} (UTC))`;
	return `${channel}'s ${rule.hours}-hour ${rule.term} has closed${wrote}: ${rule.instead}`;
}
