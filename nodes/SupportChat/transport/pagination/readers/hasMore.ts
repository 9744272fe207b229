import type { Reader } from '../reading';
import { PageShapeError } from '../reading';
import { recordId, withParam } from '../values';
import { OPTION_PATHS } from '../optionPaths';

/** A has-more flag alone: continue after the last record (Stripe's `starting_after`). */
export const hasMore: Reader = (page) => {
	if (page.hasMore === undefined) return undefined;
	if (!page.hasMore) return { detected: 'hasMore', explicit: true };
	const id = recordId(page.items[page.items.length - 1]);
	if (id === undefined) {
		throw new PageShapeError(
			`The service says it has more records but gives no link or cursor, and the last record has no id to continue after. Set ${OPTION_PATHS.paginationStyle} and its parameters`,
		);
	}
	return {
		detected: 'hasMore',
		explicit: true,
		next: withParam(page.request, page.settings.cursorParam || 'starting_after', id),
	};
};
