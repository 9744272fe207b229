/**
 * SeenIds notes a record's identity without building one, and remembers the key of the last id it
 * noted: records whose ids change key between pages, or within one, stay apart by key all the same.
 */
import { hasIdentity, SeenIds } from '../../../../nodes/SupportChat/transport/pagination/values';
/**
 * Every declaration of how much there is counts as a promise (issue 20): in the body or in the response
 * headers (`X-Total-Count`, `Content-Range: items 0-24/137`, `X-Total-Pages`…), and an empty page before
 * the declared end breaks it. Beside collector.test.ts, whose promises tests hold the body's declarations to the same rule.
 */

import { DEFAULT_PAGINATION } from '../../../../nodes/SupportChat/transport/pagination/styles';
import { readPage } from '../../../../nodes/SupportChat/transport/pagination/readPage';
import { paginate } from '../../../../nodes/SupportChat/transport/pagination/loop';
import type { Answer } from './scripted';
import { bodies, ctx, failure, list, rec, scripted, settings } from './scripted';

describe('SeenIds.add', () => {
	it('tells a record seen before, a number id and its digits being one', () => {
		const seen = new SeenIds();
		expect(seen.add({ id: 2 })).toBe(true);
		expect(seen.add({ id: '2' })).toBe(false);
		expect(seen.add({ id: 3, name: 'x' })).toBe(true);
		expect(seen.add({ id: 3 })).toBe(false);
	});

	it('keeps ids under different keys apart, however the keys alternate', () => {
		const seen = new SeenIds();
		expect(seen.add({ id: 1 })).toBe(true);
		expect(seen.add({ uuid: 1 })).toBe(true);
		expect(seen.add({ id: 1 })).toBe(false);
		expect(seen.add(1)).toBe(true);
		expect(seen.add({ uuid: 1 })).toBe(false);
		expect(seen.add('1')).toBe(false);
		// A record with a `value` field has no id: it is not the bare value 1.
		expect(seen.add({ value: 1 })).toBeUndefined();
		expect(seen.add({ value: 1 })).toBeUndefined();
	});

	it('never counts a record without an id as seen before, as it has no identity', () => {
		const seen = new SeenIds();
		for (const item of [{ name: 'a' }, null, true, { id: null }, { id: { nested: 1 } }, [1]]) {
			expect(hasIdentity(item)).toBe(false);
			expect(seen.add(item)).toBeUndefined();
			expect(seen.add(item)).toBeUndefined();
		}
	});

	it("finds a record's identity by the first id key it has, a bare value being its own", () => {
		for (const item of [{ _id: 'a' }, { ID: 4 }, { id: 'x', uuid: 'y' }, 'bare', 7]) {
			expect(hasIdentity(item)).toBe(true);
			const seen = new SeenIds();
			expect(seen.add(item)).toBe(true);
			expect(seen.add(item)).toBe(false);
		}
		const byFirstKey = new SeenIds();
		expect(byFirstKey.add({ id: 'x', uuid: 'y' })).toBe(true);
		expect(byFirstKey.add({ id: 'x' })).toBe(false);
		expect(byFirstKey.add({ uuid: 'y' })).toBe(true);
		const bare = new SeenIds();
		expect(bare.add(7)).toBe(true);
		expect(bare.add('7')).toBe(false);
	});
});

describe('SeenIds while the ids come in order', () => {
	const noteAll = (seen: SeenIds, ids: Array<string | number>) => ids.map((id) => seen.add({ id }));

	it.each([
		['rising numbers', [1, 2, 10, 11]],
		['falling numbers', [11, 10, 2, 1]],
		['rising digits, 9 before 10', ['8', '9', '10', '11']],
		['falling digits', ['100', '99', '9']],
		['rising prefixed counters', ['u_9998', 'u_9999', 'u_10000']],
	])('%s are all new, and each is a repeat afterwards', (_name, ids) => {
		const seen = new SeenIds();
		expect(noteAll(seen, ids)).toEqual(ids.map(() => true));
		for (const id of ids) {
			expect(seen.has({ id })).toBe(true);
			expect(seen.has({ id: String(id) })).toBe(true);
		}
		expect(seen.has({ id: 'other' })).toBe(false);
	});

	it.each([
		['the same id twice', [1, 1], [true, false]],
		['an id back in a rising run', [1, 2, 3, 2], [true, true, true, false]],
		['an id back in a falling run', ['c', 'b', 'a', 'c'], [true, true, true, false]],
		['a number, then its digits', [5, 6, '5'], [true, true, false]],
		['digits, then their number', ['5', '6', 6], [true, true, false]],
		[
			'a new id out of order, then a repeat from the run',
			[1, 2, 5, 3, 2, 5, 4],
			[true, true, true, true, false, false, true],
		],
	])('%s: a repeat is found, whatever broke the order', (_name, ids, expected) => {
		expect(noteAll(new SeenIds(), ids)).toEqual(expected);
	});

	it("an id under another key ends the run, and the run's ids are still found", () => {
		const seen = new SeenIds();
		expect(seen.add({ id: 1 })).toBe(true);
		expect(seen.add({ id: 2 })).toBe(true);
		expect(seen.add({ uuid: 1 })).toBe(true);
		expect(seen.add({ id: 3 })).toBe(true);
		expect(seen.add({ id: 2 })).toBe(false);
		expect(seen.add({ uuid: 1 })).toBe(false);
	});
});

