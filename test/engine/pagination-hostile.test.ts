/**
 * Pagination against a service that lies (issue 8), through the real engine: huge declared counts,
 * numeric cursors, a total never reached, id-less pages that begin and end alike, an empty body after a
 * page promising more, the token echoed as a cursor. What a user sees, and the requests sent.
 */
import type { HostilePaginationStyle, PaginationStyle, Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { jsonOf, runAction, TOKEN } from '../helpers/supportChat';

const USERS = 47;
const PAGE = 10;
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		token: TOKEN,
		pageSize: PAGE,
		seed: { users: USERS, conversations: 0 },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

const getUsers = (extra: Record<string, unknown> = {}, credentials?: Record<string, string>) =>
	runAction(sandbox, { resource: 'user', operation: 'getAll', ...extra } as never, { credentials });
const use = (pagination: PaginationStyle | HostilePaginationStyle) =>
	sandbox.configure({ pagination });
const ids = () => sandbox.state.users.map((u) => u.id);
const query = (name: string) => sandbox.requests.map((r) => r.query[name]);

/** Everything the user can read of a failure. */
function shown(run: Awaited<ReturnType<typeof getUsers>>): string {
	const error = run.error('Support Chat') as
		| { message?: string; description?: string | null }
		| undefined;
	return `${error?.message ?? ''}\n${error?.description ?? ''}`;
}

describe('a page declaring an enormous page count or total', () => {
	it.each([
		['huge-total', /1000000000 pages/],
		['offset-huge-total', /1000000000000 records/],
	] as const)(
		'"%s" with Return All fails at once, naming what was declared and Max Pages',
		async (style, declared) => {
			use(style);
			const started = Date.now();
			const run = await getUsers({ returnAll: true });
			expect(Date.now() - started).toBeLessThan(5_000);
			expect(run.status).toBe('error');
			expect(run.error('Support Chat')).toMatchObject({
				name: 'NodeApiError',
				message: expect.stringMatching(declared),
			});
			expect(shown(run)).toMatch(/Max Pages \(10000\)/);
			expect(shown(run)).toMatch(/set a Limit/);
			expect(sandbox.requests).toHaveLength(1);
		},
	);

	it.each(['huge-total', 'offset-huge-total'] as const)(
		'"%s" with a Limit returns exactly Limit, with or without concurrency',
		async (style) => {
			use(style);
			const sequential = await getUsers({ returnAll: false, limit: 15 });
			expect(jsonOf(sequential).map((u) => u.id)).toEqual(ids().slice(0, 15));
			expect(sandbox.requests).toHaveLength(2);
			sandbox.clearLog();
			const concurrent = await getUsers({
				returnAll: false,
				limit: 25,
				options: { concurrency: 4 },
			});
			expect(jsonOf(concurrent).map((u) => u.id)).toEqual(ids().slice(0, 25));
			expect(sandbox.requests).toHaveLength(3);
		},
	);

	it('with Max Pages above the real count but below the declared one, still fails before fetching', async () => {
		use('huge-total');
		const run = await getUsers({ returnAll: true, options: { maxPages: 50, concurrency: 8 } });
		expect(shown(run)).toMatch(/1000000000 pages.*Max Pages \(50\)/);
		expect(sandbox.requests).toHaveLength(1);
	});
});

it('follows numeric cursors to the end of the list', async () => {
	use('numeric-cursor');
	const run = await getUsers({ returnAll: true });
	expect(run.status).toBe('success');
	expect(jsonOf(run).map((u) => u.id)).toEqual(ids());
	expect(query('cursor')).toEqual([undefined, '10', '20', '30', '40']);
});

describe('a total the service declares and never reaches', () => {
	it('fails with Return All, saying what was declared, what was received and what to set', async () => {
		use('lying-total');
		const run = await getUsers({ returnAll: true });
		expect(run.status).toBe('error');
		expect(run.error('Support Chat')).toMatchObject({
			message: expect.stringContaining(
				`The service reports ${USERS + 5} records in /users but only ${USERS} could be fetched`,
			),
			description: expect.stringContaining('Options → Pagination Style'),
		});
		// Five full or short pages, then the offset the total promised, which comes back empty.
		expect(query('offset')).toEqual([undefined, '10', '20', '30', '40', '47']);
	});

	it('is no failure when Limit is below it', async () => {
		use('lying-total');
		const run = await getUsers({ returnAll: false, limit: 20 });
		expect(jsonOf(run).map((u) => u.id)).toEqual(ids().slice(0, 20));
	});
});

describe('a count declared in a response header (issue 20)', () => {
	it('an X-Total-Count never reached fails Return All, as a total in the body does', async () => {
		use('header-lying-total');
		const run = await getUsers({ returnAll: true });
		expect(run.status).toBe('error');
		expect(run.error('Support Chat')).toMatchObject({
			message: expect.stringContaining(
				`The service reports ${USERS + 5} records in /users but only ${USERS} could be fetched`,
			),
			description: expect.stringContaining('Options → Pagination Style'),
		});
		expect(query('page')).toEqual([undefined, '2', '3', '4', '5']);
	});

	it('an X-Total-Count is no failure when Limit is below it', async () => {
		use('header-lying-total');
		const run = await getUsers({ returnAll: false, limit: 20 });
		expect(jsonOf(run).map((u) => u.id)).toEqual(ids().slice(0, 20));
	});

	it('an empty page before the end a Content-Range declares fails there, instead of returning a shorter list', async () => {
		use('empty-middle-page');
		const run = await getUsers({ returnAll: true });
		expect(run.status).toBe('error');
		expect(run.error('Support Chat')).toMatchObject({
			name: 'NodeApiError',
			message: expect.stringContaining(
				`The service reports ${USERS} records in /users but only ${PAGE} could be fetched: page 2 came back empty`,
			),
			description: expect.stringContaining('Options → Pagination Style'),
		});
		expect(query('page')).toEqual([undefined, '2']);
	});

	it('an empty page before the declared end fails a Limit past it too: records after the gap would not be the first ones', async () => {
		use('empty-middle-page');
		const run = await getUsers({ returnAll: false, limit: 25 });
		expect(run.status).toBe('error');
		expect(shown(run)).toMatch(/page 2 came back empty/);
	});
});

it('reads every page of id-less records whose first and last rows repeat on every page', async () => {
	use('no-id-edges');
	const run = await getUsers({ returnAll: true });
	expect(run.status).toBe('success');
	const rows = jsonOf(run);
	expect(rows.filter((r) => r.section === undefined).map((r) => r.email)).toEqual(
		sandbox.state.users.map((u) => u.email),
	);
	expect(rows.filter((r) => r.section !== undefined)).toHaveLength(2 * Math.ceil(USERS / PAGE));
	expect(query('page')).toEqual([undefined, '2', '3', '4', '5']);
});

it('fails when page 2 comes back without a body after page 1 promised more', async () => {
	use('empty-after-more');
	const run = await getUsers({ returnAll: true });
	expect(run.status).toBe('error');
	expect(run.error('Support Chat')).toMatchObject({
		name: 'NodeApiError',
		message: expect.stringMatching(/empty|without a body/i),
	});
	expect(query('page')).toEqual([undefined, '2']);
});

it('never shows the token when the service echoes it as the next cursor', async () => {
	use('cursor');
	// The cursor style's cursor after the 10th user, made the token: the service hands the token back as
	// the next cursor, then (repeat fault from request 2 on) serves that same pointer again. The client
	// masks it in the answer, so what goes back is "[redacted]", which the service refuses.
	const echoed = Buffer.from(`after:${sandbox.state.users[PAGE - 1].id}`, 'utf8').toString(
		'base64url',
	);
	sandbox.configure({ token: echoed });
	sandbox.fault({ path: '/users', kind: 'slow', delayMs: 0, times: 1 });
	sandbox.fault({ path: '/users', kind: 'repeat-cursor' });
	const run = await getUsers({ returnAll: true }, { apiToken: echoed });
	expect(run.status).toBe('error');
	expect(shown(run)).not.toContain(echoed);
	expect(shown(run)).not.toContain(Buffer.from(echoed).toString('base64'));
	expect(sandbox.requests.length).toBeLessThanOrEqual(3);
});

it('fetches the pages a Link rel="last" announces a few at a time with Pagination Concurrency', async () => {
	use('link');
	// Every answer takes 300 ms: fetched one by one, page 5 would arrive 900 ms after page 2.
	sandbox.fault({ path: '/users', kind: 'slow', delayMs: 300, times: 5 });
	const run = await getUsers({ returnAll: true, options: { concurrency: 4 } });
	expect(jsonOf(run).map((u) => u.id)).toEqual(ids());
	expect(sandbox.requests).toHaveLength(5);
	const [, second, , , fifth] = sandbox.requests;
	expect(fifth.time - second.time).toBeLessThan(250);
});
