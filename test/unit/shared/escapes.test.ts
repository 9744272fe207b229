import { latin1Bytes, maskEscaped, unescaped } from '../../../nodes/SupportChat/shared/escapes';
import { SecretMask } from '../../../nodes/SupportChat/shared/secrets';

/** A secret a person chose, with the characters encoders disagree on. */
const SECRET = 'whs:Secret/Key!(2)*ü';

/** The secret as different encoders and escapers write it. */
const SPELLINGS: Array<[string, string]> = [
	['PHP urlencode (encodes ! ( ) *)', 'whs%3ASecret%2FKey%21%282%29%2A%C3%BC'],
	['lower-case hex', encodeURIComponent(SECRET).replace(/%[\dA-F]{2}/g, (h) => h.toLowerCase())],
	['encoded twice', encodeURIComponent(encodeURIComponent(SECRET))],
	['encoded twice, lower-case', 'whs%253aSecret%252fKey!(2)*%25c3%25bc'],
	["PHP json_encode's \\/", 'whs:Secret\\/Key!(2)*\\u00fc'],
	[
		'JSON \\u escapes throughout',
		[...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
	],
	['HTML numeric references', 'whs&#58;Secret&#x2F;Key&#33;(2)*&#252;'],
	['a mix', 'whs%3aSecret\\/Key&#33;%282%29*%C3%BC'],
];

describe('the escapes undone', () => {
	it('undoes each escape, and a masked span is the whole escape each byte came from', () => {
		expect(unescaped('a%3Ab\\/c&#58;%253a\\u00fc')).toBe('a:b/c::ü');
		expect(maskEscaped('a%3Ab\\/c', [latin1Bytes(':b')], '#')).toBe('a#\\/c');
		expect(maskEscaped('a%3Ab\\/c', [latin1Bytes('b/')], '#')).toBe('a%3A#c');
	});

	it('leaves what is no escape as it is', () => {
		const text = '100% sure \\n &#; &#xZZ; %G1 \\u12 &amp;';
		expect(unescaped(text)).toBe(text);
	});
});

describe('SecretMask masks a secret however it is escaped', () => {
	const mask = new SecretMask([SECRET]);
	it.each(SPELLINGS)('%s', (_how, spelt) => {
		const text = `sent to https://hooks.example.test/in?k=${spelt}&x=1 then`;
		expect(mask.found(text)).toBe(true);
		expect(mask.text(text)).toBe('sent to https://hooks.example.test/in?k=[redacted]&x=1 then');
		expect(mask.value({ url: text })).toEqual({
			url: 'sent to https://hooks.example.test/in?k=[redacted]&x=1 then',
		});
	});

	it('masks overlapping and repeated copies whole', () => {
		expect(maskEscaped('%41%41%41b %41b', [latin1Bytes('AAb'), latin1Bytes('AAAb')], '#')).toBe(
			'# %41b',
		);
	});

	it('leaves a text without the secret as it is', () => {
		const text = 'whs%3ASecret%2FKey%21%282%29 and \\u0041';
		expect(mask.found(text)).toBe(false);
		expect(mask.text(text)).toBe(text);
	});
});
