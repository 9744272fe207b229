/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/** readPage: what a page holds and where the next one is, in every page style the readers know. */

import fc from 'fast-check';

import type { PagePlan } from '../../../../nodes/SupportChat/transport/pagination/reading';
import type {
	PageRequest,
	PaginationSettings,
} from '../../../../nodes/SupportChat/transport/pagination/styles';
import { DEFAULT_PAGINATION } from '../../../../nodes/SupportChat/transport/pagination/styles';
import { PageShapeError } from '../../../../nodes/SupportChat/transport/pagination/reading';
import { readPage } from '../../../../nodes/SupportChat/transport/pagination/readPage';
import { hasIdentity } from '../../../../nodes/SupportChat/transport/pagination/values';
import { getPath } from '../../../../nodes/SupportChat/shared/json';
import { answer, settings } from './arbitraries';

const users = (from: number, count: number) =>
	Array.from({ length: count }, (_, i) => ({ id: `u${from + i}`, name: `User ${from + i}` }));
const first: PageRequest = { path: '/users', qs: {} };
const auto = DEFAULT_PAGINATION;
const forced = (overrides: Partial<PaginationSettings>): PaginationSettings => ({
	...auto,
	...overrides,
});
/** A plan is lazy (issue 8): its values are read one by one, as the loop launches them. */
const planned = (plan: PagePlan | undefined, param: string) =>
	plan && { param, values: Array.from({ length: plan.count }, (_, i) => plan.at(i).qs[param]) };

describe('readPage finds the records', () => {
	it.each([
		['a bare array', users(1, 3), '(the whole body)'],
		['data', { data: users(1, 3) }, 'data'],
		['items', { items: users(1, 3) }, 'items'],
		['results', { results: users(1, 3) }, 'results'],
		['users', { users: users(1, 3), page: 1 }, 'users'],
		['conversations', { conversations: users(1, 3) }, 'conversations'],
		['records', { records: users(1, 3), offset: 0 }, 'records'],
		[
			'a {success, response} envelope around an array',
			{ success: true, response: users(1, 3) },
			'response',
		],
		[
			'a {success, response} envelope around a page',
			{ success: true, response: { users: users(1, 3), page: 1 } },
			'response.users',
		],
		['HAL _embedded', { _embedded: { users: users(1, 3) }, _links: {} }, '_embedded.users'],
		[
			'the one array under an unknown key',
			{ contacts_list: users(1, 3), total: 3 },
			'contacts_list',
		],
		['data.users nested', { data: { users: users(1, 3), next_cursor: null } }, 'data.users'],
	])('in %s', (_name, body, at) => {
		const page = readPage(body, {}, first, auto);
		expect(page.items).toHaveLength(3);
		expect(page.itemsAt).toBe(at);
	});

	it('at a path the user gives', () => {
		const body = { payload: { list: { entries: users(1, 2) } } };
		expect(
			readPage(body, {}, first, forced({ itemsPath: 'payload.list.entries' })).items,
		).toHaveLength(2);
	});

	it.each([
		[
			'an object without a list',
			{ id: 1, name: 'x' },
			/Could not find the list of records.*keys id, name/,
		],
		['two candidate arrays', { a: [1], b: [2] }, /Items Path/],
	])('and says what to set when it cannot: %s', (_name, body, message) => {
		expect(() => readPage(body, {}, first, auto)).toThrow(PageShapeError);
		expect(() => readPage(body, {}, first, auto)).toThrow(message);
	});

	it('reports a wrong Items Path with what the answer was', () => {
		expect(() => readPage({ data: [] }, {}, first, forced({ itemsPath: 'items' }))).toThrow(
			'No list found at Items Path "items"; the service answered an object with keys data',
		);
	});
});

