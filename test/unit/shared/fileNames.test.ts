import { safeFileName } from '../../../nodes/SupportChat/shared/fileNames';

describe('safeFileName', () => {
	it.each([
		['report.pdf', 'https://x/u/1.pdf', 'report.pdf'],
		['../../etc/passwd', 'https://x/u', 'passwd'],
		['C:\\Users\\me\\photo.jpg', 'https://x/u', 'photo.jpg'],
		['a<b>c:d"e|f?g*h.txt', 'https://x/u', 'a_b_c_d_e_f_g_h.txt'],
		['bell\u0007and\nnewline.txt', 'https://x/u', 'bell_and_newline.txt'],
		['..', 'https://x/u', 'attachment_0'],
		['...hidden', 'https://x/u', 'hidden'],
		['trailing dots. . ', 'https://x/u', 'trailing dots'],
		['', 'https://x/uploads/27-11-26/scan%20one.png?sig=abc', 'scan one.png'],
		['', 'https://x/', 'attachment_0'],
		['', 'not a url', 'attachment_0'],
		// Format characters: bidi overrides, embeddings, isolates and marks, zero widths, BOM, soft hyphen.
		['report\u202Efdp.exe', 'https://x/u', 'report_fdp.exe'],
		['a\u202Ab\u202Bc\u202Cd\u202De.txt', 'https://x/u', 'a_b_c_d_e.txt'],
		['a\u2066b\u2067c\u2068d\u2069e.txt', 'https://x/u', 'a_b_c_d_e.txt'],
		['a\u200Eb\u200Fc\u061Cd.txt', 'https://x/u', 'a_b_c_d.txt'],
		['a\u200Bb\u200Cc\u200Dd\u2060e\u2064f.txt', 'https://x/u', 'a_b_c_d_e_f.txt'],
		['\uFEFFbom\u00ADshy.txt', 'https://x/u', 'bom_shy.txt'],
		['tag\u{E0041}s.txt', 'https://x/u', 'tag_s.txt'],
		// Zero widths and blanks that are no format characters (Default_Ignorable_Code_Point): the
		// combining grapheme joiner, variation selectors, Hangul fillers; two names that look the same.
		['report\u034F.pdf', 'https://x/u', 'report_.pdf'],
		['a\uFE00b\u{E0100}c\u180Bd.txt', 'https://x/u', 'a_b_c_d.txt'],
		['\u3164\u115F\uFFA0.pdf', 'https://x/u', '___.pdf'],
		// Control characters, C0 and C1, and the line and paragraph separators.
		['shell.css\u0000.png', 'https://x/u', 'shell.css_.png'],
		['c1\u0085next\u009Bcsi.txt', 'https://x/u', 'c1_next_csi.txt'],
		['del\u007F.txt', 'https://x/u', 'del_.txt'],
		['line\u2028para\u2029.txt', 'https://x/u', 'line_para_.txt'],
		['lone\uD800half.txt', 'https://x/u', 'lone_half.txt'],
		// Letters of every script, and emoji that are no format characters, stay.
		['отчёт 报告 تقرير 😀.pdf', 'https://x/u', 'отчёт 报告 تقرير 😀.pdf'],
		['', 'https://x/u/report%E2%80%AEfdp.exe', 'report_fdp.exe'],
	])('%j from %s is %j', (name, url, expected) => {
		expect(safeFileName(name, url, 'attachment_0')).toBe(expected);
	});

	it('cuts a long name to 120 characters, its extension kept', () => {
		const name = `${'n'.repeat(5000)}.jpeg`;
		const safe = safeFileName(name, 'https://x/u', 'f');
		expect(safe).toHaveLength(120);
		expect(safe.endsWith('.jpeg')).toBe(true);
	});

	it('a cut never leaves half of a surrogate pair', () => {
		const safe = safeFileName(`${'a'.repeat(119)}😀😀`, 'https://x/u', 'f');
		expect(safe).toBe('a'.repeat(119));
	});

	it('cuts a long name without an extension worth keeping', () => {
		expect(safeFileName(`${'a'.repeat(200)}.${'b'.repeat(30)}`, 'https://x/u', 'f')).toHaveLength(
			120,
		);
	});
});
