/**
 * A text as the bytes it stands for once every escape a service may write is undone: percent escapes
 * in either case and nested (`%3a`, `%253A`, PHP's `%21` for `!`), JSON's `\u0041` and `\/` (PHP's
 * json_encode writes every `/` so), and HTML's numeric references (`&#58;`, `&#x3A;`). The text is read
 * as pieces (an escape, or one code point), each giving its UTF-8 bytes; a secret found in the bytes is
 * masked in the text as written, whichever mix of forms spells it. Linear in the text, and its memory
 * one byte per decoded byte: the texts walked reach Max Response Size, so no per-byte record is kept
 * (the spans of a match are found again by a second walk, only when there is one).
 */

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

/**
 * Writes the UTF-8 bytes of one code point at `at` and gives their count; a surrogate, which UTF-8
 * cannot hold, is written as U+FFFD, as Node's encoder writes it.
 */
function writeUtf8(point: number, out: Uint8Array, at: number): number {
	const code = point >= 0xd800 && point < 0xe000 ? 0xfffd : point;
	if (code < 0x80) {
		out[at] = code;
		return 1;
	}
	if (code < 0x800) {
		out[at] = 0xc0 | (code >> 6);
		out[at + 1] = 0x80 | (code & 0x3f);
		return 2;
	}
	if (code < 0x10000) {
		out[at] = 0xe0 | (code >> 12);
		out[at + 1] = 0x80 | ((code >> 6) & 0x3f);
		out[at + 2] = 0x80 | (code & 0x3f);
		return 3;
	}
	out[at] = 0xf0 | (code >> 18);
	out[at + 1] = 0x80 | ((code >> 12) & 0x3f);
	out[at + 2] = 0x80 | ((code >> 6) & 0x3f);
	out[at + 3] = 0x80 | (code & 0x3f);
	return 4;
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

/** A piece's bytes, written by `pieceAt`: at most 4 (one code point). */
const scratch = new Uint8Array(4);

/** The piece at `at` (an escape, or one code point): its length in the text; its bytes in `scratch`. */
function pieceAt(text: string, at: number): { length: number; bytes: number } {
	const escape = escapeAt(text, at);
	if (escape !== undefined) {
		if (escape.byte !== undefined) {
			scratch[0] = escape.byte;
			return { length: escape.length, bytes: 1 };
		}
		return { length: escape.length, bytes: writeUtf8(escape.point ?? 0, scratch, 0) };
	}
	const point = text.codePointAt(at) ?? 0;
	return { length: point > 0xffff ? 2 : 1, bytes: writeUtf8(point, scratch, 0) };
}

/** The text's bytes once its escapes are undone, one char (0-255) per byte. */
function decodedBytes(text: string): string {
	// As many bytes as chars, the common case, grown when a piece needs more (up to 3 per char).
	let out = new Uint8Array(text.length + 4);
	let size = 0;
	for (let at = 0; at < text.length; ) {
		const piece = pieceAt(text, at);
		if (size + piece.bytes > out.length) {
			const grown = new Uint8Array(Math.min(out.length * 2, text.length * 3 + 4));
			grown.set(out.subarray(0, size));
			out = grown;
		}
		out.set(scratch.subarray(0, piece.bytes), size);
		size += piece.bytes;
		at += piece.length;
	}
	return Buffer.from(out.buffer, 0, size).toString('latin1');
}

/**
 * The spans of the text that spell each run of decoded bytes (first and last byte, inclusive): a second
 * walk, taken only when a secret was found. Every byte lies in one piece, so every edge is met.
 */
function textSpans(text: string, runs: ReadonlyArray<[number, number]>): Array<[number, number]> {
	const spans = runs.map((): [number, number] => [0, 0]);
	const edges = runs
		.flatMap(([first, last], run) => [
			{ byte: first, run, side: 0 },
			{ byte: last, run, side: 1 },
		])
		.sort((x, y) => x.byte - y.byte);
	let next = 0;
	let byte = 0;
	for (let at = 0; at < text.length && next < edges.length; ) {
		const piece = pieceAt(text, at);
		for (; next < edges.length && edges[next].byte < byte + piece.bytes; next++) {
			const { run, side } = edges[next];
			spans[run][side] = side === 0 ? at : at + piece.length;
		}
		byte += piece.bytes;
		at += piece.length;
	}
	return spans;
}

/**
 * The text with every span whose undone escapes spell one of `secrets` (each as its UTF-8 bytes, one
 * char per byte: `latin1Bytes`) replaced by `by`.
 */
export function maskEscaped(text: string, secrets: readonly string[], by: string): string {
	const bytes = decodedBytes(text);
	const found: Array<[number, number]> = [];
	for (const secret of secrets) {
		for (let at = bytes.indexOf(secret); at >= 0; at = bytes.indexOf(secret, at + 1))
			found.push([at, at + secret.length - 1]);
	}
	if (found.length === 0) return text;
	const spans = textSpans(text, found).sort((a, b) => a[0] - b[0]);
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
	Buffer.from(decodedBytes(text), 'latin1').toString('utf8');