describe('readPage knows what to ask for next', () => {
	const origin = 'https://chat.example.com/script/include/api';
	it.each<[string, unknown, Record<string, string>, object]>([
		[
			'a Link header',
			users(1, 2),
			{ link: `<${origin}/users?page=2>; rel="next", <${origin}/users?page=9>; rel="last"` },
			{ detected: 'link', next: { url: `${origin}/users?page=2`, qs: {} } },
		],
		[
			'next_page_url (Laravel)',
			{ data: users(1, 2), next_page_url: `${origin}/users?page=2`, current_page: 1, last_page: 5 },
			{},
			{ detected: 'nextUrl', next: { url: `${origin}/users?page=2`, qs: {} } },
		],
		[
			'links.next (JSON:API)',
			{ data: users(1, 2), links: { self: 'x', next: '/script/include/api/users?page=2' } },
			{},
			{ detected: 'nextUrl', next: { url: '/script/include/api/users?page=2', qs: {} } },
		],
		[
			'_links.next.href (HAL)',
			{ _embedded: { users: users(1, 2) }, _links: { next: { href: `${origin}/users?page=2` } } },
			{},
			{ detected: 'nextUrl', next: { url: `${origin}/users?page=2`, qs: {} } },
		],
		[
			'paging.next',
			{ data: users(1, 2), paging: { next: `${origin}/users?after=u2` } },
			{},
			{ detected: 'nextUrl' },
		],
		[
			'next_cursor',
			{ data: users(1, 2), next_cursor: 'abc' },
			{},
			{ detected: 'cursor', next: { path: '/users', qs: { cursor: 'abc' } } },
		],
		[
			'meta.next_cursor',
			{ users: users(1, 2), meta: { next_cursor: 'abc' } },
			{},
			{ detected: 'cursor', next: { path: '/users', qs: { cursor: 'abc' } } },
		],
		[
			'meta.cursor.next',
			{ users: users(1, 2), meta: { cursor: { next: 'abc' } } },
			{},
			{ detected: 'cursor', next: { path: '/users', qs: { cursor: 'abc' } } },
		],
		[
			'next_page_token',
			{ items: users(1, 2), next_page_token: 't2' },
			{},
			{ detected: 'cursor', next: { path: '/users', qs: { page_token: 't2' } } },
		],
		[
			'a bare cursor',
			{ data: users(1, 2), cursor: 'c2' },
			{},
			{ detected: 'cursor', next: { path: '/users', qs: { cursor: 'c2' } } },
		],
		[
			'has_more with the last id (Stripe)',
			{ object: 'list', data: users(1, 2), has_more: true },
			{},
			{ detected: 'hasMore', next: { path: '/users', qs: { starting_after: 'u2' } } },
		],
		[
			'page with total_pages',
			{ users: users(1, 2), page: 1, per_page: 2, total_pages: 3 },
			{},
			{
				detected: 'page',
				explicit: true,
				next: { path: '/users', qs: { page: 2 } },
				plan: { count: 2 },
			},
		],
		[
			'page with total and per_page',
			{ results: users(1, 2), page: 2, per_page: 2, total: 5 },
			{},
			{ detected: 'page', explicit: true, next: { path: '/users', qs: { page: 3 } } },
		],
		[
			'page without totals',
			{ results: users(1, 2), page: 1 },
			{},
			{ detected: 'page', explicit: false, next: { path: '/users', qs: { page: 2 } } },
		],
		[
			'offset with total',
			{ items: users(1, 2), offset: 0, limit: 2, total: 5 },
			{},
			{
				detected: 'offset',
				explicit: true,
				next: { path: '/users', qs: { offset: 2 } },
				plan: { count: 2 },
			},
		],
		[
			'offset without total',
			{ records: users(1, 2), offset: 4, limit: 2 },
			{},
			{ detected: 'offset', explicit: false, next: { path: '/users', qs: { offset: 6 } } },
		],
		[
			'nothing at all: probe page 2',
			users(1, 2),
			{},
			{ detected: 'probe', explicit: false, next: { path: '/users', qs: { page: 2 } } },
		],
	])('from %s', (_name, body, headers, expected) => {
		expect(readPage(body, headers, first, auto)).toMatchObject(expected);
	});

	it.each<[string, unknown, Record<string, string>?]>([
		['a Link header without next', users(1, 2), { link: '<https://x/users?page=1>; rel="first"' }],
		[
			'next_page_url null',
			{ data: users(1, 2), next_page_url: null, current_page: 3, last_page: 3 },
		],
		['links.next null', { data: users(1, 2), links: { next: null } }],
		['next_cursor null', { data: users(1, 2), next_cursor: null }],
		['has_more false', { data: users(1, 2), has_more: false }],
		['the last page of total_pages', { users: users(1, 2), page: 3, total_pages: 3 }],
		['an offset reaching total', { items: users(1, 2), offset: 3, total: 5 }],
		['an empty bare array', []],
	])('and sees the end in %s', (_name, body, headers = {}) => {
		const page = readPage(body, headers, first, auto);
		expect(page.next).toBeUndefined();
	});

	it('keeps the query it was given (filters) when it adds the page parameter', () => {
		const page = readPage(
			{ results: users(1, 2), page: 1 },
			{},
			{ path: '/conversations', qs: { status: 'open' } },
			auto,
		);
		expect(page.next).toEqual({
			path: '/conversations',
			url: undefined,
			qs: { status: 'open', page: 2 },
		});
	});

	it('counts from the page number it sent when the body does not say', () => {
		const page = readPage(users(5, 2), {}, { path: '/users', qs: { page: 3 } }, auto);
		expect(page.next?.qs).toEqual({ page: 4 });
	});

	it.each<[string, unknown, string, unknown[]]>([
		[
			'page with total_pages',
			{ users: users(1, 2), page: 1, per_page: 2, total_pages: 3 },
			'page',
			[2, 3],
		],
		['offset with total', { items: users(1, 2), offset: 0, limit: 2, total: 5 }, 'offset', [2, 4]],
	])('plans the remaining pages of %s', (_name, body, param, values) => {
		expect(planned(readPage(body, {}, first, auto).plan, param)).toEqual({ param, values });
	});

	it('honours pages counted from 0', () => {
		const page = readPage(
			{ users: users(1, 2), page: 0, total_pages: 2 },
			{},
			first,
			forced({ firstPage: 0 }),
		);
		expect(planned(page.plan, 'page')).toEqual({ param: 'page', values: [1] });
	});
});

