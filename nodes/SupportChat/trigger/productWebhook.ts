import type { GenericValue, IDataObject } from 'n8n-workflow';

import type { PlainObject } from '../shared/json';
import { isDataObject } from '../shared/json';
import { maskUrl } from '../shared/quotedUrls';
import { KIND_VALUES, webhooksOf } from '../shared/eventFacts';
import { ANY_EVENT } from '../shared/events';

/**
 * Support Board's webhook setting (Settings → Miscellaneous → Webhooks) inside its settings row, as
 * get-settings answers it (3.8.7): `"webhooks": [{"webhooks-active": [true, "checkbox"],
 * "webhooks-url": [url, "text"], "webhooks-key": [key, "password"], "webhooks-allowed": [names, "text"]},
 * "multi-input"]`. `sb_webhooks` (include/functions.php) sends to the URL while Active is ticked, with
 * the key in the body, and only the webhooks named in "allowed" (comma-separated; empty means all).
 */

const ACTIVE = 'webhooks-active';
const URL_FIELD = 'webhooks-url';
const KEY = 'webhooks-key';
const ALLOWED = 'webhooks-allowed';
export const WEBHOOK_SETTING = 'webhooks';

/** The four fields as the product reads them; missing ones empty. */
export interface WebhookFields {
	active: boolean;
	url: string;
	key: string;
	allowed: string;
}

function fieldsOf(entry: unknown): IDataObject | undefined {
	return Array.isArray(entry) && isDataObject(entry[0]) ? entry[0] : undefined;
}

function valueOf(fields: IDataObject | undefined, name: string): unknown {
	const field = fields !== undefined && Object.hasOwn(fields, name) ? fields[name] : undefined;
	return Array.isArray(field) ? field[0] : undefined;
}

const text = (value: unknown): string =>
	typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/** The webhook fields of a settings row, as `sb_webhooks` would read them (PHP's truthiness for Active). */
export function webhookFields(settings: PlainObject): WebhookFields {
	const fields = fieldsOf(settings[WEBHOOK_SETTING]);
	const active = valueOf(fields, ACTIVE);
	return {
		active:
			active === true ||
			active === 1 ||
			(typeof active === 'string' && !['', '0', 'false'].includes(active)),
		url: text(valueOf(fields, URL_FIELD)).trim(),
		key: text(valueOf(fields, KEY)),
		allowed: text(valueOf(fields, ALLOWED)),
	};
}

/**
 * The setting with our four fields written in: the other fields of the entry, if any, kept as they
 * were, so that what the node does not own survives.
 */
export function withOurFields(entry: unknown, ours: Omit<WebhookFields, 'active'>): GenericValue[] {
	return [
		{
			...(fieldsOf(entry) ?? {}),
			[ACTIVE]: [true, 'checkbox'],
			[URL_FIELD]: [ours.url, 'text'],
			[KEY]: [ours.key, 'password'],
			[ALLOWED]: [ours.allowed, 'text'],
		},
		'multi-input',
	];
}

/** The setting with its key replaced by `key`, every other byte as it was; a copy. */
export function withKey(entry: unknown, key: string): IDataObject[string] {
	// A JSON copy: the entry may come from static data, which n8n hands out as a proxy that cannot be
	// cloned. Cast at JSON.parse, whose every value (object, list, text, number, boolean, null) is one.
	const copy = JSON.parse(JSON.stringify(entry)) as IDataObject[string];
	const fields = fieldsOf(copy);
	const field = fields !== undefined && Object.hasOwn(fields, KEY) ? fields[KEY] : undefined;
	if (Array.isArray(field) && field.length > 0) field[0] = key;
	return copy;
}

/**
 * The setting turned off and pointing nowhere: no URL, no key, Active unticked (`sb_webhooks` then
 * sends nothing), the entry's other fields as they were.
 */
export function turnedOff(entry: unknown): GenericValue[] {
	return [
		{
			...(fieldsOf(entry) ?? {}),
			[ACTIVE]: [false, 'checkbox'],
			[URL_FIELD]: ['', 'text'],
			[KEY]: ['', 'password'],
		},
		'multi-input',
	];
}

/** The "allowed" field's names, as `sb_webhooks` splits them (spaces removed, comma-separated). */
function names(allowed: string): Set<string> {
	return new Set(
		allowed
			.replaceAll(' ', '')
			.split(',')
			.filter((name) => name !== ''),
	);
}

/** Whether the settings send exactly what the node wants: its URL, its key, its webhooks, active. */
export function holdsExactly(held: WebhookFields, wanted: Omit<WebhookFields, 'active'>): boolean {
	const heldNames = names(held.allowed);
	const wantedNames = names(wanted.allowed);
	return (
		held.active &&
		held.url === wanted.url &&
		held.key === wanted.key &&
		heldNames.size === wantedNames.size &&
		[...wantedNames].every((name) => heldNames.has(name))
	);
}

/** What the product's webhook names are for the trigger's Events, or the values that have none. */
export function webhookNamesOf(events: readonly string[]): { names: string[]; without: string[] } {
	const found = new Set<string>();
	const without: string[] = [];
	for (const event of events) {
		const kinds = event === ANY_EVENT ? KIND_VALUES : [event];
		for (const kind of kinds) {
			const product = webhooksOf(kind);
			if (product === undefined || product.length === 0) {
				if (event !== ANY_EVENT) without.push(event);
			} else product.forEach((name) => found.add(name));
		}
	}
	return { names: [...found], without };
}

/** A URL someone else set, as a message may show it: by the one rule for URLs quoted (shared/quotedUrls). */
export const shownUrl = (url: string): string => maskUrl(url);
