import { DEDUPE_KEY, MAX_REMEMBERED, seenBefore } from '../../../nodes/SupportChat/trigger/dedupe';

const MINUTE = 60_000;
const T0 = 1_750_000_000_000;

/** What n8n does between deliveries: saves the static data as JSON and rebuilds it from there. */
function reload(store: Record<string, unknown>): Record<string, unknown> {
	return JSON.parse(JSON.stringify(store)) as Record<string, unknown>;
}

describe('seenBefore', () => {
	const window = { windowMs: 60 * MINUTE };

	test.each<[string, Array<[string, number]>, string, number, boolean]>([
		['first sighting', [], 'a', T0, false],
		['repeat within the window', [['a', T0]], 'a', T0 + 59 * MINUTE, true],
		['repeat right away', [['a', T0]], 'a', T0, true],
		['repeat after the window', [['a', T0]], 'a', T0 + 61 * MINUTE, false],
		['another id', [['a', T0]], 'b', T0 + MINUTE, false],
		['ids are exact', [['abc', T0]], 'ABC', T0 + MINUTE, false],
	])('%s', (_label, earlier, key, now, expected) => {
		let store: Record<string, unknown> = {};
		for (const [id, at] of earlier) {
			seenBefore(store, id, at, window);
			store = reload(store);
		}
		expect(seenBefore(store, key, now, window)).toBe(expected);
	});

	test('survives n8n\'s JSON round trip between deliveries, and stays JSON', () => {
		let store: Record<string, unknown> = { otherState: { keep: true } };
		expect(seenBefore(store, 'msg_1', T0, window)).toBe(false);
		store = reload(store);
		expect(seenBefore(store, 'msg_1', T0 + 1000, window)).toBe(true);
		expect(store.otherState).toEqual({ keep: true });
		expect(reload(store)).toEqual(store);
	});

	test('reassigns the record on change (so n8n notices), leaves it alone on a repeat', () => {
		const writes: string[] = [];
		const store = new Proxy<Record<string, unknown>>(
			{},
			{
				set(target, key, value) {
					writes.push(String(key));
					return Reflect.set(target, key, value);
				},
			},
		);
		seenBefore(store, 'x', T0, window);
		seenBefore(store, 'x', T0 + 1000, window);
		expect(writes).toEqual([DEDUPE_KEY]);
	});

	test('hard cap: the oldest are forgotten first', () => {
		let store: Record<string, unknown> = {};
		for (let index = 0; index < 5; index++) {
			seenBefore(store, `id-${index}`, T0 + index * 1000, { ...window, maxEntries: 3 });
			store = reload(store);
		}
		const options = { ...window, maxEntries: 3 };
		expect(seenBefore(store, 'id-4', T0 + 6000, options)).toBe(true);
		expect(seenBefore(store, 'id-3', T0 + 6000, options)).toBe(true);
		expect(seenBefore(store, 'id-0', T0 + 6000, options)).toBe(false);
	});

	test('bounded by default, whatever the id length', () => {
		const store: Record<string, unknown> = {};
		for (let index = 0; index < MAX_REMEMBERED + 100; index++) {
			seenBefore(store, `${'x'.repeat(1000)}-${index}`, T0 + index, window);
		}
		const record = store[DEDUPE_KEY] as { seen: unknown[] };
		expect(record.seen).toHaveLength(MAX_REMEMBERED);
		expect(JSON.stringify(store).length).toBeLessThan(40_000);
	});

	test('ids are not stored in clear', () => {
		const store: Record<string, unknown> = {};
		seenBefore(store, 'message|secret-looking-id-123', T0, window);
		expect(JSON.stringify(store)).not.toContain('secret-looking-id-123');
	});

	test('window 0 turns it off and writes nothing', () => {
		const store: Record<string, unknown> = {};
		expect(seenBefore(store, 'a', T0, { windowMs: 0 })).toBe(false);
		expect(seenBefore(store, 'a', T0, { windowMs: 0 })).toBe(false);
		expect(store).toEqual({});
	});

	test.each([
		['not an object', 'garbage'],
		['no list', { v: 1 }],
		['bad entries', { v: 1, seen: [1, ['a'], ['b', 'x'], null, ['c', Number.NaN]] }],
	])('a damaged record (%s) is treated as empty', (_label, value) => {
		const store: Record<string, unknown> = { [DEDUPE_KEY]: value };
		expect(seenBefore(store, 'a', T0, window)).toBe(false);
		expect(seenBefore(store, 'a', T0 + 1, window)).toBe(true);
	});
});
