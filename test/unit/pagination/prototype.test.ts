/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Words that also name Object.prototype members (issue 8, class 12), fed as keys and values of page
 * answers, as Items and Next Paths and as parameter names: readers look up own properties only, so each
 * answer reads sanely or fails with the documented PageShapeError.
 */
import type { PaginationSettings } from '../../../nodes/SupportChat/transport/pageShape';
import { getPath } from '../../../nodes/SupportChat/shared/json';
import { DEFAULT_PAGINATION, itemIdentity, PageShapeError, readPage } from '../../../nodes/SupportChat/transport/pageShape';
import { paginate } from '../../../nodes/SupportChat/transport/pagination';
import { bodies, ctx, scripted } from './scripted';

const NAMES = Object.getOwnPropertyNames(Object.prototype);
const request = { path: '/users', qs: {} };
const rows = [{ id: 1 }, { id: 2 }];

/** Reads the answer; a documented failure is an answer too. */
function outcome(body: unknown, settings: Partial<PaginationSettings> = {}, headers: Record<string, string> = {}) {
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

	it('as a Link relation or a records key, and in getPath and itemIdentity', () => {
		const link = outcome(rows, { style: 'nextUrl' }, { link: `</u?page=2>; rel="${name}"` });
		expect(link).toMatchObject({ detected: 'link' });
		expect((link as { next?: unknown }).next).toBeUndefined();
		expect(getPath({}, name)).toBeUndefined();
		expect(getPath({ a: {} }, `a.${name}`)).toBeUndefined();
		expect(itemIdentity({ [name]: 1 })).toBeUndefined();
	});

	it('through the whole loop ends or fails as documented', async () => {
		const { client } = scripted(bodies(JSON.parse(JSON.stringify({ data: rows, [name]: { next: name } })), { data: [] }));
		const result = await paginate(ctx, client, { list: 'users', query: {} }, DEFAULT_PAGINATION, 0).catch((e: Error) => e);
		if (result instanceof Error) expect(result.name).toBe('NodeApiError');
		else expect(result.items).toEqual(rows);
	});
});
