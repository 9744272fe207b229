/**
 * What a list has served: records by id, pages of records without ids by their whole content, and
 * whether a page read past the end of a list adds anything (without noting it).
 */
import { Seen } from '../../../../nodes/SupportChat/transport/pagination/seen';

describe('Seen', () => {
	it('notes records by id, 2 and "2" alike, and tells a page of them by its records only', () => {
		const seen = new Seen();
		expect(seen.notePage([{ id: 1 }, { id: 2 }])).toBe(true);
		expect(seen.noteItem({ id: 1 })).toBe(true);
		expect(seen.noteItem({ id: '1' })).toBe(false);
		expect(seen.notePage([{ id: 1 }, { id: 2 }])).toBe(true);
	});

	it('tells a page of records without ids by its whole content', () => {
		const seen = new Seen();
		expect(seen.notePage([{ n: 'a' }, { n: 'b' }])).toBe(true);
		expect(seen.notePage([{ n: 'a' }, { n: 'b' }])).toBe(false);
		expect(seen.notePage([{ n: 'a' }, { n: 'c' }])).toBe(true);
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
		for (const item of [{ id: 1 }, { id: 2 }]) seen.noteItem(item);
		seen.notePage([{ n: 'a' }]);
		expect(seen.addsNothing(page)).toBe(expected);
		expect(seen.addsNothing(page)).toBe(expected);
		if (!expected && page.length > 0 && 'id' in page[page.length - 1])
			expect(seen.noteItem(page[page.length - 1])).toBe(true);
	});
});
