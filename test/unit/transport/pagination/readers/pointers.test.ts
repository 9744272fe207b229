import { DEFAULT_PAGINATION } from '../../../../../nodes/SupportChat/transport/pagination/styles';
import { readPage } from '../../../../../nodes/SupportChat/transport/pagination/readPage';

/**
 * The target of rel="next" as readPage takes it from a Link header beside a bare list: null when the header
 * makes this the last page, undefined when there is no Link header to read.
 */
function nextLink(header: string): string | null | undefined {
	const reading = readPage(
		[{ id: 1 }],
		{ link: header },
		{ path: '/users', qs: {} },
		DEFAULT_PAGINATION,
	);
	if (reading.detected !== 'link') return undefined;
	return reading.next?.url ?? null;
}

describe('the next link of a Link header', () => {
	it.each([
		['<https://a/x?page=2>; rel="next"', 'https://a/x?page=2'],
		['<https://a/x?page=1>; rel="prev", <https://a/x?page=3>; rel=next', 'https://a/x?page=3'],
		['<https://a/x?a=1,2>; rel="next"', 'https://a/x?a=1,2'],
		['<https://a/x?page=1>; rel="first"', null],
		['', undefined],
	])('%s', (header, expected) => {
		expect(nextLink(header)).toBe(expected);
	});
});

/*
 * No clock here (a timed assertion fails on a busy machine): the inputs are a million characters, so a
 * scan that is quadratic in them would take hours and the suite would not end, while a linear one takes
 * milliseconds. The reader looks at the first 16 KB only (Node's HTTP client refuses larger headers
 * anyway). The regular expressions themselves are proven linear by recheck (test/package).
 */
describe('Link headers cost a linear scan, whatever they hold', () => {
	const MILLION = 1_000_000;
	it.each([
		['a million "<"', '<'.repeat(MILLION), null],
		['"<" then a million ">"', `<${'>'.repeat(MILLION)}`, null],
		['a million links without rel', '<a>;,'.repeat(MILLION / 5), null],
		['a rel of a million spaces', `<a>; rel="${' '.repeat(MILLION)}x"`, null],
		['a million ";"', `<a>${';'.repeat(MILLION)}`, null],
		[
			'a next link after a million characters of other links',
			`${'<a>;,'.repeat(MILLION / 5)}<https://a/x?page=2>; rel="next"`,
			null,
		],
	])('%s', (_name, header, next) => {
		expect(nextLink(header)).toBe(next);
	});

	it('keeps reading rel among other parameters', () => {
		expect(nextLink('<https://a/x?page=2>; title="x"; REL="prev next"')).toBe('https://a/x?page=2');
	});
});
