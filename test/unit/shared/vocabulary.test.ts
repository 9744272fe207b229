import { resultOf } from '../../../nodes/SupportChat/actions/helpers';
import { conversationSummary, tagName, userSummary } from '../../../nodes/SupportChat/actions/simplify';
import { ANSWER_ENVELOPES, ENVELOPE_NOISE } from '../../../nodes/SupportChat/shared/vocabulary/envelopes';
import {
	HAS_MORE_KEYS,
	LIST_KEYS,
	META_KEYS,
	PAGE_COUNT_HEADERS,
	PER_PAGE_KEYS,
	RECORD_RANGE_UNITS,
	TOTAL_HEADERS,
	TOTAL_KEYS,
} from '../../../nodes/SupportChat/shared/vocabulary/pages';
import { CONVERSATION_SUMMARY, RECORD_ID_KEYS, REFERENCE_ID_KEYS, TAG_NAME_KEYS, USER_SUMMARY } from '../../../nodes/SupportChat/shared/vocabulary/records';
import { DEFAULT_PAGINATION, findItems, itemIdentity, readPage } from '../../../nodes/SupportChat/transport/pageShape';
import { unwrapEventData } from '../../../nodes/SupportChat/trigger/envelope';
import { extractIds } from '../../../nodes/SupportChat/trigger/ids';
import { WEBHOOK_ENVELOPES, WEBHOOK_JSON_FIELDS } from '../../../nodes/SupportChat/trigger/payloadStyles';

const request = { path: '/users', qs: {} };

describe('the service vocabulary', () => {
	it.each([
		['ANSWER_ENVELOPES', ANSWER_ENVELOPES],
		['WEBHOOK_ENVELOPES', WEBHOOK_ENVELOPES],
		['WEBHOOK_JSON_FIELDS', WEBHOOK_JSON_FIELDS],
		['LIST_KEYS', LIST_KEYS],
		['TOTAL_KEYS', TOTAL_KEYS],
		['PER_PAGE_KEYS', PER_PAGE_KEYS],
		['HAS_MORE_KEYS', HAS_MORE_KEYS],
		['TOTAL_HEADERS', TOTAL_HEADERS],
		['PAGE_COUNT_HEADERS', PAGE_COUNT_HEADERS],
		['RECORD_RANGE_UNITS', RECORD_RANGE_UNITS],
		['RECORD_ID_KEYS', RECORD_ID_KEYS],
		['TAG_NAME_KEYS', TAG_NAME_KEYS],
	])('%s names each key once', (_, keys) => {
		expect(new Set(keys).size).toBe(keys.length);
	});

	it('no envelope key is also envelope noise', () => {
		for (const key of [...ANSWER_ENVELOPES, ...WEBHOOK_ENVELOPES]) expect(ENVELOPE_NOISE.has(key)).toBe(false);
		for (const key of META_KEYS) expect(LIST_KEYS).not.toContain(key);
	});

	it.each(ANSWER_ENVELOPES)('a record wrapped in %s is unwrapped, and a page in it is found', (key) => {
		expect(resultOf({ success: true, [key]: { id: 1 } }, {})).toEqual({ id: 1 });
		expect(findItems({ [key]: { items: [{ id: 1 }] } }, '').items).toEqual([{ id: 1 }]);
	});

	it.each(WEBHOOK_ENVELOPES)('a delivery wrapped in %s gives the event data', (key) => {
		expect(unwrapEventData({ id: 'delivery', [key]: { id: 5 } })).toEqual({ id: 5 });
	});

	it.each(LIST_KEYS)('a list under %s is a page of records', (key) => {
		expect(findItems({ [key]: [{ id: 1 }], other: [1] }, '').at).toBe(key);
	});

	it.each(TOTAL_KEYS)('%s declares the total', (key) => {
		expect(readPage({ data: [{ id: 1 }], [key]: 9 }, {}, request, DEFAULT_PAGINATION).total).toBe(9);
	});

	it.each(TOTAL_HEADERS)('the %s header declares the total', (name) => {
		expect(readPage([{ id: 1 }], { [name]: '9' }, request, DEFAULT_PAGINATION).total).toBe(9);
	});

	it.each(PAGE_COUNT_HEADERS)('the %s header declares the page count', (name) => {
		expect(readPage([{ id: 1 }], { [name]: '4' }, request, DEFAULT_PAGINATION).pages).toMatchObject({ after: 3, declared: '4 pages' });
	});

	it.each(RECORD_RANGE_UNITS)('a Content-Range in "%s" declares the total after its slash', (unit) => {
		expect(readPage([{ id: 1 }], { 'content-range': `${unit} 0-0/9`.trim() }, request, DEFAULT_PAGINATION).total).toBe(9);
	});

	it.each(PER_PAGE_KEYS)('%s declares the page size', (key) => {
		expect(readPage({ data: [{ id: 1 }], [key]: 7 }, {}, request, DEFAULT_PAGINATION).pageSize).toBe(7);
	});

	it.each(HAS_MORE_KEYS)('%s: false ends the list', (key) => {
		expect(readPage({ data: [{ id: 1 }], [key]: false }, {}, request, DEFAULT_PAGINATION).next).toBeUndefined();
	});

	it.each(RECORD_ID_KEYS)('%s is a record identity', (key) => {
		expect(itemIdentity({ [key]: 3 })).toEqual({ key, value: 3 });
	});

	it.each(TAG_NAME_KEYS)('a tag named by %s has that name in Simplify and in the picker', (key) => {
		expect(tagName({ [key]: 'vip' })).toBe('vip');
		expect(userSummary({ id: 1, tags: [{ [key]: 'vip' }, 'lead'] }).tags).toEqual(['vip', 'lead']);
	});

	it('a tag name is never read from the prototype', () => {
		expect(tagName({ constructor: 'x' })).toBeUndefined();
	});

	it.each(Object.entries(USER_SUMMARY).flatMap(([field, paths]) => paths.map((path) => [field, path])))(
		'user Simplify: %s from %s',
		(field, path) => {
			const record = path.split('.').reduceRight<unknown>((value, key) => ({ [key]: value }), 'x');
			expect(userSummary(record as never)[field]).toBe('x');
		},
	);

	it.each(Object.entries(CONVERSATION_SUMMARY).flatMap(([field, paths]) => paths.map((path) => [field, path])))(
		'conversation Simplify: %s from %s',
		(field, path) => {
			const record = path.split('.').reduceRight<unknown>((value, key) => ({ [key]: value }), 'x');
			expect(conversationSummary(record as never)[field]).toBe('x');
		},
	);

	it.each(
		Object.entries(REFERENCE_ID_KEYS).flatMap(([resource, { flat, nested }]) => [
			...flat.map((key) => [resource, key, { [key]: 'r1' }] as const),
			...nested.map((key) => [resource, `${key}.id`, { [key]: { id: 'r1' } }] as const),
		]),
	)('a %s referenced as %s', (resource, _, body) => {
		expect(extractIds(body)[`${resource}Id` as 'userId']).toBe('r1');
	});
});