describe('readPage with a forced style', () => {
	it('uses the parameter names the user gives', () => {
		const page = readPage(
			{ data: users(1, 2), meta: { after: 'zz' } },
			{},
			first,
			forced({ style: 'cursor', nextPath: 'meta.after', cursorParam: 'after_id' }),
		);
		expect(page.next?.qs).toEqual({ after_id: 'zz' });
	});

	it('ignores the body for "none"', () => {
		expect(
			readPage({ data: users(1, 2), next_cursor: 'x' }, {}, first, forced({ style: 'none' })).next,
		).toBeUndefined();
	});

	it('pages by number even without metadata for "page"', () => {
		const page = readPage(users(1, 2), {}, first, forced({ style: 'page', pageParam: 'p' }));
		expect(page.next?.qs).toEqual({ p: 2 });
	});

	it('pages by offset for "offset"', () => {
		const page = readPage(users(1, 2), {}, first, forced({ style: 'offset', offsetParam: 'skip' }));
		expect(page.next?.qs).toEqual({ skip: 2 });
	});

	it('fails with a clear message when a forced cursor is missing', () => {
		expect(() => readPage({ data: users(1, 2) }, {}, first, forced({ style: 'cursor' }))).toThrow(
			/no cursor.*Next Path/,
		);
	});

	it('fails when has_more is true but nothing says where to continue', () => {
		expect(() => readPage({ data: [{ name: 'no id' }], has_more: true }, {}, first, auto)).toThrow(
			/last record has no id/,
		);
	});
});

