import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { tagName } from '../actions/simplify';
import { DEFAULT_PAGINATION } from '../transport/pagination/styles';
import { connect } from '../apis';
import { INTERACTIVE_CLIENT_SETTINGS } from '../transport/limits';

/**
 * Existing tags for the Tag picker ("By Name" takes a new one). The list is small and the spec
 * documents no search parameter, so it is fetched whole (a few pages at most) and filtered here.
 */
export async function searchTags(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	// The editor waits on it: the pickers' short, shared settings.
	// A dropdown does not need thousands of entries: a few pages are enough.
	const client = await connect(this, 0, {
		settings: INTERACTIVE_CLIENT_SETTINGS,
		pagination: () => ({ ...DEFAULT_PAGINATION, maxPages: 20 }),
	});
	const items = await client.list({ list: 'tags', query: {}, limit: 500 });
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
