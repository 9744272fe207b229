import { openKey, sealKey } from '../../../nodes/SupportChat/trigger/earlierKey';

describe('the earlier Secret key, sealed under the Admin Token', () => {
	test.each(['their-key-0001', '', 'ключ with spaces and ✓'])(
		'%j opens with the same token only',
		(key) => {
			const sealed = sealKey(key, 'admin-token-1');
			if (key !== '') expect(sealed).not.toContain(key);
			expect(sealed).not.toContain('admin-token-1');
			expect(openKey(sealed, 'admin-token-1')).toBe(key);
			expect(openKey(sealed, 'admin-token-2')).toBeUndefined();
		},
	);

	test('two seals of one key differ (a fresh IV each time)', () => {
		expect(sealKey('k', 't')).not.toBe(sealKey('k', 't'));
	});

	test.each([undefined, 42, '', 'v1', 'v2.a.b.c', 'v1.a.b.c.d'])('%j does not open', (sealed) => {
		expect(openKey(sealed, 't')).toBeUndefined();
	});

	test('a tampered seal does not open', () => {
		const [version, iv, tag, data] = sealKey('their-key', 't').split('.');
		const flipped = Buffer.from(data, 'base64');
		flipped[0] ^= 1;
		expect(openKey([version, iv, tag, flipped.toString('base64')].join('.'), 't')).toBeUndefined();
	});
});
