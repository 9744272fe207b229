import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { isDataObject } from '../shared/json';
import { WEBHOOK_SETTING, shownUrl, webhookFields, withKey } from './productWebhook';

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
