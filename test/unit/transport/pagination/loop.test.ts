/**
 * The pagination loop against scripted pages: the cases a well-behaved sandbox does not produce
 * (records shifting between pages, a total that is never reached).
 */

import fc from 'fast-check';

import { DEFAULT_PAGINATION } from '../../../../nodes/SupportChat/transport/pagination/styles';
import { paginate } from '../../../../nodes/SupportChat/transport/pagination/loop';
import { answer, settings as chosenSettings, TOKEN_FORMS } from './arbitraries';
import { bodies, ctx, list, rec, scripted } from './scripted';

it('drops a record that shifted onto the next page', async () => {
	const { client } = scripted(
		bodies(
			{ data: rec(1, 2, 3), next_cursor: 'b' },
			{ data: rec(3, 4, 5), next_cursor: 'c' },
			{ data: rec(6), next_cursor: null },
		),
	);
	const result = await paginate(ctx, client, list(), DEFAULT_PAGINATION, 0);
	expect(result.items).toEqual(rec(1, 2, 3, 4, 5, 6));
	expect(result.pages).toBe(3);
});

it('keeps records without ids, which it cannot compare', async () => {
	const { client } = scripted(bodies({ data: [{ n: 'a' }, { n: 'a' }], next_cursor: null }));
	expect((await paginate(ctx, client, list(), DEFAULT_PAGINATION, 0)).items).toHaveLength(2);
});

it('fails when a page number service never reaches the total it reports', async () => {
	const { client } = scripted(bodies({ data: rec(1, 2), total: 5 }, { data: rec(1, 2), total: 5 }));
	await expect(paginate(ctx, client, list(), DEFAULT_PAGINATION, 0)).rejects.toThrow(
		'The service reports 5 records in /users but only 2 could be fetched',
	);
});

it('fails when the service says there is more but serves the same records again', async () => {
	const { client } = scripted(
		bodies({ data: rec(1, 2), next_cursor: 'a' }, { data: rec(1, 2), next_cursor: 'b' }),
	);
	await expect(paginate(ctx, client, list(), DEFAULT_PAGINATION, 0)).rejects.toThrow(
		'The service served the same page of /users again after 2 records while saying there are more',
	);
});

// Issue 8 (Return All never silently returns less): an empty page that still points further is
// followed, no longer taken as the end. It used to stop after 2 requests with rec(1).
it('follows an empty page that still gives a cursor, and stops where the service says', async () => {
	const { client, asked } = scripted(
		bodies(
			{ data: rec(1), next_cursor: 'a' },
			{ data: [], next_cursor: 'b' },
			{ data: rec(2), next_cursor: null },
		),
	);
	expect((await paginate(ctx, client, list(), DEFAULT_PAGINATION, 0)).items).toEqual(rec(1, 2));
	expect(asked).toHaveLength(3);
});

it('cuts the last page to Limit and asks for no further page', async () => {
	const { client, asked } = scripted(
		bodies({ data: rec(1, 2, 3), next_cursor: 'a' }, { data: rec(4, 5, 6), next_cursor: 'b' }),
	);
	expect((await paginate(ctx, client, list(4), DEFAULT_PAGINATION, 0)).items).toEqual(
		rec(1, 2, 3, 4),
	);
	expect(asked).toHaveLength(2);
});

it('sends the page size under the parameter name given, only on the first request', async () => {
	const { client, asked } = scripted(
		bodies({ data: rec(1), next: '/script/include/api/users?cursor=x&per_page=1' }, { data: [] }),
	);
	await paginate(
		ctx,
		client,
		list(),
		{ ...DEFAULT_PAGINATION, pageSize: 1, limitParam: 'per_page' },
		0,
	);
	expect(asked[0].qs).toEqual({ per_page: 1 });
	expect(asked[1]).toMatchObject({ url: '/script/include/api/users?cursor=x&per_page=1', qs: {} });
});

describe('with concurrency', () => {
	const paged = (page: number) => ({ data: rec(page * 2 - 1, page * 2), page, total_pages: 5 });
	const settings = { ...DEFAULT_PAGINATION, concurrency: 3 };

	it('takes the pages in order however they arrive', async () => {
		const { client, asked } = scripted(bodies(...[1, 2, 3, 4, 5].map(paged)));
		const result = await paginate(ctx, client, list(), settings, 0);
		expect(result.items).toEqual(rec(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
		expect(asked.map((a) => a.qs)).toEqual([
			{},
			{ page: 2 },
			{ page: 3 },
			{ page: 4 },
			{ page: 5 },
		]);
	});

	it('fails with the error of the page that failed, and leaves no rejection unobserved', async () => {
		const { client } = scripted(bodies(paged(1), paged(2)));
		await expect(paginate(ctx, client, list(), settings, 0)).rejects.toThrow(
			'unexpected request #3',
		);
	});

	it('asks only for the pages Limit needs', async () => {
		const { client, asked } = scripted(bodies(...[1, 2, 3, 4, 5].map(paged)));
		expect((await paginate(ctx, client, list(5), settings, 0)).items).toEqual(rec(1, 2, 3, 4, 5));
		expect(asked).toHaveLength(3);
	});
});

describe('any answers (properties, issue 8)', () => {
	/*
	 * Properties over arbitrary page answers (issue 8): whatever a service declares, paginate ends with
	 * records or a NodeApiError, never another throw; no message or description shows the token in any
	 * form; and the requests sent never exceed Max Pages.
	 */
	it('paginate ends with records or a NodeApiError, shows no token and sends at most Max Pages requests', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(answer, { minLength: 1, maxLength: 6 }),
				chosenSettings,
				fc.option(fc.integer({ min: 1, max: 40 })),
				async (answers, chosen, limit) => {
					// An endless service: the answers cycle, whatever they promise.
					const { client, asked } = scripted((n) => answers[(n - 1) % answers.length]);
					const result = await paginate(
						ctx,
						client,
						{ list: 'users' as const, query: {}, limit: limit ?? undefined },
						{ ...DEFAULT_PAGINATION, ...chosen },
						0,
					).then(
						(list) => ({ list }),
						(error: unknown) => ({ error }),
					);
					expect(asked.length).toBeLessThanOrEqual(chosen.maxPages);
					if ('error' in result) {
						const error = result.error as {
							name?: string;
							message?: string;
							description?: string | null;
						};
						expect(error.name).toBe('NodeApiError');
						const text = `${error.message ?? ''}\n${error.description ?? ''}`;
						for (const form of TOKEN_FORMS) expect(text).not.toContain(form);
					} else if (limit !== null) {
						expect(result.list.items.length).toBeLessThanOrEqual(limit);
					}
				},
			),
			{ numRuns: 400 },
		);
	});
});

describe('Object.prototype names (issue 8, class 12)', () => {
	const rows = [{ id: 1 }, { id: 2 }];

	describe.each(Object.getOwnPropertyNames(Object.prototype))('"%s"', (name) => {
		it('through the whole loop ends or fails as documented', async () => {
			const { client } = scripted(
				bodies(JSON.parse(JSON.stringify({ data: rows, [name]: { next: name } })), { data: [] }),
			);
			const result = await paginate(
				ctx,
				client,
				{ list: 'users', query: {} },
				DEFAULT_PAGINATION,
				0,
			).catch((e: Error) => e);
			if (result instanceof Error) expect(result.name).toBe('NodeApiError');
			else expect(result.items).toEqual(rows);
		});
	});
});
