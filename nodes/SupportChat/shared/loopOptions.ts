import type { IDataObject } from 'n8n-workflow';

import type { LoopOptions } from './ownMessages';

/**
 * Ignore Own Messages' default, in both triggers' Options: on. The webhook trigger's TRIGGER_DEFAULTS
 * (../trigger/settings.ts) names it, and its test holds the description's literal to it.
 */
export const IGNORE_OWN_MESSAGES_DEFAULT = true;

/**
 * Which messages are the workflow's own, from the options both triggers name alike (Ignore Own Messages,
 * Ignored Sender IDs): the webhook trigger and the poll trigger read them here and judge by
 * `isOwnMessage` (./ownMessages.ts), so an auto-reply never starts its own workflow whichever trigger
 * hears it.
 */
export function readLoopOptions(options: IDataObject): LoopOptions {
	const { ignoreOwnMessages } = options;
	return {
		ignoreOwnTypes:
			ignoreOwnMessages === undefined ? IGNORE_OWN_MESSAGES_DEFAULT : ignoreOwnMessages !== false,
		ignoredSenderIds: parseIdList(options.ignoredSenderIds),
	};
}

/** Sender IDs as typed ("12, 57", one per line) or given by an expression (a list or one number). */
function parseIdList(value: unknown): string[] {
	if (Array.isArray(value))
		return value.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
	if (typeof value === 'number') return [String(value)];
	if (typeof value !== 'string') return [];
	return value
		.split(/[\s,;]+/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}
