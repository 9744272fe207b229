import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'crypto';

/**
 * The Secret key that Support Board held before Set Up Webhook replaced it, kept in the node's static
 * data until it is put back. Static data is stored in n8n's database unencrypted, unlike credentials;
 * so the key is kept sealed (AES-256-GCM) under a key derived from the credentials' Admin Token, which
 * n8n keeps encrypted. Someone who reads the database without n8n's encryption key learns nothing of
 * it; when the Admin Token has changed in between, it cannot be opened, and the key is not put back.
 */

const VERSION = 'v1';

function keyOf(token: string): Buffer {
	return createHmac('sha256', token).update('support-chat: earlier webhook key').digest();
}

export function sealKey(secret: string, token: string): string {
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', keyOf(token), iv);
	const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	return [VERSION, iv, cipher.getAuthTag(), sealed]
		.map((part) => (typeof part === 'string' ? part : part.toString('base64')))
		.join('.');
}

/** The key sealed by `sealKey` with this token; undefined when it cannot be opened with it. */
export function openKey(sealed: unknown, token: string): string | undefined {
	if (typeof sealed !== 'string') return undefined;
	const [version, iv, tag, data, ...rest] = sealed.split('.');
	if (version !== VERSION || rest.length > 0 || data === undefined) return undefined;
	try {
		const decipher = createDecipheriv('aes-256-gcm', keyOf(token), Buffer.from(iv, 'base64'));
		decipher.setAuthTag(Buffer.from(tag, 'base64'));
		return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString(
			'utf8',
		);
	} catch {
		return undefined;
	}
}
