import type { IDataObject } from 'n8n-workflow';

import { readLoopOptions } from '../../../nodes/SupportChat/shared/loopOptions';

describe('Ignored Sender IDs, as readLoopOptions reads them for both triggers', () => {
	test.each([
		['12, 57', ['12', '57']],
		['12;57\n 99', ['12', '57', '99']],
		['', []],
		[42, ['42']],
		[
			[' 1 ', 2, ''],
			['1', '2'],
		],
		[undefined, []],
		[{ id: 1 }, []],
	])('%j', (value, expected) => {
		expect(readLoopOptions({ ignoredSenderIds: value } as IDataObject).ignoredSenderIds).toEqual(
			expected,
		);
	});
});