/** The headers real services declare counts in (json-server, GitLab, Yii, WordPress…), lower-case as the transport keeps them. */
const TOTAL_HEADERS = [
	'x-total-count',
	'x-total',
	'x-pagination-total-count',
	'total-count',
	'x-wp-total',
];
const PAGE_COUNT_HEADERS = ['x-total-pages', 'x-pagination-page-count', 'x-wp-totalpages'];
const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** Bare arrays (json-server, GitLab, WordPress), each answer with the same headers. */
const arrays = (headers: Record<string, string>, ...pages: number[][]): Answer[] =>
	pages.map((ids) => ({ body: rec(...ids), headers }));

describe('a total declared in a response header is a promise, as one in the body is', () => {
	const totals: Array<[string, string]> = [
		...TOTAL_HEADERS.map((name): [string, string] => [name, '5']),
		['content-range', 'items 0-1/5'],
		['content-range', '0-1/5'],
	];

	it.each(totals)('%s: %s never reached fails Return All', async (name, value) => {
		const { client } = scripted(arrays({ [name]: value }, [1, 2], [3]));
		const text = await failure(paginate(ctx, client, list(), settings(), 0));
		expect(text).toMatch(/The service reports 5 records in \/users but only 3 could be fetched/);
		expect(text).toMatch(/Options → Pagination Style/);
	});

	it.each(PAGE_COUNT_HEADERS)(
		'%s: 3 whose last page brings nothing fails Return All',
		async (name) => {
			const { client } = scripted(arrays({ [name]: '3' }, [1, 2], [3]));
			const text = await failure(paginate(ctx, client, list(), settings(), 0));
			expect(text).toMatch(/declares 3 pages for \/users, but records came only up to page 2/);
			expect(text).toMatch(/Options → Pagination Style/);
		},
	);

	it.each(totals)('%s: %s is read as the total', (name, value) => {
		expect(
			readPage(rec(1, 2), { [name]: value }, { path: '/users', qs: {} }, DEFAULT_PAGINATION).total,
		).toBe(5);
	});

	it.each([
		['a byte range', { 'content-range': 'bytes 0-1/5' }],
		['a range of unknown length', { 'content-range': 'items 0-1/*' }],
		['a unit the node does not know', { 'content-range': 'pages 0-1/5' }],
		['a negative count', { 'x-total-count': '-5' }],
		['a fraction', { 'x-total-count': '5.5' }],
		['two values (a repeated header)', { 'x-total-count': '5, 6' }],
		['a count beyond 2^53', { 'x-total-count': '9'.repeat(17) }],
		['a megabyte of digits', { 'x-total-count': '9'.repeat(1 << 20) }],
		['a megabyte of slashes', { 'content-range': `items ${'/'.repeat(1 << 20)}5` }],
	])('%s counts as not declared', (_name, headers) => {
		const started = Date.now();
		expect(
			readPage(rec(1, 2), headers, { path: '/users', qs: {} }, DEFAULT_PAGINATION).total,
		).toBeUndefined();
		expect(Date.now() - started).toBeLessThan(500);
	});

	it('a body total stands before a header one', () => {
		expect(
			readPage(
				{ data: rec(1), total: 7 },
				{ 'x-total-count': '9' },
				{ path: '/users', qs: {} },
				DEFAULT_PAGINATION,
			).total,
		).toBe(7);
	});

	it('a header total of 10^12 plans nothing and fails at once past Max Pages, on one request', async () => {
		const { client, asked } = scripted(() => ({
			body: { items: rec(1, 2), offset: 0 },
			headers: { 'x-total-count': String(1e12) },
		}));
		const text = await failure(paginate(ctx, client, list(), settings({ concurrency: 4 }), 0));
		expect(text).toMatch(/declares 1000000000000 records.*beyond Max Pages \(10000\)/);
		expect(asked).toHaveLength(1);
	});

	it('a header total of 10^12 beside a bare array is walked one page at a time, within Max Pages', async () => {
		const { client, asked } = scripted((n) => ({
			body: rec(2 * n - 1, 2 * n),
			headers: { 'x-total-count': String(1e12) },
		}));
		const text = await failure(paginate(ctx, client, list(), settings({ maxPages: 5 }), 0));
		expect(text).toMatch(/Max Pages is 5/);
		expect(asked).toHaveLength(5);
	});
});

