/**
 * The collector behind paginate against services that lie (issue 8): totals never reached, id-less
 * pages alike at their edges, a body missing after a promise, huge declared counts, an echoed token.
 */

import { paginate } from '../../../../nodes/SupportChat/transport/pagination/loop';
import type { Answer } from './scripted';
import { bodies, ctx, failure, list, rec, scripted, settings, TOKEN } from './scripted';
/**
 * What a list has served: records by id, pages of records without ids by their whole content, and
 * whether a page read past the end of a list adds anything (without noting it).
 */
import { Seen } from '../../../../nodes/SupportChat/transport/pagination/collector';

describe('a declared total', () => {
	it.each([
		[
			'a cursor list ending short of it',
			bodies(
				{ data: rec(1, 2), total: 5, next_cursor: 'b' },
				{ data: rec(3), total: 5, next_cursor: null },
			),
		],
		[
			'has_more false short of it',
			bodies(
				{ data: rec(1, 2), total: 4, has_more: true },
				{ data: rec(3), total: 4, has_more: false },
			),
		],
		[
			'an offset list whose next offset comes back empty',
			bodies({ items: rec(1, 2), offset: 0, total: 3 }, { items: [], offset: 2, total: 3 }),
		],
	])('never reached fails with Return All: %s', async (_name, answers) => {
		const { client } = scripted(answers);
		const text = await failure(paginate(ctx, client, list(), settings(), 0));
		expect(text).toMatch(
			/The service reports \d+ records in \/users but only \d+ could be fetched/,
		);
		expect(text).toMatch(/Options → Pagination Style/);
	});

	it('is held as the last page declared it (the list shrank while read)', async () => {
		const { client } = scripted(
			bodies(
				{ data: rec(1, 2), total: 4, next_cursor: 'b' },
				{ data: rec(3), total: 3, next_cursor: null },
			),
		);
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual(rec(1, 2, 3));
	});

	it('does not matter below Limit', async () => {
		const { client } = scripted(
			bodies(
				{ data: rec(1, 2), total: 50, next_cursor: 'b' },
				{ data: rec(3), total: 50, next_cursor: null },
			),
		);
		expect((await paginate(ctx, client, list(3), settings(), 0)).items).toEqual(rec(1, 2, 3));
	});
});

describe('the same page served again', () => {
	const row = (n: string) => ({ name: n });
	it('is told by its whole content, not its length and edges, when records have no ids', async () => {
		const { client, asked } = scripted(
			bodies(
				{ data: [row('a'), row('x'), row('z')], next_cursor: 'b' },
				{ data: [row('a'), row('y'), row('z')], next_cursor: 'c' },
				{ data: [row('a'), row('w'), row('z')], next_cursor: null },
			),
		);
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toHaveLength(9);
		expect(asked).toHaveLength(3);
	});

	it('still fails when an id-less page really comes back while the service promises more', async () => {
		const page = { data: [row('a'), row('x'), row('z')] };
		const { client } = scripted(
			bodies({ ...page, next_cursor: 'b' }, { ...page, next_cursor: 'c' }),
		);
		expect(await failure(paginate(ctx, client, list(), settings(), 0))).toMatch(
			/same page of \/users again/,
		);
	});

	it('ends a guessed list of id-less pages alike at the edges only where they really repeat', async () => {
		const { client, asked } = scripted(
			bodies(
				[row('a'), row('x'), row('z')],
				[row('a'), row('y'), row('z')],
				[row('a'), row('y'), row('z')],
			),
		);
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toHaveLength(6);
		expect(asked).toHaveLength(3);
	});
});

describe('a record already taken', () => {
	it('is the same record whether its id comes as a number or as digits, and is dropped', async () => {
		const { client } = scripted(
			bodies(
				{ data: [{ id: 1 }, { id: 2 }], next_cursor: 'b' },
				{ data: [{ id: '2' }, { id: 3 }], next_cursor: null },
			),
		);
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual([
			{ id: 1 },
			{ id: 2 },
			{ id: 3 },
		]);
	});

	it('is another record under another id key, or as a bare value, even with the same id', async () => {
		const { client } = scripted(
			bodies(
				{ data: [{ id: 'x' }, 'x'], next_cursor: 'b' },
				{ data: [{ _id: 'x' }, { uuid: 'x' }, { id: 'x' }, 'x'], next_cursor: null },
			),
		);
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual([
			{ id: 'x' },
			'x',
			{ _id: 'x' },
			{ uuid: 'x' },
		]);
	});
});

