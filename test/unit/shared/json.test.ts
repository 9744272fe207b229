import {
	asText,
	fieldOf,
	getObjectPath,
	getPath,
	isDataObject,
	isRecord,
	thrownField,
	trimmedText,
} from '../../../nodes/SupportChat/shared/json';

describe('the JSON toolbox', () => {
	it.each<[unknown, unknown]>([
		[new Error('boom'), 'boom'],
		[{ message: 'plain' }, 'plain'],
		['text', undefined],
		[undefined, undefined],
		[null, undefined],
	])('thrownField reads the message of %p', (error, expected) => {
		expect(thrownField(error, 'message')).toBe(expected);
	});

	it.each<[unknown, boolean]>([
		[{}, true],
		[{ a: 1 }, true],
		[Object.create(null), true],
		[[], false],
		[null, false],
		[undefined, false],
		['{}', false],
		[1, false],
	])('isRecord and isDataObject agree on %p', (value, expected) => {
		expect(isRecord(value)).toBe(expected);
		expect(isDataObject(value)).toBe(expected);
	});

	it.each([
		['constructor', undefined],
		['toString', undefined],
		['__proto__', undefined],
		['a', 1],
	])('fieldOf(%s) reads only fields the object itself has', (key, expected) => {
		expect(fieldOf({ a: 1 }, key)).toBe(expected);
	});

	// The two path readers differ on purpose: getPath serves paths a user types, getObjectPath senders' payloads.
	it.each<[string, unknown, string, unknown, unknown]>([
		['nested objects', { a: { b: 1 } }, 'a.b', 1, 1],
		['a key with a dot', { 'a.b': 1 }, 'a.b', 1, undefined],
		['a list index', { a: [{ id: 7 }] }, 'a.0.id', 7, undefined],
		['the empty path', { a: 1 }, '', { a: 1 }, undefined],
		['a missing key', { a: {} }, 'a.b', undefined, undefined],
		['an inherited key', {}, 'constructor', undefined, undefined],
		['an inherited key below', { a: {} }, 'a.toString', undefined, undefined],
		['through a string', { a: 'text' }, 'a.length', undefined, undefined],
	])('%s: getPath and getObjectPath', (_, source, path, lenient, strict) => {
		expect(getPath(source, path)).toEqual(lenient);
		expect(getObjectPath(source, path)).toEqual(strict);
	});

	it.each<[unknown, string | undefined, string | undefined]>([
		['  vip ', 'vip', 'vip'],
		['', undefined, undefined],
		['   ', undefined, undefined],
		[42, undefined, '42'],
		[0, undefined, '0'],
		[Number.NaN, undefined, undefined],
		[Number.POSITIVE_INFINITY, undefined, undefined],
		[true, undefined, undefined],
		[null, undefined, undefined],
		[{ toString: () => 'x' }, undefined, undefined],
	])('%p: trimmedText and asText', (value, trimmed, text) => {
		expect(trimmedText(value)).toBe(trimmed);
		expect(asText(value)).toBe(text);
	});
});
