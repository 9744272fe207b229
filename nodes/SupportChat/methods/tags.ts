import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { tagName } from '../actions/simplify';
import { DEFAULT_PAGINATION } from '../transport/pageShape';
import { paginate } from '../transport/pagination';
import { INTERACTIVE_CLIENT_SETTINGS } from '../transport/limits';
import { SupportChatClient } from '../transport/request';

/**
 * Existing tags for the Tag picker ("By Name" takes a new one). The list is small and the spec
 * documents no search parameter, so it is fetched whole (a few pages at most) and filtered here.
 */
export async function searchTags(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	// The editor waits on it: the pickers' short, shared settings.
	const client = await SupportChatClient.connect(this, 0, INTERACTIVE_CLIENT_SETTINGS);
	// A dropdown does not need thousands of entries: a few pages are enough.
	const { items } = await paginate(this, client, { list: 'tags', query: {}, limit: 500 }, { ...DEFAULT_PAGINATION, maxPages: 20 }, 0);
	const names = items
		.map(tagName)
		.filter((name): name is string => typeof name === 'string' && name !== '');
	const needle = filter?.trim().toLowerCase() ?? '';
	const results = [...new Set(names)]
		.filter((name) => needle === '' || name.toLowerCase().includes(needle))
		.sort((a, b) => a.localeCompare(b))
		.map((name) => ({ name, value: name }));
	return { results };
}