describe('a page without a body', () => {
	it.each([undefined, null, ''])('after a page that promised more (%p) fails', async (missing) => {
		const { client } = scripted([
			{ body: { data: rec(1, 2), next_cursor: 'b' } },
			{ body: missing },
		]);
		expect(await failure(paginate(ctx, client, list(), settings(), 0))).toMatch(
			/Page 2 of \/users came back without a body.*2 so far/,
		);
	});

	it('as the first answer is an empty list', async () => {
		const { client } = scripted([{ body: undefined }]);
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual([]);
	});

	it('after a guessed page number is the end', async () => {
		const { client } = scripted([{ body: rec(1, 2) }, { body: '' }]);
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual(rec(1, 2));
	});
});

describe('a declared count beyond Max Pages', () => {
	it.each([
		['total_pages 1e9', { data: rec(1, 2), page: 1, total_pages: 1e9 }, /1000000000 pages/],
		[
			'an offset total of 1e12',
			{ items: rec(1, 2), offset: 0, total: 1e12 },
			/1000000000000 records/,
		],
		[
			'rel="last" at page 1e6',
			{
				body: rec(1, 2),
				headers: { link: '</u?page=2>; rel="next", </u?page=1000000>; rel="last"' },
			},
			/page 1000000/,
		],
	])('fails after the first page with Return All: %s', async (_name, answer, declared) => {
		const one =
			'body' in answer
				? (answer as { body: unknown; headers: Record<string, string> })
				: { body: answer };
		for (const concurrency of [1, 4]) {
			const { client, asked } = scripted(() => one);
			const text = await failure(paginate(ctx, client, list(), settings({ concurrency }), 0));
			expect(text).toMatch(declared);
			expect(text).toMatch(/Max Pages \(10000\)/);
			expect(asked).toHaveLength(1);
		}
	});

	it('with a Limit asks only for the pages Limit needs, however many are declared', async () => {
		const { client, asked } = scripted((n) => ({
			body: { data: rec(2 * n - 1, 2 * n), page: n, total_pages: 1e9 },
		}));
		const result = await paginate(ctx, client, list(7), settings({ concurrency: 3 }), 0);
		expect(result.items).toEqual(rec(1, 2, 3, 4, 5, 6, 7));
		expect(asked).toHaveLength(4);
	});
});

describe('the token never appears in a message', () => {
	const forms = [
		TOKEN,
		encodeURIComponent(TOKEN),
		Buffer.from(TOKEN).toString('base64'),
		Buffer.from(TOKEN).toString('base64url'),
	];
	it.each([
		[
			'echoed as a cursor the service serves again',
			bodies({ data: rec(1), next_cursor: TOKEN }, { data: rec(2), next_cursor: TOKEN }),
		],
		[
			'echoed base64 in a cursor',
			bodies(
				{ data: rec(1), next_cursor: Buffer.from(`x:${TOKEN}`).toString('base64') },
				{ data: rec(1), next_cursor: 'b' },
			),
		],
		['as a key of an unreadable answer', bodies({ [TOKEN]: { a: 1 } })],
		[
			'in a link pointing back',
			[
				{ body: rec(1), headers: { link: `</u?t=${TOKEN}>; rel="next"` } },
				{ body: rec(2), headers: { link: `</u?t=${TOKEN}>; rel="next"` } },
			],
		],
	])('%s', async (_name, answers) => {
		const { client } = scripted(answers);
		const text = await failure(paginate(ctx, client, list(), settings(), 0));
		for (const form of forms) expect(text).not.toContain(form);
		expect(text).toContain('[redacted]');
	});
});

describe('text the service sent is masked before it is cut', () => {
	it('a Link header (never masked on its way) that points back, the token across the 300th character of the request quoted', async () => {
		const url = 'https://chat.example.com/script/include/api/users?p=';
		const next = `${url}${'a'.repeat(300 - url.length - 5)}${TOKEN}`;
		const link = `<${next}>; rel="next"`;
		const { client } = scripted([
			{ body: rec(1), headers: { link } },
			{ body: rec(2), headers: { link } },
			{ body: rec(3), headers: { link } },
		]);
		const shown = await failure(paginate(ctx, client, list(), settings(), 0));
		expect(shown).toMatch(/Repeated request: https:\/\/chat\.example\.com/);
		expect(shown).not.toContain(TOKEN.slice(0, 4));
	});
});

