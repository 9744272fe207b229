import type { IDataObject } from 'n8n-workflow';

import {
	holdsExactly,
	shownUrl,
	turnedOff,
	webhookFields,
	webhookNamesOf,
	withKey,
	withOurFields,
	earlierOf,
	sealedRecord,
	shownEarlier,
} from '../../../nodes/SupportChat/trigger/productWebhook';
import { SUPPORT_BOARD_ROWS as SUPPORT_BOARD_EVENTS } from '../../../nodes/SupportChat/shared/supportBoardEvents';
import { createCipheriv, createHmac, randomBytes } from 'crypto';

/** The entry as the test bed's get-settings answers it (Support Board 3.8.7), key made up. */
const entry = (fields: Record<string, unknown> = {}) => [
	{
		'webhooks-active': [true, 'checkbox'],
		'webhooks-url': ['http://127.0.0.1:8781/n8n/webhook/support-board', 'text'],
		'webhooks-key': ['their-key-0001', 'password'],
		'webhooks-allowed': ['message-sent,registration', 'text'],
		...fields,
	},
	'multi-input',
];

describe('webhookFields reads the entry as sb_webhooks does', () => {
	test.each([
		[
			{ webhooks: entry() },
			{ active: true, key: 'their-key-0001', allowed: 'message-sent,registration' },
		],
		[{}, { active: false, url: '', key: '', allowed: '' }],
		[{ webhooks: 'garbage' }, { active: false, url: '' }],
		[{ webhooks: entry({ 'webhooks-active': [false, 'checkbox'] }) }, { active: false }],
		[{ webhooks: entry({ 'webhooks-active': ['false', 'checkbox'] }) }, { active: false }],
		[{ webhooks: entry({ 'webhooks-active': ['1', 'checkbox'] }) }, { active: true }],
		[
			{ webhooks: entry({ 'webhooks-url': ['  https://a.test/h  ', 'text'] }) },
			{ url: 'https://a.test/h' },
		],
	])('%j', (settings, expected) => {
		expect(webhookFields(settings as never)).toMatchObject(expected);
	});
});

describe('writing and putting back', () => {
	test('our four fields go in; a field the node does not own stays', () => {
		const written = withOurFields(entry({ 'webhooks-extra': ['x', 'text'] }), {
			url: 'https://n8n.test/webhook/abc/webhook',
			key: 'our-key',
			allowed: 'message-sent',
		});
		expect(written).toEqual([
			{
				'webhooks-active': [true, 'checkbox'],
				'webhooks-url': ['https://n8n.test/webhook/abc/webhook', 'text'],
				'webhooks-key': ['our-key', 'password'],
				'webhooks-allowed': ['message-sent', 'text'],
				'webhooks-extra': ['x', 'text'],
			},
			'multi-input',
		]);
		expect(withOurFields(undefined, { url: 'u', key: 'k', allowed: 'a' })[1]).toBe('multi-input');
	});

	test('withKey blanks and puts back the key only, in place, on a copy', () => {
		const original = entry();
		const blank = withKey(original, '');
		expect(JSON.stringify(blank)).not.toContain('their-key-0001');
		expect(JSON.stringify(withKey(blank, 'their-key-0001'))).toBe(JSON.stringify(original));
		expect(original[0]).toMatchObject({ 'webhooks-key': ['their-key-0001', 'password'] });
		expect(withKey('garbage', 'k')).toBe('garbage');
	});
});

describe('holdsExactly', () => {
	const wanted = { url: 'https://n8n.test/w', key: 'k', allowed: 'message-sent,login' };
	const held = { active: true, ...wanted };
	test.each([
		[held, true],
		[{ ...held, allowed: 'login, message-sent' }, true],
		[{ ...held, active: false }, false],
		[{ ...held, url: 'https://other.test/w' }, false],
		[{ ...held, key: 'other' }, false],
		[{ ...held, allowed: 'message-sent' }, false],
		[{ ...held, allowed: 'message-sent,login,registration' }, false],
		[{ ...held, allowed: '' }, false],
	])('%j → %s', (fields, expected) => {
		expect(holdsExactly(fields, wanted)).toBe(expected);
	});
});

describe("webhookNamesOf: the trigger's Events as the product's webhook names", () => {
	test('the six kinds, and * as all of them but Tag Applied, which the product never sends', () => {
		expect(webhookNamesOf(['*']).names.sort()).toEqual(
			[
				'conversation-status-updated',
				'message-sent',
				'new-conversation-created',
				'new-email-address',
				'registration',
			].sort(),
		);
		expect(webhookNamesOf(['*']).without).toEqual([]);
		expect(webhookNamesOf(['tagApplied'])).toEqual({ names: [], without: ['tagApplied'] });
		expect(webhookNamesOf(['constructor', 'messageCreated'])).toEqual({
			names: ['message-sent'],
			without: ['constructor'],
		});
	});

	test("each of Support Board's own events by its function name", () => {
		for (const row of SUPPORT_BOARD_EVENTS)
			expect(webhookNamesOf([row.value])).toEqual({ names: [...row.webhooks], without: [] });
	});

	test('a name asked twice is written once', () => {
		expect(webhookNamesOf(['leadCaptured', 'newEmailAddress']).names).toEqual([
			'new-email-address',
		]);
	});
});

