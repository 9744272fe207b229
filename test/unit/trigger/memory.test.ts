import { DEDUPE_KEY, DeliveryMemory, DeliveryRegistry, MAX_REMEMBERED, MAX_SCOPES, scopeKey, seenBefore } from '../../../nodes/SupportChat/trigger/dedupe';

const T0 = 1_750_000_000_000;
const window = { windowMs: 60 * 60_000 };
const reload = (store: Record<string, unknown>) => JSON.parse(JSON.stringify(store)) as Record<string, unknown>;

describe('the in-process record of deliveries', () => {
	test('two requests holding copies of the same snapshot: the second is a duplicate', () => {
		const memory = new DeliveryMemory();
		const snapshot = { other: 1 };
		const a = reload(snapshot);
		const b = reload(snapshot);
		expect(seenBefore(a, 'x', T0, { ...window, memory })).toBe(false);
		expect(seenBefore(b, 'x', T0, { ...window, memory })).toBe(true);
	});

	test('what a request saves carries what the requests beside it accepted (last write wins)', () => {
		const memory = new DeliveryMemory();
		const a = {};
		const b = {};
		seenBefore(a, 'A', T0, { ...window, memory });
		seenBefore(b, 'B', T0 + 1000, { ...window, memory });
		// B's copy is saved last; a new process (no memory) must still know A.
		const saved = reload(b);
		expect(seenBefore(saved, 'A', T0 + 2000, window)).toBe(true);
		expect(seenBefore(reload(b), 'B', T0 + 2000, window)).toBe(true);
	});

	test('bounded per node, oldest first', () => {
		const memory = new DeliveryMemory();
		for (let index = 0; index < MAX_REMEMBERED + 50; index++) seenBefore({}, `id-${index}`, T0 + index, { ...window, memory });
		expect(memory.entries()).toHaveLength(MAX_REMEMBERED);
		const store: Record<string, unknown> = {};
		seenBefore(store, 'last', T0 + 10_000, { ...window, memory });
		expect((store[DEDUPE_KEY] as { seen: unknown[] }).seen).toHaveLength(MAX_REMEMBERED);
		expect(seenBefore({}, 'id-0', T0 + 10_000, { ...window, memory })).toBe(false);
		expect(seenBefore({}, `id-${MAX_REMEMBERED + 49}`, T0 + 10_000, { ...window, memory })).toBe(true);
	});

	test('forgets after the window', () => {
		const memory = new DeliveryMemory();
		seenBefore({}, 'a', T0, { ...window, memory });
		expect(seenBefore({}, 'a', T0 + 59 * 60_000, { ...window, memory })).toBe(true);
		expect(seenBefore({}, 'a', T0 + 3 * 60 * 60_000, { ...window, memory })).toBe(false);
	});

	test('window 0: off, nothing remembered', () => {
		const memory = new DeliveryMemory();
		expect(seenBefore({}, 'a', T0, { windowMs: 0, memory })).toBe(false);
		expect(seenBefore({}, 'a', T0, { windowMs: 0, memory })).toBe(false);
		expect(memory.entries()).toHaveLength(0);
	});

	test('bounded in the number of nodes remembered, the least recently used forgotten', () => {
		const registry = new DeliveryRegistry();
		const first = registry.scope(scopeKey('w-0', 'n', false));
		const memories = new Map<number, unknown>();
		for (let index = 1; index < MAX_SCOPES + 20; index++) {
			memories.set(index, registry.scope(scopeKey(`w-${index}`, 'n', false)));
			registry.scope(scopeKey('w-0', 'n', false));
		}
		expect(registry.scope(scopeKey('w-0', 'n', false))).toBe(first);
		// Newest first, every scope still kept hands back the memory it had (asking refreshes it and evicts
		// nothing), until the first one forgotten: with w-0, exactly MAX_SCOPES were kept.
		let kept = 1;
		for (let index = MAX_SCOPES + 19; index >= 1; index--) {
			if (registry.scope(scopeKey(`w-${index}`, 'n', false)) !== memories.get(index)) break;
			kept++;
		}
		expect(kept).toBe(MAX_SCOPES);
	});

	test('scopes: workflow, node and URL kept apart, whatever the ids hold', () => {
		const keys = [scopeKey('w', 'n', false), scopeKey('w', 'n', true), scopeKey('w', 'm', false), scopeKey('v', 'n', false), scopeKey('w|n', '', false), scopeKey('w', '|n', false), scopeKey('constructor', '__proto__', false)];
		expect(new Set(keys).size).toBe(keys.length);
	});
});
