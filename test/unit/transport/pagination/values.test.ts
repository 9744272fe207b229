/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * SeenIds notes a record's identity without building one, and remembers the key of the last id it
 * noted: records whose ids change key between pages, or within one, stay apart by key all the same.
 */
import { hasIdentity, SeenIds } from '../../../../nodes/SupportChat/transport/pagination/values';

describe('SeenIds.add', () => {
	it('tells a record seen before, a number id and its digits being one', () => {
		const seen = new SeenIds();
		expect(seen.add({ id: 2 })).toBe(true);
		expect(seen.add({ id: '2' })).toBe(false);
		expect(seen.add({ id: 3, name: 'x' })).toBe(true);
		expect(seen.add({ id: 3 })).toBe(false);
	});

	it('keeps ids under different keys apart, however the keys alternate', () => {
		const seen = new SeenIds();
		expect(seen.add({ id: 1 })).toBe(true);
		expect(seen.add({ uuid: 1 })).toBe(true);
		expect(seen.add({ id: 1 })).toBe(false);
		expect(seen.add(1)).toBe(true);
		expect(seen.add({ uuid: 1 })).toBe(false);
		expect(seen.add('1')).toBe(false);
		// A record with a `value` field has no id: it is not the bare value 1.
		expect(seen.add({ value: 1 })).toBeUndefined();
		expect(seen.add({ value: 1 })).toBeUndefined();
	});

	it('never counts a record without an id as seen before, as it has no identity', () => {
		const seen = new SeenIds();
		for (const item of [{ name: 'a' }, null, true, { id: null }, { id: { nested: 1 } }, [1]]) {
			expect(hasIdentity(item)).toBe(false);
			expect(seen.add(item)).toBeUndefined();
			expect(seen.add(item)).toBeUndefined();
		}
	});

	it("finds a record's identity by the first id key it has, a bare value being its own", () => {
		for (const item of [{ _id: 'a' }, { ID: 4 }, { id: 'x', uuid: 'y' }, 'bare', 7]) {
			expect(hasIdentity(item)).toBe(true);
			const seen = new SeenIds();
			expect(seen.add(item)).toBe(true);
			expect(seen.add(item)).toBe(false);
		}
		const byFirstKey = new SeenIds();
		expect(byFirstKey.add({ id: 'x', uuid: 'y' })).toBe(true);
		expect(byFirstKey.add({ id: 'x' })).toBe(false);
		expect(byFirstKey.add({ uuid: 'y' })).toBe(true);
		const bare = new SeenIds();
		expect(bare.add(7)).toBe(true);
		expect(bare.add('7')).toBe(false);
	});
});

describe('SeenIds while the ids come in order', () => {
	const noteAll = (seen: SeenIds, ids: Array<string | number>) => ids.map((id) => seen.add({ id }));

	it.each([
		['rising numbers', [1, 2, 10, 11]],
		['falling numbers', [11, 10, 2, 1]],
		['rising digits, 9 before 10', ['8', '9', '10', '11']],
		['falling digits', ['100', '99', '9']],
		['rising prefixed counters', ['u_9998', 'u_9999', 'u_10000']],
	])('%s are all new, and each is a repeat afterwards', (_name, ids) => {
		const seen = new SeenIds();
		expect(noteAll(seen, ids)).toEqual(ids.map(() => true));
		for (const id of ids) {
			expect(seen.has({ id })).toBe(true);
			expect(seen.has({ id: String(id) })).toBe(true);
		}
		expect(seen.has({ id: 'other' })).toBe(false);
	});

	it.each([
		['the same id twice', [1, 1], [true, false]],
		['an id back in a rising run', [1, 2, 3, 2], [true, true, true, false]],
		['an id back in a falling run', ['c', 'b', 'a', 'c'], [true, true, true, false]],
		['a number, then its digits', [5, 6, '5'], [true, true, false]],
		['digits, then their number', ['5', '6', 6], [true, true, false]],
		[
			'a new id out of order, then a repeat from the run',
			[1, 2, 5, 3, 2, 5, 4],
			[true, true, true, true, false, false, true],
		],
	])('%s: a repeat is found, whatever broke the order', (_name, ids, expected) => {
		expect(noteAll(new SeenIds(), ids)).toEqual(expected);
	});

	it("an id under another key ends the run, and the run's ids are still found", () => {
		const seen = new SeenIds();
		expect(seen.add({ id: 1 })).toBe(true);
		expect(seen.add({ id: 2 })).toBe(true);
		expect(seen.add({ uuid: 1 })).toBe(true);
		expect(seen.add({ id: 3 })).toBe(true);
		expect(seen.add({ id: 2 })).toBe(false);
		expect(seen.add({ uuid: 1 })).toBe(false);
	});
});
