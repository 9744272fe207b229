import type { INodeExecutionData } from 'n8n-workflow';

import type { PlainObject } from '../shared/json';
import type { SecretMask } from '../shared/secrets';
import { MAX_NAME_LENGTH } from './words';
import type { DeliveryId } from './deliveryId';
import type { DetectedEvent } from './detect';
import { namedDelivery, resourceOfDelivery } from './detect';
import { unwrapEventData } from './envelope';
import { extractIds } from './ids';
import { deliveryKey } from './key';
import type { LoopOptions } from './loops';
import { messageInFocus } from './loops';
import { maskHeaders } from './mask';
import type { TriggerSettings } from './settings';
import type { HeaderMap } from './util';

/** One event that starts the workflow, as handle.ts found it. */
interface AcceptedEvent {
	entry: PlainObject;
	detected: DetectedEvent;
	delivery: DeliveryId | undefined;
	headers: HeaderMap;
	/** When n8n received it, in milliseconds. */
	now: number;
}

/**
 * The item an event becomes: its fields are public (README › Trigger › Events, "Each event becomes one
 * item"), so every workflow reads the same names whatever the payload style.
 */
export function eventItem(
	event: AcceptedEvent,
	settings: TriggerSettings,
	mask: SecretMask,
	loopOptions: LoopOptions,
): INodeExecutionData {
	const { entry, detected, delivery, headers } = event;
	const ids = extractIds(entry, resourceOfDelivery(detected), {
		formId: namedDelivery(detected.name)?.formId === true,
		message: detected.event === 'messageCreated' ? messageInFocus(entry, loopOptions) : undefined,
	});
	const data = unwrapEventData(entry);
	const json: PlainObject = {
		event: detected.event,
		// As sent, up to MAX_NAME_LENGTH: a sender may put anything there, the secret included.
		eventName: detected.name === undefined ? null : mask.quote(detected.name, MAX_NAME_LENGTH),
		eventSource: detected.source ?? null,
		eventKey: deliveryKey(detected.event, ids, data),
		conversationId: ids.conversationId,
		userId: ids.userId,
		messageId: ids.messageId,
		deliveryId: delivery?.id ?? null,
		receivedAt: new Date(event.now).toISOString(),
		data,
		body: entry,
	};
	if (settings.includeHeaders) json.headers = maskHeaders(headers, settings, mask);
	return { json: json as INodeExecutionData['json'] };
}
