import type { INodeExecutionData } from 'n8n-workflow';

import type { ClaimOutcome } from '../shared/claims';
import { eventItem } from '../shared/eventKey';
import type { SecretMask } from '../shared/secrets';
import { ANY_EVENT, UNKNOWN_EVENT } from '../shared/events';
import type { SupportBoardEvent } from '../shared/supportBoardEvents';
import type { DeliveryMemory } from './dedupe';
import { seenBefore } from './dedupe';
import type { Delivery, DeliveryEntry, DeliveryRequest } from './delivery';
import { readDelivery, maskHeaders, secretMask } from './delivery';
import type { DetectedEvent } from './detect';
import type { ExtractedIds } from './ids';
import type { TriggerSettings } from './triggerSettings';
import { MAX_NAME_LENGTH } from './aliases';

/** Distinct reasons an answer quotes for the entries it ignored: a batch of 40,000 odd names is not echoed whole. */
const MAX_REASONS = 20;

/**
 * One delivery, start to finish: read it once (delivery.ts: verified, parsed, each event recognised
 * and its ids and sender read), then decide on each event (selected, own message, duplicate, claimed by
 * the poll trigger) and build its item. A pure function of the request, the settings, the static data
 * and the time; the node's `webhook()` only reads its parameters, calls this and writes the answer.
 */

interface ResponseBody {
	received: boolean;
	ignored?: string;
	error?: string;
	[key: string]: unknown;
}

export type Decision =
	| { action: 'respond'; status: 200 | 400 | 401 | 500; body: ResponseBody }
	| { action: 'run'; status: 200; items: INodeExecutionData[]; body: ResponseBody };

function respond(status: 200 | 400 | 401 | 500, body: ResponseBody): Decision {
	return { action: 'respond', status, body };
}

function isSelected(event: DetectedEvent['event'], settings: TriggerSettings): boolean {
	if (event === UNKNOWN_EVENT) return settings.unknownEvents === 'passOn';
	return settings.events.includes(ANY_EVENT) || settings.events.includes(event);
}

/** Why a delivery's event starts nothing: not recognised (unless passed on), or not selected. */
function unwantedEvent(
	detected: DetectedEvent,
	settings: TriggerSettings,
	mask: SecretMask,
): string | undefined {
	if (detected.event === UNKNOWN_EVENT && settings.unknownEvents !== 'passOn') {
		const name = detected.name === undefined ? '' : ` "${mask.quote(detected.name, 80)}"`;
		return `unrecognised event${name}`;
	}
	return isSelected(detected.event, settings) ? undefined : `event ${detected.event} not selected`;
}

/** The event an entry starts the workflow as, with its ids and key. */
interface Chosen {
	event: DetectedEvent['event'] | SupportBoardEvent;
	ids: ExtractedIds;
	key: string | null;
}

/**
 * What the entry is for this workflow. Support Board's own events (`productEvent`) are selected by
 * name only, never by `*`, and only where the entry's event is not selected: a workflow that did not
 * select one gets every delivery exactly as before they were offered (the six kinds, or `unknown`).
 */
function chooseEvent(entry: DeliveryEntry, settings: TriggerSettings): Chosen {
	const { detected, product } = entry;
	const sixSelected = detected.event !== UNKNOWN_EVENT && isSelected(detected.event, settings);
	if (product !== undefined && !sixSelected && settings.events.includes(product.event))
		return product;
	return { event: detected.event, ids: entry.ids, key: entry.key };
}

/** The item an accepted event becomes (shared/eventKey.ts), every field from the delivery as read. */
function itemOf(
	entry: DeliveryEntry,
	chosen: Chosen,
	delivery: Delivery,
	settings: TriggerSettings,
	context: DeliveryContext,
): INodeExecutionData {
	const { detected } = entry;
	const { ids } = chosen;
	const { mask } = context;
	return eventItem({
		event: chosen.event,
		// As sent, up to MAX_NAME_LENGTH: a sender may put anything there, the secret included.
		eventName: detected.name === undefined ? null : mask.quote(detected.name, MAX_NAME_LENGTH),
		eventSource: detected.source ?? null,
		eventKey: chosen.key,
		conversationId: ids.conversationId,
		userId: ids.userId,
		messageId: ids.messageId,
		deliveryId: entry.deliveryId?.id ?? null,
		receivedAt: new Date(context.now).toISOString(),
		data: entry.data,
		body: entry.body,
		headers: settings.includeHeaders ? maskHeaders(delivery.headers, settings, mask) : undefined,
	});
}

