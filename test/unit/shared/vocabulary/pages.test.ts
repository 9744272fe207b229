import {
	HAS_MORE_KEYS,
	LIST_KEYS,
	PAGE_COUNT_HEADERS,
	PER_PAGE_KEYS,
	RECORD_RANGE_UNITS,
	TOTAL_HEADERS,
	TOTAL_KEYS,
} from '../../../../nodes/SupportChat/shared/vocabulary/pages';
import { DEFAULT_PAGINATION } from '../../../../nodes/SupportChat/transport/pagination/styles';
import { findItems } from '../../../../nodes/SupportChat/transport/pagination/locate';
import { readPage } from '../../../../nodes/SupportChat/transport/pagination/readPage';

const request = { path: '/users', qs: {} };

describe('the service vocabulary', () => {
	it.each([
		['LIST_KEYS', LIST_KEYS],
		['TOTAL_KEYS', TOTAL_KEYS],
		['PER_PAGE_KEYS', PER_PAGE_KEYS],
		['HAS_MORE_KEYS', HAS_MORE_KEYS],
		['TOTAL_HEADERS', TOTAL_HEADERS],
		['PAGE_COUNT_HEADERS', PAGE_COUNT_HEADERS],
		['RECORD_RANGE_UNITS', RECORD_RANGE_UNITS],
	])('%s names each key once', (_, keys) => {
		expect(new Set(keys).size).toBe(keys.length);
	});

	it.each(LIST_KEYS)('a list under %s is a page of records', (key) => {
		expect(findItems({ [key]: [{ id: 1 }], other: [1] }, '').at).toBe(key);
	});

	it.each(TOTAL_KEYS)('%s declares the total', (key) => {
		expect(readPage({ data: [{ id: 1 }], [key]: 9 }, {}, request, DEFAULT_PAGINATION).total).toBe(
			9,
		);
	});

	it.each(TOTAL_HEADERS)('the %s header declares the total', (name) => {
		expect(readPage([{ id: 1 }], { [name]: '9' }, request, DEFAULT_PAGINATION).total).toBe(9);
	});

	it.each(PAGE_COUNT_HEADERS)('the %s header declares the page count', (name) => {
		expect(readPage([{ id: 1 }], { [name]: '4' }, request, DEFAULT_PAGINATION).pages).toMatchObject(
			{ after: 3, declared: '4 pages' },
		);
	});

	it.each(RECORD_RANGE_UNITS)(
		'a Content-Range in "%s" declares the total after its slash',
		(unit) => {
			expect(
				readPage(
					[{ id: 1 }],
					{ 'content-range': `${unit} 0-0/9`.trim() },
					request,
					DEFAULT_PAGINATION,
				).total,
			).toBe(9);
		},
	);

	it.each(PER_PAGE_KEYS)('%s declares the page size', (key) => {
		expect(
			readPage({ data: [{ id: 1 }], [key]: 7 }, {}, request, DEFAULT_PAGINATION).pageSize,
		).toBe(7);
	});

	it.each(HAS_MORE_KEYS)('%s: false ends the list', (key) => {
		expect(
			readPage({ data: [{ id: 1 }], [key]: false }, {}, request, DEFAULT_PAGINATION).next,
		).toBeUndefined();
	});
});
