import type { PagePlan, PageContext, Reader } from '../reading';
import { toCount } from '../values';

/**
 * RFC 8288 Link headers (GitHub's pagination). Real headers hold a handful of links; beyond this
 * length the rest is ignored, so that a hostile header costs a bounded, linear scan.
 */
const MAX_LINK_HEADER = 16_384;
const SPACES = /\s+/;
const QUOTES = /^"|"$/g;

/** Each relation of a Link header and its target; the first link of a relation wins. */
export function parseLinks(header: string | undefined): Map<string, string> | undefined {
	if (!header) return undefined;
	const text = header.slice(0, MAX_LINK_HEADER);
	const links = new Map<string, string>();
	let open = text.indexOf('<');
	while (open >= 0) {
		const close = text.indexOf('>', open + 1);
		if (close < 0) break;
		const following = text.indexOf('<', close + 1);
		const params = text.slice(close + 1, following < 0 ? text.length : following);
		for (const rel of relations(params))
			if (!links.has(rel)) links.set(rel, text.slice(open + 1, close));
		open = following;
	}
	return links;
}

/** The `rel` values in a link's parameters (`; rel="next last"`), lower-cased. */
function relations(params: string): string[] {
	for (const param of params.split(';')) {
		const equals = param.indexOf('=');
		if (equals < 0 || param.slice(0, equals).trim().toLowerCase() !== 'rel') continue;
		let value = param.slice(equals + 1).trim();
		// The text up to the next link ends with the comma that separates them.
		if (value.endsWith(',')) value = value.slice(0, -1).trim();
		return value.replace(QUOTES, '').toLowerCase().split(SPACES).filter(Boolean);
	}
	return [];
}

function splitUrl(url: string): { base: string; query: URLSearchParams } {
	const hash = url.indexOf('#');
	const bare = hash < 0 ? url : url.slice(0, hash);
	const mark = bare.indexOf('?');
	return mark < 0
		? { base: bare, query: new URLSearchParams() }
		: { base: bare.slice(0, mark), query: new URLSearchParams(bare.slice(mark + 1)) };
}

function withQueryValue(url: string, param: string, value: number): string {
	const { base, query } = splitUrl(url);
	query.set(param, String(value));
	return `${base}?${query.toString()}`;
}

/**
 * rel="last" declares the page count as surely as `total_pages` does, when the next and last links
 * differ only in the page parameter: then the pages in between are known and can be fetched at once.
 */
function planFromLast(next: string, last: string | undefined, param: string): PagePlan | undefined {
	if (last === undefined) return undefined;
	const from = toCount(splitUrl(next).query.get(param));
	const to = toCount(splitUrl(last).query.get(param));
	if (from === undefined || to === undefined || to < from) return undefined;
	if (withQueryValue(next, param, 0) !== withQueryValue(last, param, 0)) return undefined;
	return {
		count: to - from + 1,
		declared: `a Link rel="last" to ${param} ${to}`,
		at: (index) => ({ url: withQueryValue(next, param, from + index), qs: {} }),
	};
}

function links(page: PageContext): Map<string, string> | undefined {
	return page.custom ? undefined : parseLinks(page.headers.link);
}

/** A Link header with rel="next". Not under a forced cursor style, which asks for a cursor. */
export const linkNext: Reader = (page) => {
	const found = links(page);
	const next = found?.get('next');
	if (next === undefined || page.style === 'cursor') return undefined;
	const plan = planFromLast(next, found?.get('last'), page.settings.pageParam);
	const pages = plan && { after: plan.count, declared: plan.declared };
	return { detected: 'link', explicit: true, next: { url: next, qs: {} }, plan, pages };
};

/** A Link header without rel="next", when nothing in the body points further: the last page. */
export const linkEnd: Reader = (page) => {
	const found = links(page);
	return found && !found.has('next') ? { detected: 'link', explicit: true } : undefined;
};
