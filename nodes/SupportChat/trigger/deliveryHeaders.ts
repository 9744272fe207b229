import { isRecord } from '../shared/json';

/** Reading a delivery's headers; the JSON helpers are in ../shared/json. */

/** Headers as Node gives them: lower-case names, a string or a list of strings per name. */
export type HeaderMap = Record<string, string | string[] | undefined>;

/**
 * Every value of a header, with repeated headers kept apart. One lookup, whatever the number of
 * headers: the map's names are lower case (lowerCaseHeaders), and a batch asks for a dozen names per
 * entry, so a scan of a thousand headers per question would grow with entries × headers.
 */
export function headerValues(headers: HeaderMap, name: string): string[] {
	const lower = name.toLowerCase();
	const value = Object.hasOwn(headers, lower) ? headers[lower] : undefined;
	return (Array.isArray(value) ? value : [value]).filter(
		(entry): entry is string => typeof entry === 'string',
	);
}

/** A header's value; the first one when the header was sent several times. */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
	return headerValues(headers, name)[0];
}

/** Lower-case names; a null-prototype map, so a header named `__proto__` or `constructor` is only a header. */
export function lowerCaseHeaders(headers: unknown): HeaderMap {
	const result: HeaderMap = Object.create(null) as HeaderMap;
	if (!isRecord(headers)) return result;
	for (const [name, value] of Object.entries(headers)) {
		if (typeof value === 'string') result[name.toLowerCase()] = value;
		else if (Array.isArray(value))
			result[name.toLowerCase()] = value.filter((entry) => typeof entry === 'string');
	}
	return result;
}
