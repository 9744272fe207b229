import fc from 'fast-check';

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

/**
 * An oracle kept simple on purpose: a record per decoded byte of the span it came from, the way the view
 * was once built (three arrays as long as the text's bytes, too much memory for a 32 MB answer).
 */
function maskedByRecord(text: string, secrets: string[], by: string): string {
	const bytes: number[] = [];
	const from: number[] = [];
	const to: number[] = [];
	for (let at = 0; at < text.length; ) {
		const single = (length: number) => text.slice(at, at + length);
		let piece: Buffer;
		let length: number;
		const percent = /^%[\dA-Fa-f]{2}(?:(?<=%25)[\dA-Fa-f]{2})*/.exec(text.slice(at));
		const nested = /^%25(?:25)*[\dA-Fa-f]{2}/i.exec(text.slice(at));
		const json = /^\\u([\dA-Fa-f]{4})(?:\\u([\dA-Fa-f]{4}))?/.exec(text.slice(at));
		const html = /^&#(?:[xX]([\dA-Fa-f]{1,9})|(\d{1,10}));/.exec(text.slice(at));
		if (nested) {
			length = nested[0].length;
			piece = Buffer.from([parseInt(nested[0].slice(-2), 16)]);
		} else if (percent) {
			length = 3;
			piece = Buffer.from([parseInt(text.slice(at + 1, at + 3), 16)]);
		} else if (text.startsWith('\\/', at)) {
			length = 2;
			piece = Buffer.from('/');
		} else if (json) {
			const unit = parseInt(json[1], 16);
			const low = json[2] === undefined ? -1 : parseInt(json[2], 16);
			const pair = unit >= 0xd800 && unit < 0xdc00 && low >= 0xdc00 && low < 0xe000;
			length = pair ? 12 : 6;
			piece = Buffer.from(
				pair
					? String.fromCharCode(unit, low)
					: unit >= 0xd800 && unit < 0xe000
						? '\ufffd'
						: single(0) + String.fromCharCode(unit),
				'utf8',
			);
		} else if (
			html &&
			Number.parseInt(html[1] ?? html[2], html[1] ? 16 : 10) <= 0x10ffff &&
			html[0].length <= 12
		) {
			length = html[0].length;
			piece = Buffer.from(
				String.fromCodePoint(Number.parseInt(html[1] ?? html[2], html[1] ? 16 : 10)),
				'utf8',
			);
		} else {
			const point = text.codePointAt(at) ?? 0;
			length = point > 0xffff ? 2 : 1;
			piece = Buffer.from(single(length), 'utf8');
		}
		for (const byte of piece) {
			bytes.push(byte);
			from.push(at);
			to.push(at + length);
		}
		at += length;
	}
	const view = Buffer.from(bytes).toString('latin1');
	const spans: Array<[number, number]> = [];
	for (const secret of secrets)
		for (let at = view.indexOf(secret); at >= 0; at = view.indexOf(secret, at + 1))
			spans.push([from[at], to[at + secret.length - 1]]);
	spans.sort((a, b) => a[0] - b[0]);
	let result = '';
	let done = 0;
	for (const [start, end] of spans) {
		if (end <= done) continue;
		if (start >= done) result += text.slice(done, start) + by;
		done = end;
	}
	return spans.length === 0 ? text : result + text.slice(done);
}

describe('the masked spans, found again by a second walk', () => {
	const pieces = [
		'a',
		'b',
		':',
		'/',
		'ü',
		'😀',
		'\ud800',
		'%3a',
		'%3A',
		'%253a',
		'%2525%33',
		'%C3%BC',
		'%F0%9F%98%80',
		'\\/',
		'\\u0061',
		'\\u00fc',
		'\\ud83d\\ude00',
		'\\ud800',
		'&#58;',
		'&#x3A;',
		'&#128512;',
		'&#55296;',
		'%',
		'\\',
		'&#',
	];
	const text = fc
		.array(fc.constantFrom(...pieces), { maxLength: 40 })
		.map((parts) => parts.join(''));
	const secrets = ['a:b', 'b/a', 'ü😀a', ':/', 'aa', '\ufffda'].map(latin1Bytes);

	it('mask the same spans as a record kept for every byte', () => {
		fc.assert(
			fc.property(text, (written) => {
				expect(maskEscaped(written, secrets, '#')).toBe(maskedByRecord(written, secrets, '#'));
			}),
			{ numRuns: 2000 },
		);
	});
});
