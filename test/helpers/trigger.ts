/** What the webhook trigger's unit tests share: the settings a node saved with nothing set reads, and n8n's static data round trip. */
import { TRIGGER_DEFAULTS } from '../../nodes/SupportChat/trigger/settings';
import type { TriggerSettings } from '../../nodes/SupportChat/trigger/settings';

const { options, ...parameters } = TRIGGER_DEFAULTS;

/**
 * The settings `readSettings` gives a node saved with nothing set (test/unit/trigger/readSettings.test.ts checks that it
 * does), with `overrides`: what handleDelivery receives from the node.
 */
export function triggerSettings(overrides: Partial<TriggerSettings> = {}): TriggerSettings {
	return { ...parameters, ...options, events: [], secret: '', ignoredSenderIds: [], ...overrides };
}

/** What n8n does between deliveries: saves the static data as JSON and rebuilds it from there. */
export function reload(store: Record<string, unknown>): Record<string, unknown> {
	return JSON.parse(JSON.stringify(store)) as Record<string, unknown>;
}
