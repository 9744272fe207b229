/**
 * Nothing silently cut (issue "Lean and true" §4): every promise of more that a service makes and
 * does not keep fails Return All, naming what was promised, what came, and the option to change. A
 * promise of more is a declared count of records or pages, or a cursor, link or has-more flag
 * wherever the readers look for one. The inputs here are of the class, beyond the two the issue
 * names (a page count whose later pages are empty; a numeric cursor inside a cursor object).
 */
import { DEFAULT_PAGINATION } from '../../../nodes/SupportChat/transport/pageShape';
import { paginate } from '../../../nodes/SupportChat/transport/pagination';
import type { Answer } from './scripted';
import { bodies, ctx, rec, scripted } from './scripted';

const list = (limit?: number) => ({ list: 'users' as const, query: {}, limit });
const settings = (overrides = {}) => ({ ...DEFAULT_PAGINATION, ...overrides });
const failure = async (promise: Promise<unknown>) => {
	const error = (await promise.then(() => undefined, (e: unknown) => e)) as { message: string; description?: string } | undefined;
	if (!error) throw new Error('expected a failure');
	return `${error.message}\n${error.description ?? ''}`;
};
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
			bodies({ results: rec(1, 2), current_page: 1, last_page: 3 }, { results: [], current_page: 2 }, { results: [], current_page: 3 }),
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
				{ body: rec(1, 2), headers: { link: `<${origin}?page=2>; rel="next", <${origin}?page=3>; rel="last"` } },
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
			bodies({ data: rec(1, 2), page: 1, total_pages: 3 }, { data: rec(3, 4), page: 2, total_pages: 3 }, { data: rec(5), page: 3, total_pages: 3 }),
		);
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual(rec(1, 2, 3, 4, 5));
	});

	it('is broken by an empty page between, even when the last declared page brings records (issue 20)', async () => {
		const { client, asked } = scripted(
			bodies({ data: rec(1, 2), page: 1, total_pages: 3 }, { data: [], page: 2, total_pages: 3 }, { data: rec(5), page: 3, total_pages: 3 }),
		);
		expect(await failure(paginate(ctx, client, list(), settings(), 0))).toMatch(/3 pages .* page 1\b.*page 2 came back empty/);
		expect(asked).toHaveLength(2);
	});

	it('asks nothing of an empty list that declares one page', async () => {
		const { client } = scripted(bodies({ data: [], current_page: 1, last_page: 1, total: 0, next_page_url: null }));
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual([]);
	});

	it('asks nothing below Limit', async () => {
		const { client } = scripted(bodies({ data: rec(1, 2), page: 1, total_pages: 4 }, { data: rec(3), page: 2, total_pages: 4 }));
		expect((await paginate(ctx, client, list(3), settings(), 0)).items).toEqual(rec(1, 2, 3));
	});
});

describe('a cursor wherever the readers look is followed, or the list fails', () => {
	it.each<[string, (next: unknown) => Record<string, unknown>, unknown, string, unknown]>([
		['a numeric cursor in pagination.cursor.next', (next) => ({ pagination: { cursor: { next } } }), 3, 'cursor', 3],
		['a numeric cursor in meta.cursors.next', (next) => ({ meta: { cursors: { next } } }), 7, 'cursor', 7],
		['a text cursor in links.cursor.after', (next) => ({ links: { cursor: { after: next } } }), 'b2', 'after', 'b2'],
		['a text cursor one level deeper: meta.pagination.cursor.next', (next) => ({ meta: { pagination: { cursor: { next } } } }), 'c3', 'cursor', 'c3'],
		['a numeric cursor one level deeper: meta.page_info.cursor.next', (next) => ({ meta: { page_info: { cursor: { next } } } }), 12, 'cursor', 12],
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
		['has_more true beside a next_cursor of null', bodies({ data: rec(1, 2), has_more: true, next_cursor: null }), /has_more/],
		[
			'has_more true on an empty page whose cursor ends',
			bodies({ data: rec(1, 2), next_cursor: 'b', has_more: true }, { data: [], next_cursor: null, has_more: true }),
			/has_more/,
		],
		['hasMore true beside a next link of null', bodies({ items: rec(1, 2), hasMore: true, links: { next: null } }), /hasMore/],
		['has_more true on the page an offset total calls the last', bodies({ items: rec(1, 2), offset: 0, total: 2, has_more: true }), /has_more/],
	])('%s fails, naming the promise and what came', async (_name, answers, promised) => {
		const { client } = scripted(answers);
		const text = await failure(paginate(ctx, client, list(), settings(), 0));
		expect(text).toMatch(promised);
		expect(text).toMatch(/\b2 records\b/);
		expect(text).toMatch(/Options → Pagination Style/);
	});

	it('has_more true is nothing under No Pagination, which reads one answer whatever it says', async () => {
		const { client } = scripted(bodies({ data: rec(1, 2), has_more: true }));
		expect((await paginate(ctx, client, list(), settings({ style: 'none' }), 0)).items).toEqual(rec(1, 2));
	});

	it('has_more true is nothing once Limit is reached', async () => {
		const { client } = scripted(bodies({ data: rec(1, 2), has_more: true, next_cursor: null }));
		expect((await paginate(ctx, client, list(2), settings(), 0)).items).toEqual(rec(1, 2));
	});
});
