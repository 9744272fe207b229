/** Arbitrary page answers and settings (fast-check), for the properties of readPage and of the loop (issue 8). */

import fc from 'fast-check';

import type { Answer } from './scripted';
import { TOKEN } from './scripted';

export const TOKEN_FORMS = [
	TOKEN,
	encodeURIComponent(TOKEN),
	Buffer.from(TOKEN).toString('base64'),
	Buffer.from(TOKEN).toString('base64url'),
];

const declared = fc.oneof(
	fc.integer({ min: -5, max: 50 }),
	fc.constantFrom(0, 1e9, 1e12, Number.MAX_SAFE_INTEGER, 2 ** 60, -1, 0.5, 1e308),
	fc.constantFrom('NaN', 'Infinity', '-1', '1e12', '', 'many'),
);
const pointer = fc.oneof(
	fc.constantFrom(
		null,
		false,
		'',
		TOKEN,
		`/users?cursor=${TOKEN}`,
		`x${Buffer.from(TOKEN).toString('base64')}`,
		'/users?page=2',
		'https://elsewhere.example/x',
	),
	fc.integer(),
	fc.string({ maxLength: 8 }),
);
const record = fc.oneof(
	fc.record({ id: fc.integer({ min: 1, max: 30 }) }),
	fc.record({ name: fc.constantFrom('a', 'b', TOKEN) }),
	fc.constantFrom('constructor', 'x', TOKEN),
);
const keyName = fc.constantFrom(
	'data',
	'items',
	'users',
	'next_cursor',
	'cursor',
	'next',
	'next_page_url',
	'has_more',
	'page',
	'total_pages',
	'last_page',
	'total',
	'per_page',
	'offset',
	'limit',
	'meta',
	'paging',
	'cursors',
	'after',
	TOKEN,
	'constructor',
	'__proto__',
	'toString',
);
const value = fc.oneof(declared, pointer, fc.array(record, { maxLength: 6 }), fc.boolean());
const pageObject = fc.dictionary(
	keyName,
	fc.oneof(value, fc.dictionary(keyName, value, { maxKeys: 4 })),
	{ maxKeys: 8 },
);
const body = fc.oneof(
	pageObject,
	fc.array(record, { maxLength: 6 }),
	fc.constantFrom(undefined, null, '', TOKEN),
);
const link = fc.oneof(
	fc.constant(undefined),
	fc.constantFrom(
		`</u?page=2>; rel="next", </u?page=1000000000>; rel="last"`,
		`</u?c=${TOKEN}>; rel="next"`,
		'<'.repeat(2000),
		`<${'>'.repeat(2000)}; rel=next`,
	),
);
export const answer: fc.Arbitrary<Answer> = fc.record({
	body,
	headers: link.map((l): Record<string, string> => (l === undefined ? {} : { link: l })),
});

export const settings = fc.record({
	maxPages: fc.integer({ min: 1, max: 12 }),
	concurrency: fc.integer({ min: 1, max: 4 }),
	// A page size lets page numbers without a count be read ahead.
	pageSize: fc.constantFrom(0, 0, 2, 3),
	style: fc.constantFrom(
		...(['auto', 'auto', 'cursor', 'nextUrl', 'page', 'offset', 'hasMore'] as const),
	),
	nextPath: fc.constantFrom('', 'next_cursor', 'meta.next', 'constructor'),
	itemsPath: fc.constantFrom('', '', 'data', '__proto__'),
});
