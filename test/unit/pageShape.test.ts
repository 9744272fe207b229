import type { PagePlan, PageRequest, PaginationSettings } from '../../nodes/SupportChat/transport/pageShape';
import {
	DEFAULT_PAGINATION,
	linkHeaderNext,
	PageShapeError,
	readPage,
} from '../../nodes/SupportChat/transport/pageShape';

const users = (from: number, count: number) =>
	Array.from({ length: count }, (_, i) => ({ id: `u${from + i}`, name: `User ${from + i}` }));
const first: PageRequest = { path: '/users', qs: {} };
const auto = DEFAULT_PAGINATION;
const forced = (overrides: Partial<PaginationSettings>): PaginationSettings => ({ ...auto, ...overrides });
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
		['a {success, response} envelope around an array', { success: true, response: users(1, 3) }, 'response'],
		['a {success, response} envelope around a page', { success: true, response: { users: users(1, 3), page: 1 } }, 'response.users'],
		['HAL _embedded', { _embedded: { users: users(1, 3) }, _links: {} }, '_embedded.users'],
		['the one array under an unknown key', { contacts_list: users(1, 3), total: 3 }, 'contacts_list'],
		['data.users nested', { data: { users: users(1, 3), next_cursor: null } }, 'data.users'],
	])('in %s', (_name, body, at) => {
		const page = readPage(body, {}, first, auto);
		expect(page.items).toHaveLength(3);
		expect(page.itemsAt).toBe(at);
	});

	it('at a path the user gives', () => {
		const body = { payload: { list: { entries: users(1, 2) } } };
		expect(readPage(body, {}, first, forced({ itemsPath: 'payload.list.entries' })).items).toHaveLength(2);
	});

	it.each([
		['an object without a list', { id: 1, name: 'x' }, /Could not find the list of records.*keys id, name/],
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
		['a Link header', users(1, 2), { link: `<${origin}/users?page=2>; rel="next", <${origin}/users?page=9>; rel="last"` }, { detected: 'link', next: { url: `${origin}/users?page=2`, qs: {} } }],
		['next_page_url (Laravel)', { data: users(1, 2), next_page_url: `${origin}/users?page=2`, current_page: 1, last_page: 5 }, {}, { detected: 'nextUrl', next: { url: `${origin}/users?page=2`, qs: {} } }],
		['links.next (JSON:API)', { data: users(1, 2), links: { self: 'x', next: '/script/include/api/users?page=2' } }, {}, { detected: 'nextUrl', next: { url: '/script/include/api/users?page=2', qs: {} } }],
		['_links.next.href (HAL)', { _embedded: { users: users(1, 2) }, _links: { next: { href: `${origin}/users?page=2` } } }, {}, { detected: 'nextUrl', next: { url: `${origin}/users?page=2`, qs: {} } }],
		['paging.next', { data: users(1, 2), paging: { next: `${origin}/users?after=u2` } }, {}, { detected: 'nextUrl' }],
		['next_cursor', { data: users(1, 2), next_cursor: 'abc' }, {}, { detected: 'cursor', next: { path: '/users', qs: { cursor: 'abc' } } }],
		['meta.next_cursor', { users: users(1, 2), meta: { next_cursor: 'abc' } }, {}, { detected: 'cursor', next: { path: '/users', qs: { cursor: 'abc' } } }],
		['meta.cursor.next', { users: users(1, 2), meta: { cursor: { next: 'abc' } } }, {}, { detected: 'cursor', next: { path: '/users', qs: { cursor: 'abc' } } }],
		['next_page_token', { items: users(1, 2), next_page_token: 't2' }, {}, { detected: 'cursor', next: { path: '/users', qs: { page_token: 't2' } } }],
		['a bare cursor', { data: users(1, 2), cursor: 'c2' }, {}, { detected: 'cursor', next: { path: '/users', qs: { cursor: 'c2' } } }],
		['has_more with the last id (Stripe)', { object: 'list', data: users(1, 2), has_more: true }, {}, { detected: 'hasMore', next: { path: '/users', qs: { starting_after: 'u2' } } }],
		['page with total_pages', { users: users(1, 2), page: 1, per_page: 2, total_pages: 3 }, {}, { detected: 'page', explicit: true, next: { path: '/users', qs: { page: 2 } }, plan: { count: 2 } }],
		['page with total and per_page', { results: users(1, 2), page: 2, per_page: 2, total: 5 }, {}, { detected: 'page', explicit: true, next: { path: '/users', qs: { page: 3 } } }],
		['page without totals', { results: users(1, 2), page: 1 }, {}, { detected: 'page', explicit: false, next: { path: '/users', qs: { page: 2 } } }],
		['offset with total', { items: users(1, 2), offset: 0, limit: 2, total: 5 }, {}, { detected: 'offset', explicit: true, next: { path: '/users', qs: { offset: 2 } }, plan: { count: 2 } }],
		['offset without total', { records: users(1, 2), offset: 4, limit: 2 }, {}, { detected: 'offset', explicit: false, next: { path: '/users', qs: { offset: 6 } } }],
		['nothing at all: probe page 2', users(1, 2), {}, { detected: 'probe', explicit: false, next: { path: '/users', qs: { page: 2 } } }],
	])('from %s', (_name, body, headers, expected) => {
		expect(readPage(body, headers, first, auto)).toMatchObject(expected);
	});

	it.each<[string, unknown, Record<string, string>?]>([
		['a Link header without next', users(1, 2), { link: '<https://x/users?page=1>; rel="first"' }],
		['next_page_url null', { data: users(1, 2), next_page_url: null, current_page: 3, last_page: 3 }],
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
		const page = readPage({ results: users(1, 2), page: 1 }, {}, { path: '/conversations', qs: { status: 'open' } }, auto);
		expect(page.next).toEqual({ path: '/conversations', url: undefined, qs: { status: 'open', page: 2 } });
	});

	it('counts from the page number it sent when the body does not say', () => {
		const page = readPage(users(5, 2), {}, { path: '/users', qs: { page: 3 } }, auto);
		expect(page.next?.qs).toEqual({ page: 4 });
	});

	it.each<[string, unknown, string, unknown[]]>([
		['page with total_pages', { users: users(1, 2), page: 1, per_page: 2, total_pages: 3 }, 'page', [2, 3]],
		['offset with total', { items: users(1, 2), offset: 0, limit: 2, total: 5 }, 'offset', [2, 4]],
	])('plans the remaining pages of %s', (_name, body, param, values) => {
		expect(planned(readPage(body, {}, first, auto).plan, param)).toEqual({ param, values });
	});

	it('honours pages counted from 0', () => {
		const page = readPage({ users: users(1, 2), page: 0, total_pages: 2 }, {}, first, forced({ firstPage: 0 }));
		expect(planned(page.plan, 'page')).toEqual({ param: 'page', values: [1] });
	});
});

