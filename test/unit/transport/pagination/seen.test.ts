/**
 * What a list has served: records by id, pages of records without ids by their whole content, and
 * whether a page read past the end of a list adds anything (without noting it).
 */
import { Seen } from '../../../../nodes/SupportChat/transport/pagination/seen';

describe('Seen', () => {
	it('notes records by id, 2 and "2" alike, and tells a page of them by its records only', () => {
		const seen = new Seen();
		expect(seen.take([{ id: 1 }, { id: 2 }])).toEqual([{ id: 1 }, { id: 2 }]);
		expect(seen.take([{ id: '1' }, { id: 3 }])).toEqual([{ id: 3 }]);
		expect(seen.take([{ id: 1 }, { id: 2 }])).toEqual([]);
	});

	it('tells a page of records without ids by its whole content', () => {
		const seen = new Seen();
		expect(seen.take([{ n: 'a' }, { n: 'b' }])).toEqual([{ n: 'a' }, { n: 'b' }]);
		expect(seen.take([{ n: 'a' }, { n: 'b' }])).toBeUndefined();
		expect(seen.take([{ n: 'a' }, { n: 'c' }])).toEqual([{ n: 'a' }, { n: 'c' }]);
	});

	it('takes the records without ids of a page with some, and drops its records served before', () => {
		const seen = new Seen();
		expect(seen.take([{ id: 1 }])).toEqual([{ id: 1 }]);
		expect(seen.take([{ id: 1 }, { n: 'a' }, { id: 2 }])).toEqual([{ n: 'a' }, { id: 2 }]);
		expect(seen.take([{ id: 1 }, { n: 'a' }, { id: 2 }])).toBeUndefined();
	});

	it.each([
		['an empty page', [], true],
		['records all served', [{ id: 2 }, { id: '1' }], true],
		['one record not served', [{ id: 1 }, { id: 3 }], false],
		['a record with another id key', [{ uuid: 1 }], false],
		['the served page of records without ids', [{ n: 'a' }], true],
		['another page of records without ids', [{ n: 'b' }], false],
	])('addsNothing: %s → %s, and notes nothing', (_name, page, expected) => {
		const seen = new Seen();
		seen.take([{ id: 1 }, { id: 2 }]);
		seen.take([{ n: 'a' }]);
		expect(seen.addsNothing(page)).toBe(expected);
		expect(seen.addsNothing(page)).toBe(expected);
		if (!expected && page.length > 0 && 'id' in page[page.length - 1])
			expect(seen.take([page[page.length - 1]])).toEqual([page[page.length - 1]]);
	});
});
