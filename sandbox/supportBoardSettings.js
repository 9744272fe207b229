// @ts-check
'use strict';

const { ok, error } = require('./supportBoardResult');

/**
 * The product's settings row through its Web API (include/settings.php, 3.8.7): `get-settings` answers
 * the whole row (`[]` on an install that has none), `save-settings` stores the object given IN PLACE OF
 * the whole row, so a setting left out is gone. Only the webhook entry means anything to the sandbox:
 * its four fields become the settings its webhooks are sent by, and settings changed since through the
 * control routes (`/_sandbox/support-board/webhooks`) show in the next `get-settings`.
 *
 * @typedef {import('./supportBoardWebhooks').SupportBoardWebhooks} SupportBoardWebhooks
 * @typedef {import('./supportBoardWebhooks').SupportBoardWebhookConfig} SupportBoardWebhookConfig
 * @typedef {import('./supportBoardResult').CallContext} CallContext
 * @typedef {import('./supportBoardResult').Outcome} Outcome
 */

/** @param {Readonly<SupportBoardWebhookConfig>} config The entry as the admin panel saves it. */
function renderEntry(config) {
	return [
		{
			'webhooks-active': [config.active, 'checkbox'],
			'webhooks-url': [config.url ?? '', 'text'],
			'webhooks-key': [config.key, 'password'],
			'webhooks-allowed': [config.allowed === null ? '' : config.allowed.join(','), 'text'],
		},
		'multi-input',
	];
}

/**
 * The webhook settings an entry gives, as `sb_webhooks` reads them; no entry sends nothing.
 * @param {unknown} entry
 */
function configOf(entry) {
	const fields =
		Array.isArray(entry) && entry[0] && typeof entry[0] === 'object' ? entry[0] : undefined;
	/** @param {string} name */
	const value = (name) => (fields && Array.isArray(fields[name]) ? fields[name][0] : undefined);
	const url = value('webhooks-url');
	const key = value('webhooks-key');
	const allowed = value('webhooks-allowed');
	return {
		active: Boolean(value('webhooks-active')) && value('webhooks-active') !== 'false',
		url: typeof url === 'string' && /^https?:\/\//.test(url.trim()) ? url.trim() : null,
		key: typeof key === 'string' ? key : '',
		allowed: typeof allowed === 'string' && allowed !== '' ? allowed : null,
	};
}

/**
 * A setting as sb_get_setting answers it: `false` when unset, a multi-input's fields as id → value.
 * @param {unknown} row
 * @param {string} id
 */
function settingValue(row, id) {
	const entry =
		row && typeof row === 'object' && !Array.isArray(row) && Object.hasOwn(row, id)
			? /** @type {Record<string, unknown>} */ (row)[id]
			: undefined;
	const value = Array.isArray(entry) ? entry[0] : undefined;
	if (value === undefined || value === '' || value === null) return false;
	if (typeof value !== 'object' || Array.isArray(value)) return value;
	return Object.fromEntries(
		Object.entries(value).map(([key, field]) => [key, Array.isArray(field) ? field[0] : field]),
	);
}

/** @param {SupportBoardWebhooks} webhooks */
function settingsFunctions(webhooks) {
	/** @type {Record<string, unknown> | null} The row as last saved. */
	let row = null;
	/** @type {Readonly<SupportBoardWebhookConfig> | null} The webhook settings that row gave. */
	let savedConfig = null;
	/** @type {Map<string, unknown>} The settings kept in rows of their own (sb_settings by name). */
	const external = new Map();

	function current() {
		if (row !== null && webhooks.config === savedConfig) return row;
		if (row === null && webhooks.config.url === null) return [];
		return { ...(row ?? {}), webhooks: renderEntry(webhooks.config) };
	}

	/** @type {Record<string, (ctx: CallContext) => Outcome>} */
	const functions = {
		'get-settings': () => ok(structuredClone(current())),
		'save-settings': ({ params }) => {
			let settings = params.settings;
			if (typeof settings === 'string') {
				try {
					settings = JSON.parse(settings);
				} catch {
					return error('json-encode-error', 'sb_save_settings');
				}
			}
			if (settings === undefined || settings === null || typeof settings !== 'object')
				return error('settings-not-found', 'sb_save_settings');
			/** @type {Record<string, unknown>} */
			const saved = Array.isArray(settings)
				? {}
				: structuredClone(/** @type {Record<string, unknown>} */ (settings));
			row = saved;
			const entry = Object.hasOwn(saved, 'webhooks') ? saved.webhooks : undefined;
			savedConfig = webhooks.configure(configOf(entry));
			return ok(true);
		},
		// sb_save_external_setting / sb_get_external_setting: a row of its own per name, JSON as given.
		'save-external-setting': ({ params }) => {
			external.set(String(params.name), structuredClone(params.value));
			return ok(true);
		},
		'get-external-setting': ({ params }) => {
			const name = String(params.setting);
			return ok(external.has(name) ? structuredClone(external.get(name)) : false);
		},
		// sb_get_setting: the value without its type; a multi-input's fields as id → value.
		'get-setting': ({ params }) => ok(settingValue(current(), String(params.setting))),
		// sb_get_multi_setting: one field of a multi-input, bare.
		'get-multi-setting': ({ params }) => {
			const setting = settingValue(current(), String(params.id));
			const field =
				setting && typeof setting === 'object' && Object.hasOwn(setting, String(params.sub_id))
					? /** @type {Record<string, unknown>} */ (setting)[String(params.sub_id)]
					: undefined;
			return ok(field === undefined || field === '' ? false : field);
		},
	};

	return {
		functions,
		reset() {
			row = null;
			savedConfig = null;
			external.clear();
		},
	};
}

module.exports = { settingsFunctions };
