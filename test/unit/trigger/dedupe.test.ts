/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import {
	DELIVERY_REGISTRY,
	DeliveryMemory,
	scopeKey,
	seenBefore,
} from '../../../nodes/SupportChat/trigger/dedupe';
import { reload } from '../../helpers/trigger';

const MINUTE = 60_000;
const T0 = 1_750_000_000_000;
/** Deliveries remembered per trigger node: MAX_REMEMBERED in nodes/SupportChat/trigger/dedupe.ts. */
const MAX_REMEMBERED = 500;
/** Trigger nodes the process remembers deliveries for: MAX_SCOPES in nodes/SupportChat/trigger/dedupe.ts. */
const MAX_SCOPES = 100;

/** The one record seenBefore keeps in a node's static data, whatever its key. */
function savedRecord(store: Record<string, unknown>): { seen: unknown[] } {
	const records = Object.values(store);
	expect(records).toHaveLength(1);
	return records[0] as { seen: unknown[] };
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

	test("survives n8n's JSON round trip between deliveries, and stays JSON", () => {
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
		// One write, of the one record the store now holds.
		expect(writes).toEqual(Object.keys(store));
		expect(writes).toHaveLength(1);
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
		expect(savedRecord(store).seen).toHaveLength(MAX_REMEMBERED);
		expect(JSON.stringify(store).length).toBeLessThan(40_000);
		// The first 100 forgotten, the last MAX_REMEMBERED remembered (each asked of a copy: a miss is remembered).
		const remembered = (index: number) =>
			seenBefore(reload(store), `${'x'.repeat(1000)}-${index}`, T0 + 1000, window);
		expect(remembered(99)).toBe(false);
		expect(remembered(100)).toBe(true);
		expect(remembered(MAX_REMEMBERED + 99)).toBe(true);
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
		// The record seenBefore writes, replaced by the damaged value.
		const store: Record<string, unknown> = {};
		seenBefore(store, 'earlier', T0 - 1000, window);
		const [key] = Object.keys(store);
		store[key] = value;
		expect(seenBefore(store, 'a', T0, window)).toBe(false);
		expect(seenBefore(store, 'a', T0 + 1, window)).toBe(true);
	});
});

const window = { windowMs: 60 * 60_000 };

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
		for (let index = 0; index < MAX_REMEMBERED + 50; index++)
			seenBefore({}, `id-${index}`, T0 + index, { ...window, memory });
		expect(memory.entries()).toHaveLength(MAX_REMEMBERED);
		const store: Record<string, unknown> = {};
		seenBefore(store, 'last', T0 + 10_000, { ...window, memory });
		expect(savedRecord(store).seen).toHaveLength(MAX_REMEMBERED);
		expect(seenBefore({}, 'id-0', T0 + 10_000, { ...window, memory })).toBe(false);
		expect(seenBefore({}, `id-${MAX_REMEMBERED + 49}`, T0 + 10_000, { ...window, memory })).toBe(
			true,
		);
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
		const registry = DELIVERY_REGISTRY;
		registry.clear();
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

	test('every node full, with long ids: the process record stays under 5 MB, the saved one under 16 kB', () => {
		setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as () => void;
		DELIVERY_REGISTRY.clear();
		gc();
		const before = process.memoryUsage().heapUsed;
		const long = 'n'.repeat(1_000);
		// What seenBefore adds to each node's memory: a 16-character fingerprint, first seen in Unix seconds.
		const hash = (key: string) =>
			createHash('sha256').update(key).digest().toString('base64url', 0, 12);
		for (let scope = 0; scope < MAX_SCOPES + 10; scope++) {
			const memory = DELIVERY_REGISTRY.scope(scopeKey(`w-${scope}`, long, false));
			for (let i = 0; i < MAX_REMEMBERED + 10; i++)
				memory.add(hash(`${long}${scope}:${i}`), T0 / 1000 + i, MAX_REMEMBERED);
		}
		const store: Record<string, unknown> = {};
		for (let i = 0; i < MAX_REMEMBERED + 10; i++)
			seenBefore(store, `${long}${i}`, T0, { windowMs: 60 * MINUTE });
		gc();
		const used = process.memoryUsage().heapUsed - before;
		process.stderr.write(
			`[dedupe] ${MAX_SCOPES} nodes of ${MAX_REMEMBERED} deliveries: ${(used / 1024 / 1024).toFixed(2)} MB in the process, ${JSON.stringify(store).length} bytes saved\n`,
		);
		expect(used).toBeLessThan(5 * 1024 * 1024);
		expect(JSON.stringify(store).length).toBeLessThan(16 * 1024);
		DELIVERY_REGISTRY.clear();
	});

	test('scopes: workflow, node and URL kept apart, whatever the ids hold', () => {
		const keys = [
			scopeKey('w', 'n', false),
			scopeKey('w', 'n', true),
			scopeKey('w', 'm', false),
			scopeKey('v', 'n', false),
			scopeKey('w|n', '', false),
			scopeKey('w', '|n', false),
			scopeKey('constructor', '__proto__', false),
		];
		expect(new Set(keys).size).toBe(keys.length);
	});
});