describe('hostile answers (issue 8)', () => {
	/**
	 * The page readers against hostile answers (issue 8): declared numbers that are huge, negative,
	 * fractional or not numbers; numeric cursors; Link headers with rel="last" or built to backtrack.
	 */
	const first: PageRequest = { path: '/users', qs: {} };
	const users = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `u${i + 1}` }));
	const read = (
		body: unknown,
		headers: Record<string, string> = {},
		settings: Partial<PaginationSettings> = {},
	) => readPage(body, headers, first, { ...DEFAULT_PAGINATION, ...settings });

	describe('declared counts bound nothing: the plan is lazy', () => {
		it.each([
			[
				'total_pages 1e9',
				{ users: users(2), page: 1, total_pages: 1_000_000_000 },
				999_999_999,
				'page',
				1_000_000_000,
			],
			[
				'last_page 2^53-1',
				{ data: users(2), current_page: 1, last_page: Number.MAX_SAFE_INTEGER },
				Number.MAX_SAFE_INTEGER - 1,
				'page',
				Number.MAX_SAFE_INTEGER,
			],
			[
				'an offset total of 1e12',
				{ items: users(2), offset: 0, limit: 2, total: 1e12 },
				5e11 - 1,
				'offset',
				1e12 - 2,
			],
			[
				'total 1e12 at per_page 2',
				{ results: users(2), page: 1, per_page: 2, total: 1e12 },
				5e11 - 1,
				'page',
				5e11,
			],
		])(
			'%s: read at once, the last planned request computed, not listed',
			(_name, body, count, param, lastValue) => {
				// A plan that listed its requests could not be built at these counts: the test would not end.
				const page = read(body);
				expect(page.plan?.count).toBe(count);
				expect(page.plan?.at(count - 1).qs[param]).toBe(lastValue);
			},
		);

		it.each([
			['negative total_pages', { users: users(2), page: 1, total_pages: -5 }],
			['fractional total_pages', { users: users(2), page: 1, total_pages: 2.5 }],
			['total_pages beyond 2^53', { users: users(2), page: 1, total_pages: 2 ** 60 }],
			[
				'total_pages that JSON read as Infinity',
				JSON.parse('{"users":[{"id":1}],"page":1,"total_pages":1e400}'),
			],
			['total_pages as text', { users: users(2), page: 1, total_pages: 'many' }],
			[
				'total_pages as a long digit string',
				{ users: users(2), page: 1, total_pages: '9'.repeat(400) },
			],
			['per_page 0 beside a total', { users: users(2), page: 1, per_page: 0, total: 10 }],
			['per_page negative beside a total', { users: users(2), page: 1, per_page: -2, total: 10 }],
		])('%s counts as not declared: the node guesses page 2', (_name, body) => {
			const page = read(body);
			expect(page.plan).toBeUndefined();
			expect(page).toMatchObject({ detected: 'page', explicit: false, next: { qs: { page: 2 } } });
		});

		it.each([
			['a negative offset total', { items: users(2), offset: 0, total: -1 }],
			['a NaN-like offset total', { items: users(2), offset: 0, total: 'NaN' }],
			['a fractional offset', { items: users(2), offset: 0.5, total: 10 }],
		])('%s plans nothing', (_name, body) => {
			expect(read(body).plan).toBeUndefined();
		});

		it('a huge page number in the body is a number like any other, not a loop bound', () => {
			const page = read({ users: users(2), page: 1e15, total_pages: 1e15 + 3 });
			expect(page.plan?.count).toBe(3);
		});
	});

	describe('numeric cursors are cursors', () => {
		it.each<[string, unknown, Partial<PaginationSettings>, Record<string, unknown>]>([
			['next_cursor: 1002', { data: users(2), next_cursor: 1002 }, {}, { cursor: 1002 }],
			['cursors.after: 2', { data: users(2), paging: { cursors: { after: 2 } } }, {}, { after: 2 }],
			['meta.next_cursor: 0', { users: users(2), meta: { next_cursor: 0 } }, {}, { cursor: 0 }],
			[
				'a numeric cursor at the Next Path',
				{ data: users(2), meta: { position: 40 } },
				{ style: 'cursor', nextPath: 'meta.position', cursorParam: 'from' },
				{ from: 40 },
			],
		])('%s', (_name, body, settings, qs) => {
			expect(read(body, {}, settings)).toMatchObject({
				detected: 'cursor',
				explicit: true,
				next: { path: '/users', qs },
			});
		});

		it('a number under next_page stays a page number', () => {
			expect(read({ data: users(2), page: 1, next_page: 2 })).toMatchObject({
				detected: 'page',
				next: { qs: { page: 2 } },
			});
		});

		it.each([Number.NaN, Number.POSITIVE_INFINITY])('%s is no cursor', (value) => {
			expect(read({ data: users(2), next_cursor: value }).detected).toBe('probe');
		});
	});

	describe('Link rel="last" declares the page count', () => {
		const origin = 'https://chat.example.com/script/include/api/users';
		it('plans the pages between next and last for Pagination Concurrency', () => {
			const page = read(users(2), {
				link: `<${origin}?per_page=2&page=2>; rel="next", <${origin}?per_page=2&page=9>; rel="last"`,
			});
			expect(page).toMatchObject({
				detected: 'link',
				next: { url: `${origin}?per_page=2&page=2` },
			});
			expect(page.plan?.count).toBe(8);
			expect(page.plan?.at(0).url).toBe(`${origin}?per_page=2&page=2`);
			expect(page.plan?.at(7).url).toBe(`${origin}?per_page=2&page=9`);
		});

		it('honours the page parameter the user names', () => {
			const page = read(
				users(2),
				{ link: `<${origin}?p=3>; rel="next", <${origin}?p=4>; rel="last"` },
				{ pageParam: 'p' },
			);
			expect(page.plan?.count).toBe(2);
		});

		it.each([
			[
				'a last link that differs in more than the page',
				`<${origin}?page=2&cursor=a>; rel="next", <${origin}?page=9&cursor=z>; rel="last"`,
			],
			[
				'a last link before the next one',
				`<${origin}?page=5>; rel="next", <${origin}?page=2>; rel="last"`,
			],
			['no page parameter', `<${origin}?cursor=a>; rel="next", <${origin}?cursor=z>; rel="last"`],
			['no last link', `<${origin}?page=2>; rel="next"`],
			[
				'a last page of 1e300',
				`<${origin}?page=2>; rel="next", <${origin}?page=1e300>; rel="last"`,
			],
		])('plans nothing for %s, and still follows next', (_name, link) => {
			const page = read(users(2), { link });
			expect(page.plan).toBeUndefined();
			expect(page.next?.url).toBeDefined();
		});
	});

	it('marks an answer without a body, so the loop can tell it from an empty list', () => {
		expect(read(undefined)).toMatchObject({ bodyless: true, items: [] });
		expect(read('')).toMatchObject({ bodyless: true });
		expect(read([])).toMatchObject({ bodyless: false });
	});
});