describe('promises of more (issue "Lean and true" §4)', () => {
	/**
	 * Nothing silently cut (issue "Lean and true" §4): every promise of more that a service makes and
	 * does not keep fails Return All, naming what was promised, what came, and the option to change. A
	 * promise of more is a declared count of records or pages, or a cursor, link or has-more flag
	 * wherever the readers look for one. The inputs here are of the class, beyond the two the issue
	 * names (a page count whose later pages are empty; a numeric cursor inside a cursor object).
	 */
	const origin = 'https://chat.example.com/script/include/api/users';

	describe('a declared count the list does not reach fails Return All', () => {
		it.each<[string, Answer[], RegExp, RegExp]>([
			[
				'a record total whose later pages come back empty',
				bodies(
					{ users: rec(1, 2), page: 1, per_page: 2, total: 6 },
					{ users: [], page: 2, per_page: 2, total: 6 },
					{ users: [], page: 3, per_page: 2, total: 6 },
				),
				/6 records/,
				/only 2/,
			],
			[
				'a page count with a short page, then nothing on the pages it declared',
				bodies(
					{ data: rec(1, 2), page: 1, total_pages: 4 },
					{ data: rec(3), page: 2, total_pages: 4 },
					{ data: [], page: 3, total_pages: 4 },
					{ data: [], page: 4, total_pages: 4 },
				),
				/total_pages 4|4 pages/,
				/page 2\b/,
			],
			[
				'a page count declared on the first page only, the later pages empty and silent',
				bodies(
					{ results: rec(1, 2), current_page: 1, last_page: 3 },
					{ results: [], current_page: 2 },
					{ results: [], current_page: 3 },
				),
				/last_page 3|3 pages/,
				/page 1\b/,
			],
			[
				'a last_page beside a next_page_url that ends early',
				bodies({ data: rec(1, 2), current_page: 1, last_page: 3, next_page_url: null }),
				/last_page 3|3 pages/,
				/page 1\b/,
			],
			[
				'a Link rel="last" whose page is never reached',
				[
					{
						body: rec(1, 2),
						headers: { link: `<${origin}?page=2>; rel="next", <${origin}?page=3>; rel="last"` },
					},
					{ body: [], headers: { link: `<${origin}?page=1>; rel="first"` } },
					// Fetched only with Pagination Concurrency, which asks for every page rel="last" declares.
					{ body: [], headers: { link: `<${origin}?page=1>; rel="first"` } },
				],
				/page 3/,
				/page 1\b/,
			],
		])('%s', async (_name, answers, promised, came) => {
			for (const concurrency of [1, 3]) {
				const { client } = scripted(answers);
				const text = await failure(paginate(ctx, client, list(), settings({ concurrency }), 0));
				expect(text).toMatch(promised);
				expect(text).toMatch(came);
				expect(text).toMatch(/Options → Pagination/);
				expect(text).not.toMatch(/Options > /);
			}
		});

		it('is kept by records on the last declared page', async () => {
			const { client } = scripted(
				bodies(
					{ data: rec(1, 2), page: 1, total_pages: 3 },
					{ data: rec(3, 4), page: 2, total_pages: 3 },
					{ data: rec(5), page: 3, total_pages: 3 },
				),
			);
			expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual(
				rec(1, 2, 3, 4, 5),
			);
		});

		it('is broken by an empty page between, even when the last declared page brings records (issue 20)', async () => {
			const { client, asked } = scripted(
				bodies(
					{ data: rec(1, 2), page: 1, total_pages: 3 },
					{ data: [], page: 2, total_pages: 3 },
					{ data: rec(5), page: 3, total_pages: 3 },
				),
			);
			expect(await failure(paginate(ctx, client, list(), settings(), 0))).toMatch(
				/3 pages .* page 1\b.*page 2 came back empty/,
			);
			expect(asked).toHaveLength(2);
		});

		it('asks nothing of an empty list that declares one page', async () => {
			const { client } = scripted(
				bodies({ data: [], current_page: 1, last_page: 1, total: 0, next_page_url: null }),
			);
			expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual([]);
		});

		it('asks nothing below Limit', async () => {
			const { client } = scripted(
				bodies(
					{ data: rec(1, 2), page: 1, total_pages: 4 },
					{ data: rec(3), page: 2, total_pages: 4 },
				),
			);
			expect((await paginate(ctx, client, list(3), settings(), 0)).items).toEqual(rec(1, 2, 3));
		});
	});

	describe('a cursor wherever the readers look is followed, or the list fails', () => {
		it.each<[string, (next: unknown) => Record<string, unknown>, unknown, string, unknown]>([
			[
				'a numeric cursor in pagination.cursor.next',
				(next) => ({ pagination: { cursor: { next } } }),
				3,
				'cursor',
				3,
			],
			[
				'a numeric cursor in meta.cursors.next',
				(next) => ({ meta: { cursors: { next } } }),
				7,
				'cursor',
				7,
			],
			[
				'a text cursor in links.cursor.after',
				(next) => ({ links: { cursor: { after: next } } }),
				'b2',
				'after',
				'b2',
			],
			[
				'a text cursor one level deeper: meta.pagination.cursor.next',
				(next) => ({ meta: { pagination: { cursor: { next } } } }),
				'c3',
				'cursor',
				'c3',
			],
			[
				'a numeric cursor one level deeper: meta.page_info.cursor.next',
				(next) => ({ meta: { page_info: { cursor: { next } } } }),
				12,
				'cursor',
				12,
			],
		])('%s', async (_name, where, next, param, sent) => {
			// A service that pages by cursor ignores a page number: guessed pages come back as the first.
			const { client, asked } = scripted((n, spec) => {
				const cursor = spec.qs?.[param];
				if (n === 1 || cursor === undefined) return { body: { data: rec(1, 2), ...where(next) } };
				return { body: { data: rec(3), ...where(null) } };
			});
			expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual(rec(1, 2, 3));
			expect(asked[1].qs).toMatchObject({ [param]: sent });
			expect(asked).toHaveLength(2);
		});

		it.each<[string, Answer[], RegExp]>([
			[
				'has_more true beside a next_cursor of null',
				bodies({ data: rec(1, 2), has_more: true, next_cursor: null }),
				/has_more/,
			],
			[
				'has_more true on an empty page whose cursor ends',
				bodies(
					{ data: rec(1, 2), next_cursor: 'b', has_more: true },
					{ data: [], next_cursor: null, has_more: true },
				),
				/has_more/,
			],
			[
				'hasMore true beside a next link of null',
				bodies({ items: rec(1, 2), hasMore: true, links: { next: null } }),
				/hasMore/,
			],
			[
				'has_more true on the page an offset total calls the last',
				bodies({ items: rec(1, 2), offset: 0, total: 2, has_more: true }),
				/has_more/,
			],
		])('%s fails, naming the promise and what came', async (_name, answers, promised) => {
			const { client } = scripted(answers);
			const text = await failure(paginate(ctx, client, list(), settings(), 0));
			expect(text).toMatch(promised);
			expect(text).toMatch(/\b2 records\b/);
			expect(text).toMatch(/Options → Pagination Style/);
		});

		it('has_more true is nothing under No Pagination, which reads one answer whatever it says', async () => {
			const { client } = scripted(bodies({ data: rec(1, 2), has_more: true }));
			expect((await paginate(ctx, client, list(), settings({ style: 'none' }), 0)).items).toEqual(
				rec(1, 2),
			);
		});

		it('has_more true is nothing once Limit is reached', async () => {
			const { client } = scripted(bodies({ data: rec(1, 2), has_more: true, next_cursor: null }));
			expect((await paginate(ctx, client, list(2), settings(), 0)).items).toEqual(rec(1, 2));
		});
	});
});

