import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { DEFAULT_PAGINATION, isRecord } from '../transport/pageShape';
import { paginate } from '../transport/pagination';
import { SupportChatClient } from '../transport/request';

/** Existing tags for the Tag dropdown; a new tag can still be typed as an expression. */
export async function getTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const client = await SupportChatClient.connect(this, 0);
	// A dropdown does not need thousands of entries: a few pages are enough.
	const { items } = await paginate(this, client, { path: '/tags', limit: 500 }, { ...DEFAULT_PAGINATION, maxPages: 20 }, 0);
	const names = items
		.map((tag) => (isRecord(tag) ? (tag.name ?? tag.tag ?? tag.title ?? tag.label) : tag))
		.filter((name): name is string => typeof name === 'string' && name !== '');
	return [...new Set(names)].sort((a, b) => a.localeCompare(b)).map((name) => ({ name, value: name }));
}
