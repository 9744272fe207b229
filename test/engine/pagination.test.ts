/**
 * Pagination through the real engine: every page style the sandbox can serve is detected on its own,
 * Limit is exact across page boundaries, overrides work, and a service that loops is caught.
 */
import type { PaginationStyle, Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { jsonOf, runAction, TOKEN } from '../helpers/supportChat';

const USERS = 47;
const PAGE = 10;
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		token: TOKEN,
		pageSize: PAGE,
		seed: { users: USERS, conversations: 5 },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

const getUsers = (extra: Record<string, unknown> = {}) =>
	runAction(sandbox, { resource: 'user', operation: 'getAll', ...extra } as never);

/** Styles whose last page is known from the page itself: one request per page. */
const EXACT: PaginationStyle[] = [
	'link',
	'next-url',
	'links-next',
	'hal',
	'cursor',
	'cursor-meta',
	'has-more',
	'page',
	'offset',
];
/** Styles without an end marker: the node asks once more and gets an empty or short page. */
const GUESSED: PaginationStyle[] = ['array', 'page-nototal', 'offset-nototal', 'header-total'];
const pages = Math.ceil(USERS / PAGE);

describe.each([...EXACT, ...GUESSED])('automatic detection of the "%s" style', (style) => {
	beforeEach(() => sandbox.configure({ pagination: style }));

	it('returns every record once, in order, with Return All', async () => {
		const run = await getUsers({ returnAll: true });
		expect(run.status).toBe('success');
		expect(jsonOf(run).map((u) => u.id)).toEqual(sandbox.state.users.map((u) => u.id));
		// 47 records in pages of 10 end on a short page, so even guessing styles stop without an extra request.
		expect(sandbox.requests).toHaveLength(pages);
	});

	it('stops exactly at Limit across a page boundary', async () => {
		const run = await getUsers({ returnAll: false, limit: 23 });
		expect(jsonOf(run).map((u) => u.id)).toEqual(sandbox.state.users.slice(0, 23).map((u) => u.id));
		expect(sandbox.requests).toHaveLength(3);
	});

	it('pairs every output item with the input item', async () => {
		const run = await getUsers({ returnAll: true });
		expect(new Set(run.output('Support Chat').map((i) => JSON.stringify(i.pairedItem)))).toEqual(
			new Set(['{"item":0}']),
		);
	});
});

it.each(['data', 'success-response'] as const)(
	'unwraps the "%s" envelope on pages and single records',
	async (envelope) => {
		sandbox.configure({ pagination: 'page', envelope });
		const list = await getUsers({ returnAll: true });
		expect(jsonOf(list)).toHaveLength(USERS);
		const target = sandbox.state.users[5];
		const one = await runAction(sandbox, {
			resource: 'user',
			operation: 'get',
			userId: { __rl: true, mode: 'id', value: target.id },
		});
		expect(jsonOf(one)).toEqual([expect.objectContaining({ id: target.id, name: target.name })]);
	},
);

it('needs one extra request when the last page is full and nothing says it is the last', async () => {
	sandbox.seed({ users: 40, conversations: 0 });
	sandbox.configure({ pagination: 'array' });
	const run = await getUsers({ returnAll: true });
	expect(jsonOf(run)).toHaveLength(40);
	expect(sandbox.requests.map((r) => r.query.page)).toEqual([undefined, '2', '3', '4', '5']);
});

describe('a service that answers 404 for a page past the last (Django REST Framework)', () => {
	// 40 users in pages of 10: page 4 is full and says nothing of the end, so page 5 is a guess.
	beforeEach(() => {
		sandbox.seed({ users: 40, conversations: 0 });
		sandbox.configure({ pagination: 'page-nototal-404' });
	});

	it('ends the list at the 404, one page at a time', async () => {
		const run = await getUsers({ returnAll: true });
		expect(run.status).toBe('success');
		expect(jsonOf(run).map((u) => u.id)).toEqual(sandbox.state.users.map((u) => u.id));
		expect(sandbox.requests.map((r) => [r.query.page, r.status])).toEqual([
			[undefined, 200],
			['2', 200],
			['3', 200],
			['4', 200],
			['5', 404],
		]);
	});

	it('ends the list at the 404 when pages are read ahead', async () => {
		const run = await getUsers({ returnAll: true, options: { concurrency: 4, pageSize: PAGE } });
		expect(run.status).toBe('success');
		expect(jsonOf(run).map((u) => u.id)).toEqual(sandbox.state.users.map((u) => u.id));
		expect(sandbox.requests.filter((r) => r.status === 404).length).toBeGreaterThan(0);
	});

	it('still fails on a 404 that is an HTML page (a proxy or the server, not the API)', async () => {
		sandbox.fault({ path: '/users', pagination: 5, kind: 'html', status: 404 });
		const run = await getUsers({ returnAll: true });
		expect(run.status).toBe('error');
		expect(sandbox.requests.map((r) => r.query.page)).toEqual([undefined, '2', '3', '4', '5']);
	});

	it('still fails on a 404 for the first page', async () => {
		sandbox.fault({ path: '/users', kind: 'status', status: 404 });
		const run = await getUsers({ returnAll: true });
		expect(run.status).toBe('error');
		expect(run.error('Support Chat')?.message).toMatch(/404|not found/i);
	});
});

it('still fails a list on a 404 for a page the service declared', async () => {
	sandbox.configure({ pagination: 'page' });
	sandbox.fault({ path: '/users', pagination: 3, kind: 'status', status: 404 });
	const run = await getUsers({ returnAll: true });
	expect(run.status).toBe('error');
	expect(sandbox.requests.map((r) => r.query.page)).toEqual([undefined, '2', '3']);
});

it('makes one request for a service that does not paginate, and a second to be sure', async () => {
	sandbox.configure({ pagination: 'none' });
	const run = await getUsers({ returnAll: true });
	expect(jsonOf(run)).toHaveLength(USERS);
	// page=2 comes back identical: the service ignores the parameter, so the list was whole.
	expect(sandbox.requests).toHaveLength(2);
});

it('makes exactly one request with the style set to "No Pagination"', async () => {
	sandbox.configure({ pagination: 'none' });
	const run = await getUsers({ returnAll: true, options: { paginationStyle: 'none' } });
	expect(jsonOf(run)).toHaveLength(USERS);
	expect(sandbox.requests).toHaveLength(1);
});

it('uses the page size and parameter names the user sets', async () => {
	sandbox.configure({ pagination: 'offset-nototal' });
	const run = await getUsers({
		returnAll: true,
		options: {
			paginationStyle: 'offset',
			offsetParam: 'offset',
			limitParam: 'limit',
			pageSize: 25,
		},
	});
	expect(jsonOf(run)).toHaveLength(USERS);
	expect(sandbox.requests.map((r) => [r.query.offset, r.query.limit])).toEqual([
		[undefined, '25'],
		['25', '25'],
	]);
});

it('reads records at a custom Items Path and a cursor at a custom Next Path', async () => {
	sandbox.configure({ pagination: 'cursor-meta', envelope: 'success-response' });
	const run = await getUsers({
		returnAll: true,
		options: {
			paginationStyle: 'cursor',
			itemsPath: 'response.users',
			nextPath: 'response.meta.next_cursor',
			cursorParam: 'cursor',
		},
	});
	expect(jsonOf(run)).toHaveLength(USERS);
});

it('fetches following pages a few at a time when the page count is known, same records', async () => {
	sandbox.configure({ pagination: 'page' });
	const run = await getUsers({ returnAll: true, options: { concurrency: 4 } });
	expect(jsonOf(run).map((u) => u.id)).toEqual(sandbox.state.users.map((u) => u.id));
	expect(sandbox.requests).toHaveLength(pages);
});

it('with concurrency, still stops exactly at Limit and asks only for the pages it needs', async () => {
	sandbox.configure({ pagination: 'offset' });
	const run = await getUsers({ returnAll: false, limit: 15, options: { concurrency: 4 } });
	expect(jsonOf(run).map((u) => u.id)).toEqual(sandbox.state.users.slice(0, 15).map((u) => u.id));
	expect(sandbox.requests).toHaveLength(2);
});

describe('a service that loops', () => {
	it.each(['cursor', 'next-url', 'page'] as const)(
		'fails clearly when the "%s" pointer repeats, instead of looping',
		async (style) => {
			sandbox.configure({ pagination: style });
			sandbox.fault({ path: '/users', kind: 'repeat-cursor' });
			const run = await getUsers({ returnAll: true });
			expect(run.status).toBe('error');
			expect(run.error('Support Chat')).toMatchObject({
				name: 'NodeApiError',
				message: expect.stringMatching(/same page .* again|pointed back to a page/),
			});
			expect(sandbox.requests.length).toBeLessThanOrEqual(3);
		},
	);

	it('fails when Max Pages is reached with more to come, saying how to go on', async () => {
		sandbox.configure({ pagination: 'cursor' });
		const run = await getUsers({ returnAll: true, options: { maxPages: 2 } });
		expect(run.error('Support Chat')).toMatchObject({
			message: expect.stringContaining('Stopped after 2 pages (20 records)'),
			description: expect.stringContaining('Max Pages'),
		});
		expect(sandbox.requests).toHaveLength(2);
	});
});

it('says where the records could not be found when the page shape is unknown', async () => {
	sandbox.configure({ pagination: 'page' });
	const run = await getUsers({ returnAll: true, options: { itemsPath: 'nothing.here' } });
	expect(run.error('Support Chat')).toMatchObject({
		message: expect.stringContaining('No list found at Items Path "nothing.here"'),
	});
});
