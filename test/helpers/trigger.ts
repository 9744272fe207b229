/**
 * What the webhook trigger's unit tests share: the settings a node saved with nothing set reads, n8n's static data round
 * trip, and a delivery's event and id as the trigger reads them.
 */
import type { PlainObject } from '../../nodes/SupportChat/shared/json';
import { entryDeliveryId } from '../../nodes/SupportChat/trigger/delivery';
import { recogniseEvent } from '../../nodes/SupportChat/trigger/detect';
import { unwrapEventData } from '../../nodes/SupportChat/shared/vocabulary/envelopes';
import { TRIGGER_DEFAULTS } from '../../nodes/SupportChat/trigger/triggerSettings';
import type { HeaderMap } from '../../nodes/SupportChat/trigger/deliveryHeaders';
import type { TriggerSettings } from '../../nodes/SupportChat/trigger/triggerSettings';

const { options, ...parameters } = TRIGGER_DEFAULTS;

/**
 * The settings `readSettings` gives a node saved with nothing set (test/unit/trigger/readSettings.test.ts checks that it
 * does), with `overrides`: what handleDelivery receives from the node.
 */
export function triggerSettings(overrides: Partial<TriggerSettings> = {}): TriggerSettings {
	return {
		...parameters,
		...options,
		events: [],
		secret: '',
		credentialSecrets: [],
		ignoredSenderIds: [],
		...overrides,
	};
}

/** What n8n does between deliveries: saves the static data as JSON and rebuilds it from there. */
export function reload(store: Record<string, unknown>): Record<string, unknown> {
	return JSON.parse(JSON.stringify(store)) as Record<string, unknown>;
}

/** The event a delivery reports (`recogniseEvent`'s `detected`), its data unwrapped from the envelope unless given. */
export function eventOf(
	body: PlainObject,
	headers: HeaderMap,
	data: PlainObject = unwrapEventData(body),
) {
	return recogniseEvent(body, headers, data).detected;
}

/** The id of a delivery that is not a batch (`entryDeliveryId` of its one entry). */
export function deliveryIdOf(body: PlainObject, headers: HeaderMap) {
	return entryDeliveryId(body, 0, false, headers);
}
