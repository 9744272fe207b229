/**
 * The page readers against hostile answers (issue 8): declared numbers that are huge, negative,
 * fractional or not numbers; numeric cursors; Link headers with rel="last" or built to backtrack.
 */
import type { PageRequest, PaginationSettings } from '../../../nodes/SupportChat/transport/pageShape';
import { DEFAULT_PAGINATION, linkHeaderNext, readPage } from '../../../nodes/SupportChat/transport/pageShape';

const first: PageRequest = { path: '/users', qs: {} };
const users = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `u${i + 1}` }));
const read = (body: unknown, headers: Record<string, string> = {}, settings: Partial<PaginationSettings> = {}) =>
	readPage(body, headers, first, { ...DEFAULT_PAGINATION, ...settings });

describe('declared counts bound nothing: the plan is lazy', () => {
	it.each([
		['total_pages 1e9', { users: users(2), page: 1, total_pages: 1_000_000_000 }, 999_999_999, 'page', 1_000_000_000],
		['last_page 2^53-1', { data: users(2), current_page: 1, last_page: Number.MAX_SAFE_INTEGER }, Number.MAX_SAFE_INTEGER - 1, 'page', Number.MAX_SAFE_INTEGER],
		['an offset total of 1e12', { items: users(2), offset: 0, limit: 2, total: 1e12 }, 5e11 - 1, 'offset', 1e12 - 2],
		['total 1e12 at per_page 2', { results: users(2), page: 1, per_page: 2, total: 1e12 }, 5e11 - 1, 'page', 5e11],
	])('%s: read at once, the last planned request computed, not listed', (_name, body, count, param, lastValue) => {
		// A plan that listed its requests could not be built at these counts: the test would not end.
		const page = read(body);
		expect(page.plan?.count).toBe(count);
		expect(page.plan?.at(count - 1).qs[param]).toBe(lastValue);
	});

	it.each([
		['negative total_pages', { users: users(2), page: 1, total_pages: -5 }],
		['fractional total_pages', { users: users(2), page: 1, total_pages: 2.5 }],
		['total_pages beyond 2^53', { users: users(2), page: 1, total_pages: 2 ** 60 }],
		['total_pages that JSON read as Infinity', JSON.parse('{"users":[{"id":1}],"page":1,"total_pages":1e400}')],
		['total_pages as text', { users: users(2), page: 1, total_pages: 'many' }],
		['total_pages as a long digit string', { users: users(2), page: 1, total_pages: '9'.repeat(400) }],
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
		['a numeric cursor at the Next Path', { data: users(2), meta: { position: 40 } }, { style: 'cursor', nextPath: 'meta.position', cursorParam: 'from' }, { from: 40 }],
	])('%s', (_name, body, settings, qs) => {
		expect(read(body, {}, settings)).toMatchObject({ detected: 'cursor', explicit: true, next: { path: '/users', qs } });
	});

	it('a number under next_page stays a page number', () => {
		expect(read({ data: users(2), page: 1, next_page: 2 })).toMatchObject({ detected: 'page', next: { qs: { page: 2 } } });
	});

	it.each([Number.NaN, Number.POSITIVE_INFINITY])('%s is no cursor', (value) => {
		expect(read({ data: users(2), next_cursor: value }).detected).toBe('probe');
	});
});

describe('Link rel="last" declares the page count', () => {
	const origin = 'https://chat.example.com/script/include/api/users';
	it('plans the pages between next and last for Pagination Concurrency', () => {
		const page = read(users(2), { link: `<${origin}?per_page=2&page=2>; rel="next", <${origin}?per_page=2&page=9>; rel="last"` });
		expect(page).toMatchObject({ detected: 'link', next: { url: `${origin}?per_page=2&page=2` } });
		expect(page.plan?.count).toBe(8);
		expect(page.plan?.at(0).url).toBe(`${origin}?per_page=2&page=2`);
		expect(page.plan?.at(7).url).toBe(`${origin}?per_page=2&page=9`);
	});

	it('honours the page parameter the user names', () => {
		const page = read(users(2), { link: `<${origin}?p=3>; rel="next", <${origin}?p=4>; rel="last"` }, { pageParam: 'p' });
		expect(page.plan?.count).toBe(2);
	});

	it.each([
		['a last link that differs in more than the page', `<${origin}?page=2&cursor=a>; rel="next", <${origin}?page=9&cursor=z>; rel="last"`],
		['a last link before the next one', `<${origin}?page=5>; rel="next", <${origin}?page=2>; rel="last"`],
		['no page parameter', `<${origin}?cursor=a>; rel="next", <${origin}?cursor=z>; rel="last"`],
		['no last link', `<${origin}?page=2>; rel="next"`],
		['a last page of 1e300', `<${origin}?page=2>; rel="next", <${origin}?page=1e300>; rel="last"`],
	])('plans nothing for %s, and still follows next', (_name, link) => {
		const page = read(users(2), { link });
		expect(page.plan).toBeUndefined();
		expect(page.next?.url).toBeDefined();
	});
});

/*
 * No clock here (a timed assertion fails on a busy machine): the inputs are a million characters, so a
 * scan that is quadratic in them would take hours and the suite would not end, while a linear one takes
 * milliseconds. The reader looks at the first 16 KB only (Node's HTTP client refuses larger headers
 * anyway). The regular expressions themselves are proven linear by recheck (test/package).
 */
describe('Link headers cost a linear scan, whatever they hold', () => {
	const MILLION = 1_000_000;
	it.each([
		['a million "<"', '<'.repeat(MILLION), null],
		['"<" then a million ">"', `<${'>'.repeat(MILLION)}`, null],
		['a million links without rel', '<a>;,'.repeat(MILLION / 5), null],
		['a rel of a million spaces', `<a>; rel="${' '.repeat(MILLION)}x"`, null],
		['a million ";"', `<a>${';'.repeat(MILLION)}`, null],
		['a next link after a million characters of other links', `${'<a>;,'.repeat(MILLION / 5)}<https://a/x?page=2>; rel="next"`, null],
	])('%s', (_name, header, next) => {
		expect(linkHeaderNext(header)).toBe(next);
	});

	it('keeps reading rel among other parameters', () => {
		expect(linkHeaderNext('<https://a/x?page=2>; title="x"; REL="prev next"')).toBe('https://a/x?page=2');
	});
});

it('marks an answer without a body, so the loop can tell it from an empty list', () => {
	expect(read(undefined)).toMatchObject({ bodyless: true, items: [] });
	expect(read('')).toMatchObject({ bodyless: true });
	expect(read([])).toMatchObject({ bodyless: false });
});
