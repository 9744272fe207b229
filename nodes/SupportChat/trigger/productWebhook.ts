import type { GenericValue, IDataObject } from 'n8n-workflow';

import type { PlainObject } from '../shared/json';
import { isDataObject } from '../shared/json';
import { maskUrl } from '../shared/quotedUrls';
import { KIND_VALUES, webhooksOf } from '../shared/eventFacts';
import { ANY_EVENT } from '../shared/events';
import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt } from 'crypto';

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

/**
 * What Set Up Webhook in Support Board replaced (the earlier webhook entry: its URL, which may carry
 * `user:password@` or a token, and its Secret key), kept in the node's static data until it is put
 * back. Static data is stored in n8n's database unencrypted, unlike credentials; so the entry is kept
 * sealed (AES-256-GCM), never in the clear, under keys derived from secrets that n8n keeps encrypted.
 *
 * It is sealed twice, once under the credentials' Admin Token and once under the Webhook Secret that
 * the node writes into Support Board: a rotation of either still lets unpublishing open it (the
 * Webhook Secret is then read back from the credentials, or from Support Board, which holds it while
 * our URL is there). A key kept beside the seal in static data would not be a seal at all. The keys are
 * derived with scrypt and a fresh salt, since a Webhook Secret is chosen by a person and may be guessable.
 */

const SEAL = 'v2';
const SALT_BYTES = 16;
const IV_BYTES = 12;
/** GCM's full tag: a shorter one is easier to forge, so a record holding one is refused. */
const TAG_BYTES = 16;
const LABEL = 'support-chat: earlier webhook entry';
/** Two are written; more are never tried, whatever static data holds. */
const MAX_SEALS = 4;

async function derive(secret: string, salt: Buffer): Promise<Buffer> {
	return await new Promise((resolve, reject) => {
		scrypt(secret, Buffer.concat([Buffer.from(LABEL), salt]), 32, (error, key) => {
			if (error) reject(error);
			else resolve(key);
		});
	});
}

const decode = (part: string | undefined): Buffer => Buffer.from(part ?? '', 'base64');

/** One seal of `plain` under each non-empty secret. */
async function seal(plain: string, secrets: readonly string[]): Promise<string[]> {
	const seals: string[] = [];
	for (const secret of new Set(secrets.filter((s) => s !== ''))) {
		const salt = randomBytes(SALT_BYTES);
		const iv = randomBytes(IV_BYTES);
		const cipher = createCipheriv('aes-256-gcm', await derive(secret, salt), iv, {
			authTagLength: TAG_BYTES,
		});
		const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
		seals.push(
			[SEAL, ...[salt, iv, cipher.getAuthTag(), data].map((b) => b.toString('base64'))].join('.'),
		);
	}
	return seals;
}

function decipher(key: Buffer, iv: Buffer, tag: Buffer, data: Buffer): string | undefined {
	if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
	try {
		const d = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
		d.setAuthTag(tag);
		return Buffer.concat([d.update(data), d.final()]).toString('utf8');
	} catch {
		return undefined;
	}
}

/** What `seal` sealed, opened with any of the secrets; undefined when none opens any seal. */
async function open(seals: unknown, secrets: readonly string[]): Promise<string | undefined> {
	if (!Array.isArray(seals)) return undefined;
	const tries = new Set(secrets.filter((s) => s !== ''));
	for (const sealed of seals.slice(0, MAX_SEALS)) {
		if (typeof sealed !== 'string') continue;
		const [version, salt, iv, tag, data, ...rest] = sealed.split('.');
		if (version !== SEAL || rest.length > 0 || data === undefined) continue;
		if (decode(salt).length !== SALT_BYTES) continue;
		for (const secret of tries) {
			const plain = decipher(
				await derive(secret, decode(salt)),
				decode(iv),
				decode(tag),
				decode(data),
			);
			if (plain !== undefined) return plain;
		}
	}
	return undefined;
}

/**
 * The earlier Secret key as the first version of the node sealed it ('v1', under the Admin Token
 * alone, the rest of the entry in the clear): static data written then is still read.
 */
function openKey(sealed: unknown, token: string): string | undefined {
	if (typeof sealed !== 'string') return undefined;
	const [version, iv, tag, data, ...rest] = sealed.split('.');
	if (version !== 'v1' || rest.length > 0 || data === undefined) return undefined;
	const key = createHmac('sha256', token).update('support-chat: earlier webhook key').digest();
	return decipher(key, decode(iv), decode(tag), decode(data));
}

/** What the node's static data keeps while the workflow is published, to put back when it is not. */
export interface SetUpRecord extends IDataObject {
	/** The Production URL written. */
	url: string;
	/** The earlier URL as a message may show it (`shownUrl`); empty when there was none. */
	shown?: string;
	/** The earlier webhook entry, `{ entry }` as JSON (null when there was none), sealed. */
	sealed?: IDataObject[string];
	/** Records of the first version: the entry in the clear, its key blanked, and the key sealed. */
	earlier?: IDataObject[string];
	sealedKey?: IDataObject[string];
}

/** The record of a replaced webhook entry: nothing of it in the clear but a masked URL. */
export async function sealedRecord(
	url: string,
	entry: unknown,
	secrets: readonly string[],
): Promise<SetUpRecord> {
	const earlier = webhookFields({ [WEBHOOK_SETTING]: entry }).url;
	return {
		url,
		shown: earlier === '' ? '' : shownUrl(earlier),
		sealed: await seal(JSON.stringify({ entry }), secrets),
	};
}

/**
 * The earlier entry exactly as it was (`entry` null: there was none), opened with any of `secrets`
 * (a first-version record: with the Admin Token `token`); undefined when it cannot be opened.
 */
export async function earlierOf(
	record: SetUpRecord,
	secrets: readonly string[],
	token: string,
): Promise<{ entry: IDataObject[string] } | undefined> {
	if (record.sealed !== undefined) {
		const plain = await open(record.sealed, secrets);
		try {
			const opened: unknown = plain === undefined ? undefined : JSON.parse(plain);
			return isDataObject(opened) && Object.hasOwn(opened, 'entry')
				? { entry: opened.entry }
				: undefined;
		} catch {
			return undefined;
		}
	}
	if (record.earlier === null) return { entry: null };
	const key = openKey(record.sealedKey, token);
	return key === undefined || record.earlier === undefined
		? undefined
		: { entry: withKey(record.earlier, key) };
}

/** The earlier URL as a message may show it, for either version of the record. */
export function shownEarlier(record: SetUpRecord): string {
	if (typeof record.shown === 'string') return record.shown;
	const url = webhookFields({ [WEBHOOK_SETTING]: record.earlier }).url;
	return url === '' ? '' : shownUrl(url);
}
