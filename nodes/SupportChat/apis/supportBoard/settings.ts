import type { IDataObject } from 'n8n-workflow';

import { isDataObject } from '../../shared/json';
import type { CallResult, Calls } from '../../transport/calls';
import type { WirePort } from '../../transport/wire';
import { fn } from './functions';

/**
 * The product's settings (include/settings.php, 3.8.7): `get-settings` answers the whole settings row,
 * one entry per setting (`{"webhooks": [{"webhooks-url": [url, "text"], …}, "multi-input"], …}`), and
 * `save-settings` stores the object it is given IN PLACE OF the whole row (`sb_save_settings` writes it
 * with one `INSERT … ON DUPLICATE KEY UPDATE`): a setting left out is deleted. So a caller reads the
 * row, changes its entry and sends the row back. An install with no settings answers an empty list.
 */

/** What save-settings names as the setting saved: api.php asks for it, sb_save_settings never reads it. */
const SAVED_SETTING = 'webhooks';

/** How the row is read: a read, repeatable, whose answer reaches no item nor message. */
const FOR_NODE_ONLY = { read: true, repeatable: true, forNodeOnly: true };

export const SETTINGS_CALLS = {
	async readServiceSettings(port: WirePort): Promise<CallResult> {
		// Written back whole by the trigger: a masked copy would replace every password with the mark.
		const answer = await fn.named(port, 'get-settings', {}, FOR_NODE_ONLY);
		if (Array.isArray(answer) && answer.length === 0) return { answer: {}, sent: {} };
		if (isDataObject(answer)) return { answer, sent: {} };
		throw port.error(200, 'The answer to get-settings holds no settings', {
			description: "Check that the Base URL is your Support Board's address.",
		});
	},
	async saveServiceSettings(
		port: WirePort,
		{ settings }: Calls['saveServiceSettings'],
	): Promise<CallResult> {
		// Saving the same row twice stores it once: a retry after a failure on the way is harmless.
		const args: IDataObject = { setting: SAVED_SETTING, settings };
		await fn.named(port, 'save-settings', args, { read: false, repeatable: true });
		return { answer: {}, sent: {} };
	},
};
