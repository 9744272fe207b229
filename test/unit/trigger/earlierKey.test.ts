import { createCipheriv, createHmac, randomBytes } from 'crypto';

import {
	earlierOf,
	sealedRecord,
	shownEarlier,
} from '../../../nodes/SupportChat/trigger/earlierKey';

/** A key sealed as the first version of the node sealed it (v1: under the Admin Token alone). */
function sealV1(secret: string, token: string, tagLength = 16): string {
	const key = createHmac('sha256', token).update('support-chat: earlier webhook key').digest();
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: tagLength });
	const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	return ['v1', iv, cipher.getAuthTag(), sealed]
		.map((part) => (typeof part === 'string' ? part : part.toString('base64')))
		.join('.');
}

const entry = [
	{
		'webhooks-active': [true, 'checkbox'],
		'webhooks-url': [
			'https://alice:pw-9@hooks.example.test/in/T0/B1/XYZsecret?token=tok-123',
			'text',
		],
		'webhooks-key': ['their-key-0001', 'password'],
		'webhooks-allowed': ['message-sent', 'text'],
	},
	'multi-input',
];

const URL_WRITTEN = 'https://n8n.test/webhook/x';

/** The record's seals, each changed by `change` (its parts: version, salt, IV, tag, data). */
function resealed(seals: unknown, change: (parts: string[]) => void): string[] {
	return (seals as string[]).map((sealed) => {
		const parts = sealed.split('.');
		change(parts);
		return parts.join('.');
	});
}

describe('the earlier webhook entry, sealed under the Admin Token and the Webhook Secret', () => {
	test.each([
		['an entry', entry],
		['no entry', null],
		[
			'an entry with an empty key and other scripts',
			[{ 'webhooks-key': ['', 'password'], x: ['ключ ✓', 'text'] }, 'multi-input'],
		],
	])('%s opens with either secret, and with no other', async (_, earlier) => {
		const record = await sealedRecord(URL_WRITTEN, earlier, ['admin-token-1', 'webhook-secret-1']);
		expect(record.sealed).toHaveLength(2);
		const kept = JSON.stringify(record);
		expect(kept).not.toContain('admin-token-1');
		expect(kept).not.toContain('webhook-secret-1');
		expect(await earlierOf(record, ['admin-token-1'], 'x')).toEqual({ entry: earlier });
		expect(await earlierOf(record, ['admin-token-2', 'webhook-secret-1'], 'x')).toEqual({
			entry: earlier,
		});
		expect(await earlierOf(record, ['admin-token-2', 'webhook-secret-2'], 'x')).toBeUndefined();
	});

	test('two seals of one entry differ (a fresh salt and IV each time)', async () => {
		const first = await sealedRecord(URL_WRITTEN, entry, ['t']);
		expect((await sealedRecord(URL_WRITTEN, entry, ['t'])).sealed).not.toEqual(first.sealed);
	});

	test.each([undefined, 42, 'v2.a.b.c.d', [], [42], ['v2'], ['v2.a.b.c.d.e'], ['v1.a.b.c']])(
		'seals %j do not open',
		async (sealed) => {
			expect(await earlierOf({ url: URL_WRITTEN, sealed }, ['t'], 't')).toBeUndefined();
		},
	);

	test('a tampered seal does not open', async () => {
		const record = await sealedRecord(URL_WRITTEN, entry, ['t']);
		const sealed = resealed(record.sealed, (parts) => {
			const flipped = Buffer.from(parts[4], 'base64');
			flipped[0] ^= 1;
			parts[4] = flipped.toString('base64');
		});
		expect(await earlierOf({ ...record, sealed }, ['t'], 't')).toBeUndefined();
	});

	test.each([4, 8, 12, 15])(
		'a seal whose GCM tag is cut to %d bytes is refused',
		async (length) => {
			const record = await sealedRecord(URL_WRITTEN, entry, ['t']);
			const sealed = resealed(record.sealed, (parts) => {
				parts[3] = Buffer.from(parts[3], 'base64').subarray(0, length).toString('base64');
			});
			expect(await earlierOf({ ...record, sealed }, ['t'], 't')).toBeUndefined();
		},
	);
});

describe('the record of what was replaced', () => {
	test('holds nothing of the earlier entry in the clear but its scheme and host', async () => {
		const record = await sealedRecord('https://n8n.test/webhook/x', entry, ['tok', 'secret']);
		const kept = JSON.stringify(record);
		for (const part of ['alice', 'pw-9', 'XYZsecret', 'tok-123', 'their-key-0001', '/in/'])
			expect(kept).not.toContain(part);
		expect(shownEarlier(record)).toBe('https://hooks.example.test/…');
		expect(await earlierOf(record, ['other', 'secret'], 'other')).toEqual({ entry });
		expect(await earlierOf(record, ['other', 'other-2'], 'other')).toBeUndefined();
	});

	test('no earlier entry: null, sealed too', async () => {
		const record = await sealedRecord('https://n8n.test/webhook/x', null, ['tok']);
		expect(shownEarlier(record)).toBe('');
		expect(await earlierOf(record, ['tok'], 'tok')).toEqual({ entry: null });
	});

	test('a first-version record is still read: with its token exactly, without it not at all', async () => {
		const blanked = structuredClone(entry) as [Record<string, unknown[]>, string];
		blanked[0]['webhooks-key'] = ['', 'password'];
		const v1 = {
			url: 'https://n8n.test/webhook/x',
			earlier: blanked,
			sealedKey: sealV1('their-key-0001', 'tok'),
		};
		expect(await earlierOf(v1, ['tok'], 'tok')).toEqual({ entry });
		expect(await earlierOf(v1, ['secret'], 'rotated')).toBeUndefined();
		expect(shownEarlier(v1)).toBe('https://hooks.example.test/…');
		for (const length of [4, 8, 12]) {
			const short = { ...v1, sealedKey: sealV1('their-key-0001', 'tok', length) };
			expect(await earlierOf(short, ['tok'], 'tok')).toBeUndefined();
		}
		const none = { url: v1.url, earlier: null, sealedKey: sealV1('', 'tok') };
		expect(await earlierOf(none, [], 'rotated')).toEqual({ entry: null });
	});
});
