/**
 * The "Options → X" paths that texts name, held against what the editor shows: the nodes' descriptions
 * (test/package/strings.test.ts) and the README, CHANGELOG, CONTRIBUTING and docs/ pages
 * (test/package/docs.test.ts) use the same list of options and the same reading of a path.
 */
import type { INodeProperties } from 'n8n-workflow';

import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import { SupportChatPollTrigger } from '../../nodes/SupportChat/SupportChatPollTrigger.node';
import { SupportChatTrigger } from '../../nodes/SupportChat/SupportChatTrigger.node';

export const NODES = [new SupportChat(), new SupportChatTrigger(), new SupportChatPollTrigger()];

/** The display names the editor shows inside every node's Options collection. */
export const OPTION_NAMES: ReadonlySet<string> = new Set(
	NODES.flatMap((node) =>
		node.description.properties
			.filter((property) => property.name === 'options' && property.type === 'collection')
			.flatMap((property) => (property.options ?? []) as INodeProperties[])
			.map((option) => option.displayName),
	),
);

const NAMED_OPTION = /Options → ([A-Z][\w-]*(?: (?:[A-Z][\w-]*|\(\w+\)))*)/g;

/** The option names a text gives after "Options → " that no node's Options collection has. */
export function unknownOptions(text: string): string[] {
	return [...text.matchAll(NAMED_OPTION)]
		.map((match) => match[1])
		.filter((name) => !OPTION_NAMES.has(name));
}
