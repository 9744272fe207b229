import type { IDataObject } from 'n8n-workflow';

import {
	holdsExactly,
	shownUrl,
	turnedOff,
	webhookFields,
	webhookNamesOf,
	withKey,
	withOurFields,
} from '../../../nodes/SupportChat/trigger/productWebhook';
import { SUPPORT_BOARD_ROWS as SUPPORT_BOARD_EVENTS } from '../../../nodes/SupportChat/shared/supportBoardEvents';

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