describe('readPage with a forced style', () => {
	it('uses the parameter names the user gives', () => {
		const page = readPage({ data: users(1, 2), meta: { after: 'zz' } }, {}, first, forced({ style: 'cursor', nextPath: 'meta.after', cursorParam: 'after_id' }));
		expect(page.next?.qs).toEqual({ after_id: 'zz' });
	});

	it('ignores the body for "none"', () => {
		expect(readPage({ data: users(1, 2), next_cursor: 'x' }, {}, first, forced({ style: 'none' })).next).toBeUndefined();
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
		expect(() => readPage({ data: users(1, 2) }, {}, first, forced({ style: 'cursor' }))).toThrow(/no cursor.*Next Path/);
	});

	it('fails when has_more is true but nothing says where to continue', () => {
		expect(() => readPage({ data: [{ name: 'no id' }], has_more: true }, {}, first, auto)).toThrow(/last record has no id/);
	});
});

describe('linkHeaderNext', () => {
	it.each([
		['<https://a/x?page=2>; rel="next"', 'https://a/x?page=2'],
		['<https://a/x?page=1>; rel="prev", <https://a/x?page=3>; rel=next', 'https://a/x?page=3'],
		['<https://a/x?a=1,2>; rel="next"', 'https://a/x?a=1,2'],
		['<https://a/x?page=1>; rel="first"', null],
		['', undefined],
	])('%s', (header, expected) => {
		expect(linkHeaderNext(header)).toBe(expected);
	});
});
