import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Operation } from '../../nodes/SupportChat/actions/types';
import { describeOperations, selectorOf } from '../../nodes/SupportChat/actions/types';
import { resources } from '../../nodes/SupportChat/actions/versionDescription';

// An operation is registered once, in its resource's table (actions/<resource>/index.ts); the
// selector the editor shows, the node's properties and the router's dispatch are derived from it.

const { properties } = new SupportChat().description;

function optionValues(property: INodeProperties | undefined): string[] {
	return ((property?.options ?? []) as INodePropertyOptions[]).map((option) => String(option.value)).sort();
}

function operationSelector(resource: string): INodeProperties | undefined {
	return properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === resource);
}

describe('operation registration', () => {
	test('the resource selector offers exactly the resource table', () => {
		expect(optionValues(properties.find((p) => p.name === 'resource'))).toEqual(Object.keys(resources).sort());
	});

	describe.each(Object.entries(resources))('%s', (resource, { operations }) => {
		test('the operation selector offers exactly the operation table, and defaults to one of them', () => {
			const selector = operationSelector(resource);
			expect(optionValues(selector)).toEqual(Object.keys(operations).sort());
			expect(Object.keys(operations)).toContain(selector?.default);
		});

		test.each(Object.entries(operations))('%s: implemented, and its properties show under its own key', (name, operation) => {
			const { description, execute } = operation as Operation;
			expect(typeof execute).toBe('function');
			for (const property of description) {
				expect(property.displayOptions?.show).toMatchObject({ resource: [resource], operation: [name] });
				expect(properties).toContain(property);
			}
		});
	});

	test('every property of the node belongs to the selectors, to a registered operation, or to the tool type', () => {
		const registered = new Set(
			Object.values(resources).flatMap(({ operations }) =>
				Object.values<Operation>(operations).flatMap((operation) => operation.description),
			),
		);
		const rest = properties.filter((p) => !registered.has(p)).map((p) => p.name);
		// onFailedCall: shown only in the tool type (@tool), for every operation.
		expect(rest).toEqual(['resource', ...Object.keys(resources).map(() => 'operation'), 'onFailedCall']);
	});
});

describe('the registration is checked at compile time', () => {
	const operation: Operation = { description: [], execute: async () => ({}) };
	const base = { displayName: 'Operation', name: 'operation', type: 'options' } as const;

	test('a selector that offers exactly the table compiles', () => {
		const described = describeOperations({ a: operation, b: operation }, { ...base, options: [{ name: 'A', value: 'a' }, { name: 'B', value: 'b' }], default: 'a' });
		expect(described.map((p) => p.name)).toEqual(['operation']);
		expect(selectorOf({ x: 1 }, { ...base, options: [{ name: 'X', value: 'x' }], default: 'x' }).default).toBe('x');
	});

	test('an option without an implementation, or an implementation without an option, does not', () => {
		// @ts-expect-error 'b' is offered but has no implementation
		describeOperations({ a: operation }, { ...base, options: [{ name: 'A', value: 'a' }, { name: 'B', value: 'b' }], default: 'a' });
		// @ts-expect-error 'b' is implemented but not offered
		describeOperations({ a: operation, b: operation }, { ...base, options: [{ name: 'A', value: 'a' }], default: 'a' });
		// @ts-expect-error the default names no implementation
		describeOperations({ a: operation }, { ...base, options: [{ name: 'A', value: 'a' }], default: 'z' });
		// @ts-expect-error a table entry that is not an operation
		describeOperations({ a: { description: [] } }, { ...base, options: [{ name: 'A', value: 'a' }], default: 'a' });
		expect(true).toBe(true);
	});
});
