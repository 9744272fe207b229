import type { FinalReader, ReaderOutcome, PageContext, Reader } from '../reading';
import { fieldOf } from '../../../shared/json';
import { lookup, toCount, withParam } from '../values';

const OFFSET_KEYS = ['offset', 'skip', 'start'];

/**
 * Offset and limit: the next offset is this one plus the records received (not the declared page
 * size: a service may cap the size below what it declares). With a total the remaining pages are known.
 */
function readOffsets(page: PageContext, fromBody: number | undefined): ReaderOutcome {
	const param = page.settings.offsetParam;
	const current = fromBody ?? toCount(fieldOf(page.request.qs, param)) ?? 0;
	const received = page.items.length;
	const nextOffset = current + received;
	const at = (index: number) => withParam(page.request, param, nextOffset + index * received);

	if (page.total !== undefined) {
		if (received === 0 || nextOffset >= page.total) return { detected: 'offset', explicit: true };
		const plan = {
			count: Math.ceil((page.total - nextOffset) / received),
			declared: `${page.total} records`,
			at,
		};
		return { detected: 'offset', explicit: true, next: at(0), plan };
	}
	if (page.hasMore !== undefined)
		return { detected: 'offset', explicit: true, next: page.hasMore ? at(0) : undefined };
	return { detected: 'offset', explicit: false, next: at(0) };
}

const offsetInBody = (page: PageContext) => toCount(lookup(page.scopes, OFFSET_KEYS)?.value);

/** Detected: the body names its offset. */
export const offset: Reader = (page) => {
	const fromBody = offsetInBody(page);
	return fromBody === undefined ? undefined : readOffsets(page, fromBody);
};

/** Forced: the offset may come from the request alone. */
export const offsetForced: FinalReader = (page) => readOffsets(page, offsetInBody(page));
