import type { INodeExecutionData } from 'n8n-workflow';

import type { PlainObject } from '../shared/json';
import { maskSecretFields } from '../shared/secretFields';
import type { SecretMask } from '../shared/secrets';
import { parseBody } from './body';
import type { DeliveryMemory } from './dedupe';
import { seenBefore } from './dedupe';
import { entryDeliveryId } from './deliveryId';
import type { DetectedEvent } from './detect';
import { detectEvent } from './detect';
import { ANY_EVENT, UNKNOWN_EVENT } from './events';
import { eventItem } from './item';
import { isOwnMessage } from './loops';
import { maskField, secretMask } from './mask';
import type { TriggerSettings } from './settings';
import { checkBeforeParsing, checkBodyFields } from './schemes';
import type { HeaderMap } from './util';
import { headerValue, lowerCaseHeaders } from './util';

/** Distinct reasons an answer quotes for the entries it ignored: a batch of 40,000 odd names is not echoed whole. */
const MAX_REASONS = 20;

/**
 * One delivery, start to finish: verify, parse, recognise, filter, suppress duplicates and own
 * messages, and build the items. A pure function of the request, the settings, the static data and the
 * time; the node's `webhook()` only reads its parameters, calls this and writes the answer.
 */

export interface DeliveryRequest {
	/** The body exactly as received (express `req.rawBody`). */
	rawBody?: Buffer | string | null;
	/** What n8n parsed, used only when there are no raw bytes (multipart). */
	body?: unknown;
	headers: HeaderMap;
	query?: unknown;
}

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

function rawBytes(raw: DeliveryRequest['rawBody']): Buffer {
	if (Buffer.isBuffer(raw)) return raw;
	if (typeof raw === 'string') return Buffer.from(raw, 'utf8');
	return Buffer.alloc(0);
}

function isSelected(event: DetectedEvent['event'], settings: TriggerSettings): boolean {
	if (event === UNKNOWN_EVENT) return settings.unknownEvents === 'passOn';
	return settings.events.includes(ANY_EVENT) || settings.events.includes(event);
}

interface EntryOutcome {
	item?: INodeExecutionData;
	ignored?: string;
}

/** Why a delivery's event starts nothing: not recognised (unless passed on), or not selected. */
function unwantedEvent(detected: DetectedEvent, settings: TriggerSettings, mask: SecretMask): string | undefined {
	if (detected.event === UNKNOWN_EVENT && settings.unknownEvents !== 'passOn') {
		const name = detected.name === undefined ? '' : ` "${mask.quote(detected.name, 80)}"`;
		return `unrecognised event${name}`;
	}
	return isSelected(detected.event, settings) ? undefined : `event ${detected.event} not selected`;
}

function handleEntry(
	entry: PlainObject,
	index: number,
	batch: boolean,
	headers: HeaderMap,
	settings: TriggerSettings,
	context: DeliveryContext,
): EntryOutcome {
	const { staticData, now, mask, memory } = context;
	const detected = detectEvent(entry, headers);
	const unwanted = unwantedEvent(detected, settings, mask);
	if (unwanted !== undefined) return { ignored: unwanted };

	const loopOptions = { ignoreOwnTypes: settings.ignoreOwnMessages, ignoredSenderIds: settings.ignoredSenderIds };
	if (detected.event === 'messageCreated') {
		const own = isOwnMessage(entry, loopOptions);
		if (own.own) return { ignored: `own message (${own.reason})` };
	}

	const delivery = entryDeliveryId(entry, index, batch, headers);
	if (delivery !== undefined) {
		const windowMs = Math.max(0, settings.dedupeWindowMinutes) * 60_000;
		if (seenBefore(staticData, `${detected.event}|${delivery.id}`, now, { windowMs, memory })) {
			return { ignored: 'duplicate delivery' };
		}
	}

	const item = eventItem({ entry, detected, delivery, headers, now }, settings, mask, loopOptions);
	const key = item.json.eventKey;
	if (context.claim && typeof key === 'string' && !context.claim(key)) return { ignored: 'event already run by the poll trigger' };
	return { item };
}

