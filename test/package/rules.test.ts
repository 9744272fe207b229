/**
 * Two of n8n's community-node rules that are newer than the released plugin (0.32), held here until
 * n8n-node lint carries them: options-sorted-alphabetically (every `type: 'options'` list sorted by name,
 * case-insensitive and locale-aware) and valid-node-categories (codex categories from n8n's list).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import actionCodex from '../../nodes/SupportChat/SupportChat.node.json';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import triggerCodex from '../../nodes/SupportChat/SupportChatTrigger.node.json';
import { SupportChatTrigger } from '../../nodes/SupportChat/SupportChatTrigger.node';

/** https://docs.n8n.io/connect/create-nodes/build-your-node/reference/codex-files/#node-categories */
const NODE_CATEGORIES = [
	'AI',
	'Analytics',
	'Communication',
	'Data & Storage',
	'Development',
	'Finance & Accounting',
	'Marketing & Content',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
];

function optionLists(properties: readonly unknown[], path: string): Array<[string, string[]]> {
	return properties.flatMap((entry, index) => {
		const property = entry as INodeProperties & { values?: INodeProperties[] };
		const here = `${path}/${property.name ?? index}`;
		const lists: Array<[string, string[]]> = [];
		if (property.type === 'options' && Array.isArray(property.options)) {
			lists.push([here, (property.options as INodePropertyOptions[]).map((option) => option.name)]);
		}
		if (Array.isArray(property.options) && property.type !== 'options')
			lists.push(...optionLists(property.options, here));
		if (Array.isArray(property.values)) lists.push(...optionLists(property.values, here));
		return lists;
	});
}

const sorted = (names: string[]) =>
	[...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));

describe.each([
	['Support Chat', new SupportChat().description.properties],
	['Support Chat Trigger', new SupportChatTrigger().description.properties],
])('%s: options-sorted-alphabetically', (_node, properties) => {
	const lists = optionLists(properties, '');
	it('finds option lists to check', () => expect(lists.length).toBeGreaterThan(0));
	it.each(lists)('%s is sorted by name', (_path, names) => expect(names).toEqual(sorted(names)));
});

it.each([
	['SupportChat.node.json', actionCodex],
	['SupportChatTrigger.node.json', triggerCodex],
])('%s: valid-node-categories and no-codex-subcategories', (_file, codex) => {
	expect(codex.categories.length).toBeGreaterThan(0);
	for (const category of codex.categories) expect(NODE_CATEGORIES).toContain(category);
	expect(codex).not.toHaveProperty('subcategories');
});
