import { attachmentsOf, mimeTypeOf } from '../../../nodes/SupportChat/files/parse';

describe('attachmentsOf', () => {
	it.each([
		[
			'Support Board JSON text',
			{ attachments: '[["a.png","https://x/a.png"],["b.pdf","https://x/b.pdf","600|400"]]' },
			[
				{ name: 'a.png', url: 'https://x/a.png' },
				{ name: 'b.pdf', url: 'https://x/b.pdf' },
			],
		],
		[
			'a list of records under other names',
			{ files: [{ file_name: 'c.txt', link: 'https://x/c' }] },
			[{ name: 'c.txt', url: 'https://x/c' }],
		],
		['no name', { attachments: [['', 'https://x/d']] }, [{ name: '', url: 'https://x/d' }]],
		['none: empty text', { attachments: '' }, []],
		['text that is no JSON (a quote in a name, unescaped)', { attachments: '[["a"b","u"]]' }, []],
		['entries without a URL are left out', { attachments: [['x'], { name: 'y' }, 7, null] }, []],
		['no attachments field', { message: 'hi' }, []],
	])('%s', (_, record, expected) => {
		expect(attachmentsOf(record)).toEqual(expected);
	});
});

describe('mimeTypeOf', () => {
	it.each([
		['image/png', 'a.bin', 'image/png'],
		['Text/Plain; charset=UTF-8', 'a.txt', 'text/plain'],
		['application/octet-stream', 'a.pdf', 'application/pdf'],
		['application/octet-stream', 'a.unknown', 'application/octet-stream'],
		[undefined, 'photo.JPG', 'image/jpeg'],
		[undefined, 'noextension', 'application/octet-stream'],
		['not a mime type', 'a.mp3', 'audio/mpeg'],
		['<script>/x', 'a', 'application/octet-stream'],
		[`image/${'x'.repeat(500)}`, 'a.gif', 'image/gif'],
	])('%j for %s is %s', (contentType, fileName, expected) => {
		expect(mimeTypeOf(contentType, fileName)).toBe(expected);
	});
});