describe('an empty page before the declared end breaks the promise', () => {
	const middle = (extra: (page: number) => Record<string, unknown>) =>
		bodies(
			{ data: rec(...range(1, 10)), ...extra(1) },
			{ data: [], ...extra(2) },
			{ data: rec(...range(21, 30)), ...extra(3) },
		);

	it.each<[string, Answer[], RegExp]>([
		[
			'a body total and page size',
			middle((page) => ({ page, per_page: 10, total: 30 })),
			/reports 30 records in \/users but only 10/,
		],
		[
			'a body total beside a cursor',
			middle((page) => ({ total: 30, next_cursor: page < 3 ? `c${page}` : null })),
			/reports 30 records/,
		],
		[
			'a page count',
			middle((page) => ({ page, total_pages: 3 })),
			/declares 3 pages for \/users, but records came only up to page 1/,
		],
		[
			'a header total',
			arrays({ 'x-total-count': '30' }, range(1, 10), [], range(21, 30)),
			/reports 30 records in \/users but only 10/,
		],
		[
			'a Content-Range total',
			arrays({ 'content-range': 'items 0-9/30' }, range(1, 10), [], range(21, 30)),
			/reports 30 records/,
		],
		[
			'a header page count',
			arrays({ 'x-total-pages': '3' }, range(1, 10), [], range(21, 30)),
			/declares 3 pages/,
		],
	])(
		'%s: fails at the empty page, naming it, rather than return a shorter list',
		async (_name, answers, promised) => {
			for (const concurrency of [1, 3]) {
				const { client, asked } = scripted(answers);
				const text = await failure(paginate(ctx, client, list(), settings({ concurrency }), 0));
				expect(text).toMatch(promised);
				expect(text).toMatch(/page 2 came back empty/);
				expect(text).toMatch(/Options → Pagination Style/);
				if (concurrency === 1) expect(asked).toHaveLength(2);
			}
		},
	);

	it('is no failure when the list shrank and the empty page says so', async () => {
		const { client } = scripted(
			bodies(
				{ data: rec(1, 2), total: 4, next_cursor: 'b' },
				{ data: [], total: 2, next_cursor: null },
			),
		);
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual(rec(1, 2));
	});

	it('is followed when nothing was declared and it points further (a service that filters after paging)', async () => {
		const { client, asked } = scripted(
			bodies(
				{ data: rec(1, 2), next_cursor: 'b' },
				{ data: [], next_cursor: 'c' },
				{ data: rec(5), next_cursor: null },
			),
		);
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual(rec(1, 2, 5));
		expect(asked).toHaveLength(3);
	});
});

describe('what must keep succeeding', () => {
	it.each<[string, Record<string, string>]>([
		['x-total-count', { 'x-total-count': '5' }],
		['content-range', { 'content-range': 'items 0-1/5' }],
		['x-total-pages', { 'x-total-pages': '3' }],
	])('records on the last page a %s header declares', async (_name, headers) => {
		const { client } = scripted(arrays(headers, [1, 2], [3, 4], [5]));
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual(rec(1, 2, 3, 4, 5));
	});

	it.each<[string, Record<string, string>]>([
		['x-total-count 0', { 'x-total-count': '0' }],
		['content-range */0', { 'content-range': '*/0' }],
		['x-total-pages 1', { 'x-total-pages': '1' }],
	])('an empty one-page list declared by %s', async (_name, headers) => {
		const { client, asked } = scripted([{ body: [], headers }]);
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual([]);
		expect(asked).toHaveLength(1);
	});

	it('a header total below Limit', async () => {
		const { client } = scripted(arrays({ 'x-total-count': '3' }, [1, 2], [3]));
		expect((await paginate(ctx, client, list(10), settings(), 0)).items).toEqual(rec(1, 2, 3));
	});

	it('Limit reached before a header total', async () => {
		const { client, asked } = scripted(arrays({ 'x-total-count': '1000' }, [1, 2], [3, 4]));
		expect((await paginate(ctx, client, list(3), settings(), 0)).items).toEqual(rec(1, 2, 3));
		expect(asked).toHaveLength(2);
	});

	it.each([1, 3])(
		'a record repeated across a page edge (data shifted) is returned once, concurrency %i',
		async (concurrency) => {
			const { client } = scripted(
				bodies(
					{ data: rec(1, 2, 3), page: 1, per_page: 3, total: 5 },
					{ data: rec(3, 4, 5), page: 2, per_page: 3, total: 5 },
				),
			);
			expect((await paginate(ctx, client, list(), settings({ concurrency }), 0)).items).toEqual(
				rec(1, 2, 3, 4, 5),
			);
		},
	);

	it('a record repeated across a page edge under a header total is returned once', async () => {
		// The pages are full: as on any bare array, the node asks once more and gets an empty page.
		const { client } = scripted(arrays({ 'x-total-count': '5' }, [1, 2, 3], [3, 4, 5], []));
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual(rec(1, 2, 3, 4, 5));
	});
});
