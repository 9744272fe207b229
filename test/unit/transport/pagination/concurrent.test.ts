/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Pagination Concurrency's read-ahead, against a scripted service paging by number from 0 with a
 * fixed page size and no count (Support Board's shape): every record once, the first short page
 * ends the list, no more requests in flight than the concurrency, Limit and Max Pages respected, and
 * records past the end fail the list instead of being merged or dropped. Each answer is delayed
 * by a macrotask, so that requests in flight overlap as they would over a network.
 */
import type { RequestSpec } from '../../../../nodes/SupportChat/transport/types';
import { DEFAULT_PAGINATION } from '../../../../nodes/SupportChat/transport/pagination/styles';
import { paginate } from '../../../../nodes/SupportChat/transport/pagination/loop';
import type { SupportChatClient } from '../../../../nodes/SupportChat/transport/request';
import { ctx, failure, list, rec, scripted } from './scripted';

const SIZE = 10;
const settings = (overrides = {}) => ({
	...DEFAULT_PAGINATION,
	style: 'page' as const,
	pageSize: SIZE,
	limitParam: '',
	firstPage: 0,
	concurrency: 4,
	...overrides,
});

/**
 * A service holding `rows(page)` at each page number; counts the requests in flight. Each answer
 * waits a macrotask or two, varying by page, so that later pages may arrive first.
 */
function service(rows: (page: number) => unknown[]) {
	let inFlight = 0;
	let peak = 0;
	const pages: number[] = [];
	const { client } = scripted((_n, spec: RequestSpec) => {
		return { body: { data: rows(Number(spec.qs?.page ?? 0)) } };
	});
	const answer = client.request.bind(client);
	(client as { request: SupportChatClient['request'] }).request = async (spec) => {
		peak = Math.max(peak, ++inFlight);
		pages.push(Number(spec.qs?.page ?? 0));
		try {
			for (let i = 0; i <= Number(spec.qs?.page ?? 0) % 3; i++)
				await new Promise((resolve) => setImmediate(resolve));
			return await answer(spec);
		} finally {
			inFlight--;
		}
	};
	return { client, pages, peak: () => peak };
}

/** `total` records with ids 1…total, SIZE a page. */
const listOf = (total: number) => (page: number) => {
	const from = page * SIZE + 1;
	const to = Math.min(total, from + SIZE - 1);
	return to < from ? [] : rec(...Array.from({ length: to - from + 1 }, (_, i) => from + i));
};

describe('reading ahead by page number', () => {
	it.each([0, 9, 10, 11, 25, 40])(
		'returns each of %i records exactly once, in order, with at most 4 requests in flight',
		async (total) => {
			const { client, pages, peak } = service(listOf(total));
			const result = await paginate(ctx, client, list(), settings(), 0);
			expect(result.items).toEqual(rec(...Array.from({ length: total }, (_, i) => i + 1)));
			expect(peak()).toBeLessThanOrEqual(4);
			// Every page up to the first short one was asked for, then at most 3 read ahead past it.
			const needed = Math.floor(total / SIZE) + 1;
			expect(pages.slice(0, needed)).toEqual(Array.from({ length: needed }, (_, i) => i));
			expect(pages.length - needed).toBeLessThanOrEqual(total < SIZE ? 0 : 3);
			expect(new Set(pages).size).toBe(pages.length);
		},
	);

	it('reads the first page alone: a list of one page costs one request', async () => {
		const { client, pages } = service(listOf(7));
		await paginate(ctx, client, list(), settings(), 0);
		expect(pages).toEqual([0]);
	});

	it('keeps 4 requests in flight on a long list', async () => {
		const { client, peak } = service(listOf(200));
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toHaveLength(200);
		expect(peak()).toBe(4);
	});

	it('reads no further than Limit needs', async () => {
		const { client, pages } = service(listOf(100));
		const result = await paginate(ctx, client, list(15), settings(), 0);
		expect(result.items).toEqual(listOf(100)(0).concat(listOf(100)(1)).slice(0, 15));
		expect(pages).toEqual([0, 1]);
	});

	it('with a Limit of several pages, asks for those pages only', async () => {
		const { client, pages } = service(listOf(100));
		expect((await paginate(ctx, client, list(35), settings(), 0)).items).toHaveLength(35);
		expect(pages).toEqual([0, 1, 2, 3]);
	});

	it('fails when a page read past the short one brings records: no silent merge, no silent cut', async () => {
		const { client } = service((page) =>
			page === 2 ? rec(21, 22) : page === 3 ? rec(31) : listOf(100)(page),
		);
		const text = await failure(paginate(ctx, client, list(), settings(), 0));
		expect(text).toContain(
			'Page 4 of /users, read ahead, brought records after page 3 ended the list with 2 records (a full page holds 10)',
		);
		expect(text).toContain('Options → Pagination Concurrency');
	});

	it('takes pages past the end that only repeat records already served (a service ignoring the page number)', async () => {
		const { client } = service(() => rec(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
		expect((await paginate(ctx, client, list(), settings(), 0)).items).toEqual(
			rec(1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
		);
	});

	it('fails the whole list when one page fails, with no request left behind', async () => {
		const { client, peak } = service((page) => {
			if (page === 3) throw new Error('page 3 failed');
			return listOf(100)(page);
		});
		const answer = client.request.bind(client);
		let open = 0;
		(client as { request: SupportChatClient['request'] }).request = async (spec) => {
			open++;
			try {
				return await answer(spec);
			} finally {
				open--;
			}
		};
		await expect(paginate(ctx, client, list(), settings(), 0)).rejects.toThrow('page 3 failed');
		expect(open).toBe(0);
		expect(peak()).toBeLessThanOrEqual(4);
	});

	it('stays within Max Pages, and a list that ends within it succeeds', async () => {
		const ends = service(listOf(25));
		expect(
			(await paginate(ctx, ends.client, list(), settings({ maxPages: 3 }), 0)).items,
		).toHaveLength(25);
		expect(ends.pages).toEqual([0, 1, 2]);

		const longer = service(listOf(30));
		const text = await failure(paginate(ctx, longer.client, list(), settings({ maxPages: 3 }), 0));
		expect(text).toContain('Stopped after 3 pages (30 records)');
		expect(longer.pages).toEqual([0, 1, 2]);
	});

	it('does not read ahead with concurrency 1, nor without a page size', async () => {
		const one = service(listOf(25));
		await paginate(ctx, one.client, list(), settings({ concurrency: 1 }), 0);
		expect(one.peak()).toBe(1);
		const unsized = service(listOf(25));
		await paginate(ctx, unsized.client, list(), settings({ pageSize: 0 }), 0);
		expect(unsized.peak()).toBe(1);
		expect(unsized.pages).toEqual([0, 1, 2]);
	});
});