interface DeliveryContext {
	staticData: Record<string, unknown>;
	now: number;
	mask: SecretMask;
	memory?: DeliveryMemory;
	/** Claims an event for this trigger (`EVENT_CLAIMS`): false when the poll trigger ran it already. */
	claim?: (eventKey: string) => boolean;
}

function decide(request: DeliveryRequest, settings: TriggerSettings, context: DeliveryContext): Decision {
	const { now } = context;
	const headers = lowerCaseHeaders(request.headers);
	const secret = settings.secret.trim();
	const effective: TriggerSettings = { ...settings, secret };

	if (effective.verification !== 'none' && secret === '') {
		// Fail closed: a check that cannot be made must not let deliveries through.
		return respond(401, { received: false, error: 'Webhook secret not configured' });
	}
	const early = checkBeforeParsing({ rawBody: rawBytes(request.rawBody), headers, query: request.query }, effective, now);
	if (!early.ok) return respond(401, { received: false, error: early.reason });

	const parsed = parseBody(request.rawBody, headerValue(headers, 'content-type'), request.body);
	if (!parsed.ok) return respond(400, { received: false, error: parsed.reason });

	const entries = Array.isArray(parsed.body) ? parsed.body : [parsed.body];
	const inBody = checkBodyFields(entries, effective);
	if (!inBody.ok) return respond(401, { received: false, error: inBody.reason });
	if (entries.length === 0) return respond(200, { received: true, ignored: 'no events' });

	const items: INodeExecutionData[] = [];
	const ignored = new Set<string>();
	entries.forEach((received, index) => {
		if (effective.verification === 'bodyField') maskField(received, effective.keyField);
		// A visitor's password, its hash and login token have no value known in advance: masked by name.
		const entry = maskSecretFields(received);
		const outcome = handleEntry(entry, index, Array.isArray(parsed.body), headers, effective, context);
		if (outcome.item) items.push(outcome.item);
		else if (outcome.ignored && ignored.size < MAX_REASONS) ignored.add(outcome.ignored);
	});

	if (items.length === 0) return respond(200, { received: true, ignored: [...ignored].join('; ') });
	return { action: 'run', status: 200, items, body: { received: true } };
}

/**
 * Decides what to do with one delivery.
 *
 * - 401, nothing started: the chosen verification fails (or no secret is configured for it).
 * - 400, nothing started: the body cannot be read (a short reason, never a stack trace).
 * - 200, nothing started: the event is not selected, not recognised (unless passed on), a repeat of a
 *   delivery already handled, a message the workflow's own side sent, or an event the workflow's poll
 *   trigger ran already.
 * - 200 and run: one item per event (a JSON array body is a batch of events).
 *
 * Duplicates are remembered only after verification succeeds, so forged requests cannot fill the
 * memory with ids that would later hide genuine deliveries. The secret is masked wherever a sender
 * echoed it, in items and answers alike. Never throws.
 *
 * @param staticData the node's workflow static data; the duplicate record is kept in it
 * @param now the current time in milliseconds
 * @param dedupe.memory the process's record of this node's deliveries (`DELIVERY_REGISTRY`), checked
 *   and written together with the static data; without it only the static data counts
 * @param dedupe.test a delivery to the test URL: remembered in `memory` only, and the static data
 *   (which holds the production URL's record) is neither read nor written, so neither URL hides a
 *   delivery from the other
 * @param dedupe.claim claims each event's key for the webhook trigger (production only): an event the
 *   poll trigger of the same workflow ran already starts nothing
 */
export function handleDelivery(
	request: DeliveryRequest,
	settings: TriggerSettings,
	staticData: Record<string, unknown>,
	now: number,
	dedupe: { memory?: DeliveryMemory; test?: boolean; claim?: (eventKey: string) => boolean } = {},
): Decision {
	try {
		const mask = secretMask(settings.secret);
		// A test delivery works on a scratch copy: what it would record must not reach the saved static data.
		const store = dedupe.test === true ? {} : staticData;
		return mask.value(decide(request, settings, { staticData: store, now, mask, memory: dedupe.memory, claim: dedupe.claim }));
	} catch {
		return respond(500, { received: false, error: 'Delivery could not be processed' });
	}
}