describe('a 404 for a page the node guessed at (a service past its last page)', () => {
	const absent: Answer = { status: 404, body: { detail: 'Invalid page.' } };
	/** Pages by their number, 1 being the first (no page parameter). */
	const byPage =
		(pages: Record<number, Answer>) =>
		(_n: number, spec: { qs?: Record<string, unknown> }): Answer =>
			pages[Number(spec.qs?.page ?? 1)] ?? absent;

	it('ends the list when nothing on the page before said more may follow', async () => {
		const { client, asked } = scripted([{ body: { data: rec(1, 2) } }, absent]);
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual(rec(1, 2));
		expect(asked.map((spec) => spec.absentIsAnswer)).toEqual([undefined, true]);
	});

	it.each([
		['a next_page number it does not follow', { data: rec(1, 2), next_page: 2 }, {}],
		[
			'a next link under a forced Page Number style',
			{ data: rec(1, 2), next: '/users?page=2' },
			{},
		],
		[
			'a cursor that is a URL, which the cursor reader does not take',
			{ results: rec(1, 2), page: 1, next_cursor: 'https://chat.example.com/x?cursor=abc' },
			{},
		],
		['a has-more value that is not a boolean', { data: rec(1, 2), has_next: 'True' }, {}],
		[
			'a Link rel="next" under a forced Page Number style',
			{ data: rec(1, 2) },
			{ link: '</users?page=2>; rel="next"' },
		],
	])('fails after %s', async (_name, body, headers) => {
		const { client, asked } = scripted([{ body, headers }, absent]);
		await failure(paginate(ctx, client, list(), settings({ style: 'page' }), 0));
		expect(asked[1].absentIsAnswer).toBeUndefined();
	});

	it('read ahead, ends the list at the first 404 after pages that said nothing more', async () => {
		const page = (n: number) => ({ body: { data: rec(2 * n - 1, 2 * n), page: n, per_page: 2 } });
		const { client } = scripted(byPage({ 1: page(1), 2: page(2) }));
		const run = await paginate(ctx, client, list(), settings({ concurrency: 4 }), 0);
		expect(run.items).toEqual(rec(1, 2, 3, 4));
	});

	it('read ahead, fails on a 404 after a page that said there is more', async () => {
		const page = (n: number, more: object = {}) => ({
			body: { data: rec(2 * n - 1, 2 * n), page: n, per_page: 2, ...more },
		});
		const { client } = scripted(byPage({ 1: page(1), 2: page(2, { has_more: true }) }));
		const text = await failure(paginate(ctx, client, list(), settings({ concurrency: 4 }), 0));
		expect(text).toMatch(
			/Page 3 of \/users came back as a 404 \(no such page\) after the service said there were more records \(4 so far\)/,
		);
		expect(text).toMatch(/Return All does not return part of a list/);
	});
});

