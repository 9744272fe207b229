import type { Operation } from '../../../nodes/SupportChat/actions/types';
import { describeOperations, selectorOf } from '../../../nodes/SupportChat/actions/types';

describe('the registration is checked at compile time', () => {
	const operation: Operation = { description: [], execute: async () => ({}) };
	const base = { displayName: 'Operation', name: 'operation', type: 'options' } as const;

	test('a selector that offers exactly the table compiles', () => {
		const described = describeOperations(
			{ a: operation, b: operation },
			{
				...base,
				options: [
					{ name: 'A', value: 'a' },
					{ name: 'B', value: 'b' },
				],
				default: 'a',
			},
		);
		expect(described.map((p) => p.name)).toEqual(['operation']);
		expect(
			selectorOf({ x: 1 }, { ...base, options: [{ name: 'X', value: 'x' }], default: 'x' }).default,
		).toBe('x');
	});

	test('an option without an implementation, or an implementation without an option, does not', () => {
		// @ts-expect-error 'b' is offered but has no implementation
		describeOperations(
			{ a: operation },
			{
				...base,
				options: [
					{ name: 'A', value: 'a' },
					{ name: 'B', value: 'b' },
				],
				default: 'a',
			},
		);
		// @ts-expect-error 'b' is implemented but not offered
		describeOperations(
			{ a: operation, b: operation },
			{ ...base, options: [{ name: 'A', value: 'a' }], default: 'a' },
		);
		// @ts-expect-error the default names no implementation
		describeOperations(
			{ a: operation },
			{ ...base, options: [{ name: 'A', value: 'a' }], default: 'z' },
		);
		// @ts-expect-error a table entry that is not an operation
		describeOperations(
			{ a: { description: [] } },
			{ ...base, options: [{ name: 'A', value: 'a' }], default: 'a' },
		);
		expect(true).toBe(true);
	});
});
