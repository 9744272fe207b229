import type { IExecuteFunctions } from 'n8n-workflow';

import { readLimit } from '../../../nodes/SupportChat/actions/helpers';
import { returnAllAndLimit } from '../../../nodes/SupportChat/descriptions/common';

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
