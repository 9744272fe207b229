import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemCollection, nodeCollection } from '../../../nodes/SupportChat/shared/parameters';

const node: INode = {
	id: '1',
	name: 'Support Chat',
	type: 'n8n-nodes-support-chat.supportChat',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function contexts(value: unknown) {
	return {
		item: { getNode: () => node, getNodeParameter: () => value },
		trigger: {
			getNode: () => node,
			getNodeParameter: (_: string, fallback: IDataObject) => value ?? fallback,
		},
	};
}

describe('collection parameters', () => {
	it('hands an object on as it is', () => {
		const options = { limit: 3 };
		expect(itemCollection(contexts(options).item, 'options', 0)).toBe(options);
		expect(nodeCollection(contexts(options).trigger, 'options')).toBe(options);
	});

	it.each([[[]], ['text'], [1], [null]])(
		'refuses %p with an error naming the parameter and the item',
		(value) => {
			const read = () => itemCollection(contexts(value).item, 'additionalFields', 2);
			expect(read).toThrow(NodeOperationError);
			expect(read).toThrow('The parameter "additionalFields" must be a collection');
			try {
				read();
			} catch (error) {
				expect(error).toMatchObject({ context: { itemIndex: 2 } });
			}
		},
	);

	it('refuses a trigger collection that is not an object', () => {
		expect(() => nodeCollection(contexts('x').trigger, 'options')).toThrow(
			'The parameter "options" must be a collection',
		);
	});
});