describe('any answers (properties, issue 8)', () => {
	// No clock here (tests never assert times: this one failed CI-like runs under load at 64 ms for an
	// answer it reads in 0.4 ms): that no expression backtracks is proven in test/package/regexes.test.ts.
	it('readPage throws nothing but PageShapeError', () => {
		fc.assert(
			fc.property(answer, settings, (one, chosen) => {
				try {
					const page = readPage(
						one.body,
						one.headers ?? {},
						{ path: '/users', qs: {} },
						{ ...DEFAULT_PAGINATION, ...chosen },
					);
					if (page.plan) page.plan.at(page.plan.count - 1);
				} catch (error) {
					expect(error).toBeInstanceOf(PageShapeError);
				}
			}),
			{ numRuns: 1000 },
		);
	});
});

describe('Object.prototype names (issue 8, class 12)', () => {
	/**
	 * Words that also name Object.prototype members (issue 8, class 12), fed as keys and values of page
	 * answers, as Items and Next Paths and as parameter names: readers look up own properties only, so each
	 * answer reads sanely or fails with the documented PageShapeError.
	 */
	const NAMES = Object.getOwnPropertyNames(Object.prototype);
	const request = { path: '/users', qs: {} };
	const rows = [{ id: 1 }, { id: 2 }];

	/** Reads the answer; a documented failure is an answer too. */
	function outcome(
		body: unknown,
		settings: Partial<PaginationSettings> = {},
		headers: Record<string, string> = {},
	) {
		try {
			return readPage(body, headers, request, { ...DEFAULT_PAGINATION, ...settings });
		} catch (error) {
			if (error instanceof PageShapeError) return error;
			throw error;
		}
	}

	describe.each(NAMES)('"%s"', (name) => {
		it('as a key beside the records, or the only key, reads the records or says where they are not', () => {
			const beside = outcome(JSON.parse(JSON.stringify({ data: rows, [name]: name })));
			expect(beside).not.toBeInstanceOf(PageShapeError);
			expect((beside as { items: unknown[] }).items).toEqual(rows);
			const alone = outcome(JSON.parse(`{${JSON.stringify(name)}: 1}`));
			expect(alone).toBeInstanceOf(PageShapeError);
		});

		it('as a cursor value, a total or a page number is a value, never a member', () => {
			const page = outcome({ data: rows, next_cursor: name, total: name, page: name });
			expect(page).toMatchObject({ detected: 'cursor', next: { qs: { cursor: name } } });
		});

		it('as Items Path, Next Path and parameter names reaches nothing inherited', () => {
			expect(outcome({ data: rows }, { itemsPath: name })).toBeInstanceOf(PageShapeError);
			const custom = outcome({ data: rows }, { nextPath: name, style: 'cursor' });
			expect(custom).toBeInstanceOf(PageShapeError);
			const auto = outcome({ data: rows, meta: {} }, { nextPath: `meta.${name}` });
			expect(auto).toMatchObject({ detected: 'probe' });
			const forced = outcome({ data: rows }, { style: 'page', pageParam: name });
			expect(forced).toMatchObject({ next: { qs: { [name]: 2 } } });
			expect(Object.hasOwn((forced as { next: { qs: object } }).next.qs, name)).toBe(true);
		});

		it('as a Link relation or a records key, and in getPath and in a record identity', () => {
			const link = outcome(rows, { style: 'nextUrl' }, { link: `</u?page=2>; rel="${name}"` });
			expect(link).toMatchObject({ detected: 'link' });
			expect((link as { next?: unknown }).next).toBeUndefined();
			expect(getPath({}, name)).toBeUndefined();
			expect(getPath({ a: {} }, `a.${name}`)).toBeUndefined();
			expect(hasIdentity({ [name]: 1 })).toBe(false);
		});
	});
});