describe('Seen', () => {
	it('notes records by id, 2 and "2" alike, and tells a page of them by its records only', () => {
		const seen = new Seen();
		expect(seen.take([{ id: 1 }, { id: 2 }])).toEqual([{ id: 1 }, { id: 2 }]);
		expect(seen.take([{ id: '1' }, { id: 3 }])).toEqual([{ id: 3 }]);
		expect(seen.take([{ id: 1 }, { id: 2 }])).toEqual([]);
	});

	it('tells a page of records without ids by its whole content', () => {
		const seen = new Seen();
		expect(seen.take([{ n: 'a' }, { n: 'b' }])).toEqual([{ n: 'a' }, { n: 'b' }]);
		expect(seen.take([{ n: 'a' }, { n: 'b' }])).toBeUndefined();
		expect(seen.take([{ n: 'a' }, { n: 'c' }])).toEqual([{ n: 'a' }, { n: 'c' }]);
	});

	it('takes the records without ids of a page with some, and drops its records served before', () => {
		const seen = new Seen();
		expect(seen.take([{ id: 1 }])).toEqual([{ id: 1 }]);
		expect(seen.take([{ id: 1 }, { n: 'a' }, { id: 2 }])).toEqual([{ n: 'a' }, { id: 2 }]);
		expect(seen.take([{ id: 1 }, { n: 'a' }, { id: 2 }])).toBeUndefined();
	});

	it.each([
		['an empty page', [], true],
		['records all served', [{ id: 2 }, { id: '1' }], true],
		['one record not served', [{ id: 1 }, { id: 3 }], false],
		['a record with another id key', [{ uuid: 1 }], false],
		['the served page of records without ids', [{ n: 'a' }], true],
		['another page of records without ids', [{ n: 'b' }], false],
	])('addsNothing: %s → %s, and notes nothing', (_name, page, expected) => {
		const seen = new Seen();
		seen.take([{ id: 1 }, { id: 2 }]);
		seen.take([{ n: 'a' }]);
		expect(seen.addsNothing(page)).toBe(expected);
		expect(seen.addsNothing(page)).toBe(expected);
		if (!expected && page.length > 0 && 'id' in page[page.length - 1])
			expect(seen.take([page[page.length - 1]])).toEqual([page[page.length - 1]]);
	});
});
