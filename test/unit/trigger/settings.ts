import { TRIGGER_DEFAULTS } from '../../../nodes/SupportChat/trigger/settings';
import type { TriggerSettings } from '../../../nodes/SupportChat/trigger/settings';

const { options, ...parameters } = TRIGGER_DEFAULTS;

/**
 * The settings `readSettings` gives a node saved with nothing set (defaults.test.ts checks that it does),
 * with `overrides`: what handleDelivery receives from the node.
 */
export function triggerSettings(overrides: Partial<TriggerSettings> = {}): TriggerSettings {
	return { ...parameters, ...options, events: [], secret: '', ignoredSenderIds: [], ...overrides };
}
