import type { FinalReader } from '../reading';
import { PageShapeError } from '../reading';
import { fieldOf } from '../../../shared/json';
import { toCount, withParam } from '../values';
import { OPTION_PATHS } from '../styles';

/** No Pagination: one request, whatever the answer says. */
export const single: FinalReader = () => ({ detected: 'single', explicit: true });

/** No paging information at all: ask for the next page number and see whether anything new comes. */
export const probe: FinalReader = (page) => {
	const { pageParam, firstPage } = page.settings;
	const current = toCount(fieldOf(page.request.qs, pageParam)) ?? firstPage;
	return {
		detected: 'probe',
		explicit: false,
		next: page.items.length > 0 ? withParam(page.request, pageParam, current + 1) : undefined,
	};
};

const at = (page: Parameters<FinalReader>[0]) =>
	page.custom ? ` at "${page.settings.nextPath}"` : '';

/** A forced link or cursor style found none: the end when nothing more is promised, else a failure. */
export const missingPointer: FinalReader = (page) => {
	if (page.hasMore === false || page.items.length === 0)
		return { detected: page.style === 'cursor' ? 'cursor' : 'nextUrl', explicit: true };
	throw new PageShapeError(
		`Pagination style "${page.style}" is set, but the answer has no ${page.style === 'cursor' ? 'cursor' : 'next-page link'}${at(page)}. Set ${OPTION_PATHS.nextPath} to where it is, or choose another style in ${OPTION_PATHS.paginationStyle}`,
	);
};

/** A forced has-more style found no flag. */
export const missingFlag: FinalReader = (page) => {
	throw new PageShapeError(
		`Pagination style "hasMore" is set, but the answer has no has-more flag${at(page)}. Set ${OPTION_PATHS.nextPath} to it, or choose another style in ${OPTION_PATHS.paginationStyle}`,
	);
};
