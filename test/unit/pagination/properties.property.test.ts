/**
 * Properties over arbitrary page answers (issue 8): whatever a service declares, paginate ends with
 * records or a NodeApiError, never another throw; no message or description shows the token in any
 * form; and the requests sent never exceed Max Pages.
 */
import fc from 'fast-check';

import { DEFAULT_PAGINATION, PageShapeError, readPage } from '../../../nodes/SupportChat/transport/pageShape';
import { paginate } from '../../../nodes/SupportChat/transport/pagination';
import type { Answer } from './scripted';
import { ctx, scripted, TOKEN } from './scripted';

const TOKEN_FORMS = [TOKEN, encodeURIComponent(TOKEN), Buffer.from(TOKEN).toString('base64'), Buffer.from(TOKEN).toString('base64url')];

const declared = fc.oneof(
	fc.integer({ min: -5, max: 50 }),
	fc.constantFrom(0, 1e9, 1e12, Number.MAX_SAFE_INTEGER, 2 ** 60, -1, 0.5, 1e308),
	fc.constantFrom('NaN', 'Infinity', '-1', '1e12', '', 'many'),
);
const pointer = fc.oneof(
	fc.constantFrom(null, false, '', TOKEN, `/users?cursor=${TOKEN}`, `x${Buffer.from(TOKEN).toString('base64')}`, '/users?page=2', 'https://elsewhere.example/x'),
	fc.integer(),
	fc.string({ maxLength: 8 }),
);
const record = fc.oneof(
	fc.record({ id: fc.integer({ min: 1, max: 30 }) }),
	fc.record({ name: fc.constantFrom('a', 'b', TOKEN) }),
	fc.constantFrom('constructor', 'x', TOKEN),
);
const keyName = fc.constantFrom(
	'data', 'items', 'users', 'next_cursor', 'cursor', 'next', 'next_page_url', 'has_more', 'page', 'total_pages', 'last_page',
	'total', 'per_page', 'offset', 'limit', 'meta', 'paging', 'cursors', 'after', TOKEN, 'constructor', '__proto__', 'toString',
);
const value = fc.oneof(declared, pointer, fc.array(record, { maxLength: 6 }), fc.boolean());
const pageObject = fc.dictionary(keyName, fc.oneof(value, fc.dictionary(keyName, value, { maxKeys: 4 })), { maxKeys: 8 });
const body = fc.oneof(pageObject, fc.array(record, { maxLength: 6 }), fc.constantFrom(undefined, null, '', TOKEN));
const link = fc.oneof(
	fc.constant(undefined),
	fc.constantFrom(
		`</u?page=2>; rel="next", </u?page=1000000000>; rel="last"`,
		`</u?c=${TOKEN}>; rel="next"`,
		'<'.repeat(2000),
		`<${'>'.repeat(2000)}; rel=next`,
	),
);
const answer: fc.Arbitrary<Answer> = fc.record({ body, headers: link.map((l): Record<string, string> => (l === undefined ? {} : { link: l })) });

const settings = fc.record({
	maxPages: fc.integer({ min: 1, max: 12 }),
	concurrency: fc.integer({ min: 1, max: 4 }),
	style: fc.constantFrom(...(['auto', 'auto', 'cursor', 'nextUrl', 'page', 'offset', 'hasMore'] as const)),
	nextPath: fc.constantFrom('', 'next_cursor', 'meta.next', 'constructor'),
	itemsPath: fc.constantFrom('', '', 'data', '__proto__'),
});

it('paginate ends with records or a NodeApiError, shows no token and sends at most Max Pages requests', async () => {
	await fc.assert(
		fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 6 }), settings, fc.option(fc.integer({ min: 1, max: 40 })), async (answers, chosen, limit) => {
			// An endless service: the answers cycle, whatever they promise.
			const { client, asked } = scripted((n) => answers[(n - 1) % answers.length]);
			const result = await paginate(ctx, client, { list: 'users' as const, query: {}, limit: limit ?? undefined }, { ...DEFAULT_PAGINATION, ...chosen }, 0).then(
				(list) => ({ list }),
				(error: unknown) => ({ error }),
			);
			expect(asked.length).toBeLessThanOrEqual(chosen.maxPages);
			if ('error' in result) {
				const error = result.error as { name?: string; message?: string; description?: string | null };
				expect(error.name).toBe('NodeApiError');
				const text = `${error.message ?? ''}\n${error.description ?? ''}`;
				for (const form of TOKEN_FORMS) expect(text).not.toContain(form);
			} else if (limit !== null) {
				expect(result.list.items.length).toBeLessThanOrEqual(limit);
			}
		}),
		{ numRuns: 400 },
	);
});

it('readPage throws nothing but PageShapeError, and works in time linear in the answer', () => {
	fc.assert(
		fc.property(answer, settings, (one, chosen) => {
			const started = performance.now();
			try {
				const page = readPage(one.body, one.headers ?? {}, { path: '/users', qs: {} }, { ...DEFAULT_PAGINATION, ...chosen });
				if (page.plan) page.plan.at(page.plan.count - 1);
			} catch (error) {
				expect(error).toBeInstanceOf(PageShapeError);
			}
			expect(performance.now() - started).toBeLessThan(50);
		}),
		{ numRuns: 1000 },
	);
});
