/**
 * THE file name rule, in the lowest layer: the files feature (../files) names downloads by it, and
 * Support Board's upload (../apis/supportBoard/upload.ts) the files it sends.
 */

/** Longer file names are cut, their extension kept: file systems take 255 bytes. */
const MAX_FILE_NAME_LENGTH = 120;
const MAX_EXTENSION_LENGTH = 10;

/**
 * What no file name may hold, either way: control characters (C0, DEL, C1); Unicode format characters
 * (bidi embeddings, overrides and isolates, which show `report\u202Efdp.exe` as `reportexe.pdf`; zero
 * widths, the soft hyphen, the byte order mark); every other character Unicode says not to show
 * (Default_Ignorable_Code_Point: the combining grapheme joiner, variation selectors, Hangul fillers),
 * so that no two names that look alike differ; lone surrogates; line and paragraph separators; path
 * separators; and what Windows refuses, the quote and the backslash among them, which would also end
 * or escape a multipart header's `filename="…"`. One character class: linear.
 */
const UNSAFE_IN_NAME = /[\p{Cc}\p{Cf}\p{DI}\p{Cs}\p{Zl}\p{Zp}<>:"/\\|?*]/gu;

/**
 * THE file name rule, for a download's binary property `fileName` and for the name an upload sends in
 * its multipart header (and shows in the message): the last part of what is named (else of the URL's
 * path), each character of UNSAFE_IN_NAME as `_`, not `.` or `..`, cut to MAX_FILE_NAME_LENGTH with
 * its extension kept; `fallback` when nothing is left. A character is replaced, not the file refused:
 * a name copied from a web page carries a zero width or a soft hyphen unseen, and macOS allows `:`.
 */
export function safeFileName(name: string, url: string, fallback: string): string {
	const fromUrl = () => {
		try {
			const path = new URL(url).pathname;
			return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
		} catch {
			return '';
		}
	};
	// The end of a long name is kept: the last path part and the extension are there.
	const typed = (name.trim() || fromUrl()).slice(-1000);
	const last = typed.slice(Math.max(typed.lastIndexOf('/'), typed.lastIndexOf('\\')) + 1);
	let clean = last.replace(UNSAFE_IN_NAME, '_').trim();
	while (clean.startsWith('.')) clean = clean.slice(1);
	while (clean.endsWith('.') || clean.endsWith(' ')) clean = clean.slice(0, -1);
	if (clean === '') return fallback;
	if (clean.length <= MAX_FILE_NAME_LENGTH) return clean;
	const dot = clean.lastIndexOf('.');
	const extension =
		dot > 0 && clean.length - dot <= MAX_EXTENSION_LENGTH + 1 ? clean.slice(dot) : '';
	// A cut between the two halves of a surrogate pair would leave half a character.
	const head = clean
		.slice(0, MAX_FILE_NAME_LENGTH - extension.length)
		.replace(/[\uD800-\uDBFF]$/, '');
	return head + extension;
}
