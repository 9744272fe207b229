import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { SupportChat } from '../../../nodes/SupportChat/SupportChat.node';
import type { Operation } from '../../../nodes/SupportChat/actions/types';
import { resources } from '../../../nodes/SupportChat/actions/versionDescription';

// An operation is registered once, in its resource's table (actions/<resource>/index.ts); the
// selector the editor shows, the node's properties and the router's dispatch are derived from it.

const { properties } = new SupportChat().description;

function optionValues(property: INodeProperties | undefined): string[] {
	return ((property?.options ?? []) as INodePropertyOptions[])
		.map((option) => String(option.value))
		.sort();
}

function operationSelector(resource: string): INodeProperties | undefined {
	return properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === resource,
	);
}

describe('operation registration', () => {
	test('the resource selector offers exactly the resource table', () => {
		expect(optionValues(properties.find((p) => p.name === 'resource'))).toEqual(
			Object.keys(resources).sort(),
		);
	});

	describe.each(Object.entries(resources))('%s', (resource, { operations }) => {
		test('the operation selector offers exactly the operation table, and defaults to one of them', () => {
			const selector = operationSelector(resource);
			expect(optionValues(selector)).toEqual(Object.keys(operations).sort());
			expect(Object.keys(operations)).toContain(selector?.default);
		});

		test.each(Object.entries(operations))(
			'%s: implemented, and its properties show under its own key',
			(name, operation) => {
				const { description, execute } = operation as Operation;
				expect(typeof execute).toBe('function');
				for (const property of description) {
					expect(property.displayOptions?.show).toMatchObject({
						resource: [resource],
						operation: [name],
					});
					expect(properties).toContain(property);
				}
			},
		);
	});

	test('every property of the node belongs to the selectors, to a registered operation, or to the tool type', () => {
		const registered = new Set(
			Object.values(resources).flatMap(({ operations }) =>
				Object.values<Operation>(operations).flatMap((operation) => operation.description),
			),
		);
		const rest = properties.filter((p) => !registered.has(p)).map((p) => p.name);
		// onFailedCall: shown only in the tool type (@tool), for every operation.
		expect(rest).toEqual([
			'resource',
			...Object.keys(resources).map(() => 'operation'),
			'onFailedCall',
		]);
	});
});

describe("the action node's subtitle on the canvas", () => {
	const { description } = new SupportChat();
	// The expression is plain JavaScript over $parameter: run it as n8n's editor would.
	const expression = String(description.subtitle);
	// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- test code running the node's own subtitle text, as the editor does
	const subtitle = new Function('$parameter', `return ${expression.slice(3, -2)}`) as (
		p: Record<string, unknown>,
	) => string;

	it('names resource and operation as the drop-downs show them, for every operation', () => {
		expect(expression).toMatch(/^=\{\{ .* \}\}$/);
		const resources = description.properties.find((p) => p.name === 'resource')!.options as Array<{
			name: string;
			value: string;
		}>;
		let checked = 0;
		for (const resource of resources) {
			const operation = description.properties.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
			);
			for (const option of operation!.options as Array<{ name: string; value: string }>) {
				expect(subtitle({ resource: resource.value, operation: option.value })).toBe(
					`${resource.name}: ${option.name}`,
				);
				checked++;
			}
		}
		expect(checked).toBe(26);
		expect(subtitle({ resource: 'user', operation: 'getAll' })).toBe('User: Get Many');
	});

	it('shows a value it does not know as it is', () => {
		expect(subtitle({ resource: 'user', operation: 'constructor' })).toBe('constructor: user');
	});
});
