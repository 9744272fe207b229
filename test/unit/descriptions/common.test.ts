import type { IExecuteFunctions } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../nodes/SupportChat/descriptions/common';

// The list operations read their own Return All and Limit; unset, they fall back to the defaults the
// editor shows.
function context(parameters: Record<string, unknown>): IExecuteFunctions {
	return {
		getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) =>
			name in parameters ? parameters[name] : fallback,
	} as unknown as IExecuteFunctions;
}

describe('readLimit', () => {
	const limitDefault = returnAllAndLimit.find((p) => p.name === 'limit')?.default;

	test.each([
		[{}, 50],
		[{ returnAll: false }, 50],
		[{ returnAll: false, limit: 7 }, 7],
		[{ returnAll: true, limit: 7 }, undefined],
		[{ returnAll: true }, undefined],
	])('%j gives %s', (parameters, expected) => {
		expect(readLimit(context(parameters), 0)).toBe(expected);
	});

	test('the fallback is the default the editor shows', () => {
		expect(limitDefault).toBe(50);
		expect(readLimit(context({}), 0)).toBe(limitDefault);
	});
});

describe('resource locators', () => {
	it.each([
		['userId', 'searchUsers'],
		['conversationId', 'searchConversations'],
	])('%s offers From List backed by %s, and By ID', async (name, method) => {
		const { SupportChat } = await import('../../../nodes/SupportChat/SupportChat.node');
		const node = new SupportChat();
		const locators = node.description.properties.filter((p) => p.name === name);
		expect(locators.length).toBeGreaterThan(0);
		for (const locator of locators) {
			expect(locator.modes?.map((m) => m.name)).toEqual(['list', 'id']);
			expect(locator.modes?.[0].typeOptions?.searchListMethod).toBe(method);
			// In a workflow the picker opens on From List; as an AI Agent's tool (`@tool`) the model gives the ID.
			if (locator.displayOptions?.show?.['@tool']) {
				expect(locator.default).toEqual({
					__rl: true,
					mode: 'id',
					value: expect.stringContaining(`$fromAI('${name}'`),
				});
			} else {
				expect(locator.displayOptions?.hide?.['@tool']).toEqual([true]);
				expect(locator.default).toEqual({ mode: 'list', value: '' });
			}
		}
		expect(typeof (node.methods.listSearch as Record<string, unknown>)[method]).toBe('function');
	});
});