/** What becomes of one event: its item, or why it starts nothing. */
function decideEntry(
	entry: DeliveryEntry,
	delivery: Delivery,
	settings: TriggerSettings,
	context: DeliveryContext,
): { item?: INodeExecutionData; ignored?: string } {
	const { detected, sender, deliveryId } = entry;
	const chosen = chooseEvent(entry, settings);
	const { key } = chosen;
	if (chosen.event === detected.event) {
		const unwanted = unwantedEvent(detected, settings, context.mask);
		if (unwanted !== undefined) return { ignored: unwanted };
		// Ignore Own Messages is New Message's rule: Support Board's New Messages Received is the chat showing them.
		if (sender?.own) return { ignored: `own message (${sender.reason})` };
	}
	if (deliveryId !== undefined) {
		const windowMs = Math.max(0, settings.dedupeWindowMinutes) * 60_000;
		const { staticData, now, memory } = context;
		if (
			seenBefore(staticData, `${chosen.event}|${deliveryId.id}`, now, {
				windowMs,
				memory: memory?.(),
			})
		) {
			return { ignored: 'duplicate delivery' };
		}
	}
	const claimed = context.claim && key !== null ? context.claim(key) : 'run';
	if (claimed === 'taken') return { ignored: 'event already run by the poll trigger' };
	if (claimed === 'left') return { ignored: 'left to the poll trigger (too many events claimed)' };
	return { item: itemOf(entry, chosen, delivery, settings, context) };
}

interface DeliveryContext {
	staticData: Record<string, unknown>;
	now: number;
	mask: SecretMask;
	memory?: () => DeliveryMemory;
	/** Claims an event for this trigger (`EVENT_CLAIMS`): `taken` when the poll trigger ran it already. */
	claim?: (eventKey: string) => ClaimOutcome;
}

function decide(
	request: DeliveryRequest,
	settings: TriggerSettings,
	context: DeliveryContext,
): Decision {
	const effective: TriggerSettings = { ...settings, secret: settings.secret.trim() };
	const read = readDelivery(request, effective, context.now);
	if (!read.ok) return respond(read.status, { received: false, error: read.error });
	const { delivery } = read;
	if (delivery.entries.length === 0) return respond(200, { received: true, ignored: 'no events' });

	const items: INodeExecutionData[] = [];
	const ignored = new Set<string>();
	for (const entry of delivery.entries) {
		const outcome = decideEntry(entry, delivery, effective, context);
		if (outcome.item) items.push(outcome.item);
		else if (outcome.ignored && ignored.size < MAX_REASONS) ignored.add(outcome.ignored);
	}
	if (items.length === 0) return respond(200, { received: true, ignored: [...ignored].join('; ') });
	return { action: 'run', status: 200, items, body: { received: true } };
}

/**
 * Decides what to do with one delivery.
 *
 * - 401, nothing started: the chosen verification fails (or no secret is configured for it).
 * - 400, nothing started: the body cannot be read (a short reason, never a stack trace).
 * - 200, nothing started: the event is not selected, not recognised (unless passed on), a repeat of a
 *   delivery already handled, a message the workflow's own side sent, an event the workflow's poll
 *   trigger ran already, or one left to it because the process's claims are full.
 * - 200 and run: one item per event (a JSON array body is a batch of events).
 *
 * Duplicates are remembered only after verification succeeds, so forged requests cannot fill the
 * memory with ids that would later hide genuine deliveries. The secret is masked wherever a sender
 * echoed it, in items and answers alike. Never throws.
 *
 * @param staticData the node's workflow static data; the duplicate record is kept in it
 * @param now the current time in milliseconds
 * @param dedupe.memory the process's record of this node's deliveries (`DELIVERY_REGISTRY`), asked for
 *   only when a delivery names its ID, then checked and written together with the static data; without
 *   it only the static data counts
 * @param dedupe.test a delivery to the test URL: remembered in `memory` only, and the static data
 *   (which holds the production URL's record) is neither read nor written, so neither URL hides a
 *   delivery from the other
 * @param dedupe.claim claims each event's key for the webhook trigger (production only): an event the
 *   poll trigger of the same workflow ran already starts nothing, nor one left to it (claims full)
 */
export function handleDelivery(
	request: DeliveryRequest,
	settings: TriggerSettings,
	staticData: Record<string, unknown>,
	now: number,
	dedupe: {
		memory?: () => DeliveryMemory;
		test?: boolean;
		claim?: (eventKey: string) => ClaimOutcome;
	} = {},
): Decision {
	try {
		const mask = secretMask(settings.secret, settings.credentialSecrets);
		// A test delivery works on a scratch copy: what it would record must not reach the saved static data.
		const store = dedupe.test === true ? {} : staticData;
		return mask.value(
			decide(request, settings, {
				staticData: store,
				now,
				mask,
				memory: dedupe.memory,
				claim: dedupe.claim,
			}),
		);
	} catch {
		return respond(500, { received: false, error: 'Delivery could not be processed' });
	}
}