describe('shownUrl: another URL as a message shows it', () => {
	test.each([
		['https://hooks.example.test/h?token=abc123&x=1', 'https://hooks.example.test/…'],
		['https://user:pass@hooks.example.test/h#frag', 'https://hooks.example.test/…'],
		['https://user:pass@hooks.example.test', 'https://hooks.example.test/…'],
		['https://hooks.slack.com/services/T000/B000/XXXXsecret', 'https://hooks.slack.com/…'],
		['https://hooks.zapier.com/hooks/catch/123/abcsecret/', 'https://hooks.zapier.com/…'],
		['https://hook.eu1.make.com/abcdefsecret', 'https://hook.eu1.make.com/…'],
		// curl's form without a scheme: read as http, as the product's curl reads it
		['alice:s3cret-pw@hooks.example.com/in', 'http://hooks.example.com/…'],
		['http://[::1]:8080/x?y', 'http://[::1]:8080/…'],
		['https://hooks.example.test', 'https://hooks.example.test'],
		['https://hooks.example.test/', 'https://hooks.example.test'],
		['not a url?token=abc', '[redacted]'],
		['http://exa mple.test/s3cret', '[redacted]'],
		['file:///etc/s3cret', '[redacted]'],
	])('%s', (url, shown) => {
		expect(shownUrl(url)).toBe(shown);
	});

	test('cut to 120 characters', () => {
		expect(shownUrl(`https://${'a'.repeat(200)}.test/x`)).toHaveLength(121);
	});
});

describe('turnedOff: the webhook entry sending nothing', () => {
	test('no URL, no key, Active unticked; what the node does not own kept', () => {
		const ours = [
			{
				'webhooks-active': [true, 'checkbox'],
				'webhooks-url': ['https://n8n.test/webhook/x', 'text'],
				'webhooks-key': ['our-secret', 'password'],
				'webhooks-allowed': ['message-sent', 'text'],
				'webhooks-other': ['kept', 'text'],
			},
			'multi-input',
		];
		const off = turnedOff(ours);
		expect(off).toEqual([
			{
				'webhooks-active': [false, 'checkbox'],
				'webhooks-url': ['', 'text'],
				'webhooks-key': ['', 'password'],
				'webhooks-allowed': ['message-sent', 'text'],
				'webhooks-other': ['kept', 'text'],
			},
			'multi-input',
		]);
		expect(webhookFields({ webhooks: off as IDataObject[] })).toMatchObject({
			active: false,
			url: '',
			key: '',
		});
		expect(turnedOff(undefined)[0]).toMatchObject({ 'webhooks-url': ['', 'text'] });
	});
});

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

const earlierEntry = [
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
		['an entry', earlierEntry],
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
		const first = await sealedRecord(URL_WRITTEN, earlierEntry, ['t']);
		expect((await sealedRecord(URL_WRITTEN, earlierEntry, ['t'])).sealed).not.toEqual(first.sealed);
	});

	test.each([undefined, 42, 'v2.a.b.c.d', [], [42], ['v2'], ['v2.a.b.c.d.e'], ['v1.a.b.c']])(
		'seals %j do not open',
		async (sealed) => {
			expect(await earlierOf({ url: URL_WRITTEN, sealed }, ['t'], 't')).toBeUndefined();
		},
	);

	test('a tampered seal does not open', async () => {
		const record = await sealedRecord(URL_WRITTEN, earlierEntry, ['t']);
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
			const record = await sealedRecord(URL_WRITTEN, earlierEntry, ['t']);
			const sealed = resealed(record.sealed, (parts) => {
				parts[3] = Buffer.from(parts[3], 'base64').subarray(0, length).toString('base64');
			});
			expect(await earlierOf({ ...record, sealed }, ['t'], 't')).toBeUndefined();
		},
	);
});

describe('the record of what was replaced', () => {
	test('holds nothing of the earlier entry in the clear but its scheme and host', async () => {
		const record = await sealedRecord('https://n8n.test/webhook/x', earlierEntry, [
			'tok',
			'secret',
		]);
		const kept = JSON.stringify(record);
		for (const part of ['alice', 'pw-9', 'XYZsecret', 'tok-123', 'their-key-0001', '/in/'])
			expect(kept).not.toContain(part);
		expect(shownEarlier(record)).toBe('https://hooks.example.test/…');
		expect(await earlierOf(record, ['other', 'secret'], 'other')).toEqual({ entry: earlierEntry });
		expect(await earlierOf(record, ['other', 'other-2'], 'other')).toBeUndefined();
	});

	test('no earlier entry: null, sealed too', async () => {
		const record = await sealedRecord('https://n8n.test/webhook/x', null, ['tok']);
		expect(shownEarlier(record)).toBe('');
		expect(await earlierOf(record, ['tok'], 'tok')).toEqual({ entry: null });
	});

	test('a first-version record is still read: with its token exactly, without it not at all', async () => {
		const blanked = structuredClone(earlierEntry) as [Record<string, unknown[]>, string];
		blanked[0]['webhooks-key'] = ['', 'password'];
		const v1 = {
			url: 'https://n8n.test/webhook/x',
			earlier: blanked,
			sealedKey: sealV1('their-key-0001', 'tok'),
		};
		expect(await earlierOf(v1, ['tok'], 'tok')).toEqual({ entry: earlierEntry });
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
