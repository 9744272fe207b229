/**
 * A text as the bytes it stands for once every escape a service may write is undone: percent escapes
 * in either case and nested (`%3a`, `%253A`, PHP's `%21` for `!`), JSON's `\u0041` and `\/` (PHP's
 * json_encode writes every `/` so), and HTML's numeric references (`&#58;`, `&#x3A;`). Each byte keeps
 * the span of the text it came from, so that a secret found in the bytes is masked in the text as
 * written, whichever mix of forms spells it. One pass, linear in the text.
 */

/** The bytes (one char code each, 0-255) and, for each, the text's span it came from. */
interface DecodedView {
	bytes: string;
	from: number[];
	to: number[];
}

/** Whether a text holds an escape this view undoes: only then can it differ from the text. */
export function hasEscapes(text: string): boolean {
	return text.includes('%') || text.includes('\\') || text.includes('&#');
}

const hexDigit = (code: number): number =>
	code >= 48 && code <= 57
		? code - 48
		: code >= 65 && code <= 70
			? code - 55
			: code >= 97 && code <= 102
				? code - 87
				: -1;

/** The number written by `count` hex digits at `at`, or -1. */
function hexAt(text: string, at: number, count: number): number {
	let value = 0;
	for (let k = 0; k < count; k++) {
		const digit = hexDigit(text.charCodeAt(at + k));
		if (digit < 0) return -1;
		value = value * 16 + digit;
	}
	return value;
}

/** The UTF-8 bytes of one code point. */
function utf8(point: number): number[] {
	return [...Buffer.from(String.fromCodePoint(point), 'utf8')];
}

/** A code point written by a numeric reference at `at` (`&#58;`, `&#x3A;`) and its length, or none. */
function htmlReference(text: string, at: number): [number, number] | undefined {
	const isHex = text[at + 2] === 'x' || text[at + 2] === 'X';
	let end = at + (isHex ? 3 : 2);
	let point = 0;
	for (; end - at < 12 && text[end] !== ';'; end++) {
		const digit = isHex ? hexDigit(text.charCodeAt(end)) : text.charCodeAt(end) - 48;
		if (digit < 0 || digit > (isHex ? 15 : 9)) return undefined;
		point = point * (isHex ? 16 : 10) + digit;
	}
	const digits = end - at - (isHex ? 3 : 2);
	return text[end] === ';' && digits > 0 && point <= 0x10ffff ? [point, end + 1 - at] : undefined;
}

/** The escape at `at` (a code point or one byte) and its length; undefined when there is none. */
function escapeAt(
	text: string,
	at: number,
): { point?: number; byte?: number; length: number } | undefined {
	const char = text[at];
	if (char === '%') {
		let byte = hexAt(text, at + 1, 2);
		if (byte < 0) return undefined;
		let end = at + 3;
		// `%25` is an encoded `%`: `%253A` is `:` encoded twice.
		for (let next = hexAt(text, end, 2); byte === 0x25 && next >= 0; next = hexAt(text, end, 2)) {
			byte = next;
			end += 2;
		}
		return { byte, length: end - at };
	}
	if (char === '\\') {
		if (text[at + 1] === '/') return { point: 0x2f, length: 2 };
		const unit = text[at + 1] === 'u' ? hexAt(text, at + 2, 4) : -1;
		if (unit < 0) return undefined;
		const low = text.startsWith('\\u', at + 6) ? hexAt(text, at + 8, 4) : -1;
		if (unit >= 0xd800 && unit < 0xdc00 && low >= 0xdc00 && low < 0xe000)
			return { point: 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00), length: 12 };
		return { point: unit >= 0xd800 && unit < 0xe000 ? 0xfffd : unit, length: 6 };
	}
	if (char === '&' && text[at + 1] === '#') {
		const reference = htmlReference(text, at);
		return reference === undefined ? undefined : { point: reference[0], length: reference[1] };
	}
	return undefined;
}

function decodedView(text: string): DecodedView {
	const codes: number[] = [];
	const from: number[] = [];
	const to: number[] = [];
	const push = (bytes: readonly number[], start: number, end: number) => {
		for (const byte of bytes) {
			codes.push(byte);
			from.push(start);
			to.push(end);
		}
	};
	for (let at = 0; at < text.length; ) {
		const escape = escapeAt(text, at);
		if (escape !== undefined) {
			push(
				escape.byte === undefined ? utf8(escape.point ?? 0) : [escape.byte],
				at,
				at + escape.length,
			);
			at += escape.length;
			continue;
		}
		const point = text.codePointAt(at) ?? 0;
		const width = point > 0xffff ? 2 : 1;
		push(point < 0x80 ? [point] : utf8(point), at, at + width);
		at += width;
	}
	return { bytes: Buffer.from(codes).toString('latin1'), from, to };
}

/**
 * The text with every span whose undone escapes spell one of `secrets` (each as its UTF-8 bytes, one
 * char per byte: `latin1Bytes`) replaced by `by`.
 */
export function maskEscaped(text: string, secrets: readonly string[], by: string): string {
	const view = decodedView(text);
	const spans: Array<[number, number]> = [];
	for (const secret of secrets) {
		for (let at = view.bytes.indexOf(secret); at >= 0; at = view.bytes.indexOf(secret, at + 1))
			spans.push([view.from[at], view.to[at + secret.length - 1]]);
	}
	if (spans.length === 0) return text;
	spans.sort((a, b) => a[0] - b[0]);
	let result = '';
	let done = 0;
	for (const [start, end] of spans) {
		if (end <= done) continue;
		// An overlapping span widens the one masked already.
		if (start >= done) result += text.slice(done, start) + by;
		done = end;
	}
	return result + text.slice(done);
}

/** A secret as the view spells it: its UTF-8 bytes, one char each. */
export const latin1Bytes = (secret: string): string =>
	Buffer.from(secret, 'utf8').toString('latin1');

/** The text with its escapes undone, as text (bytes that are no UTF-8 read as U+FFFD). */
export const unescaped = (text: string): string =>
	Buffer.from(decodedView(text).bytes, 'latin1').toString('utf8');
