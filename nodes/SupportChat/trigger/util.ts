import { isRecord } from '../shared/json';

/** Reading a delivery's headers; the JSON helpers are in ../shared/json. */

/** Headers as Node gives them: lower-case names, a string or a list of strings per name. */
export type HeaderMap = Record<string, string | string[] | undefined>;

/** A header's value, case-insensitive; the first one when the header was sent several times. */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== wanted) continue;
		const first = Array.isArray(value) ? value[0] : value;
		if (typeof first === 'string') return first;
	}
	return undefined;
}

/** Every value of a header, case-insensitive, with repeated headers kept apart. */
export function headerValues(headers: HeaderMap, name: string): string[] {
	const wanted = name.toLowerCase();
	const values: string[] = [];
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== wanted) continue;
		for (const entry of Array.isArray(value) ? value : [value]) {
			if (typeof entry === 'string') values.push(entry);
		}
	}
	return values;
}

/** Lower-case names; a null-prototype map, so a header named `__proto__` or `constructor` is only a header. */
export function lowerCaseHeaders(headers: unknown): HeaderMap {
	const result: HeaderMap = Object.create(null) as HeaderMap;
	if (!isRecord(headers)) return result;
	for (const [name, value] of Object.entries(headers)) {
		if (typeof value === 'string') result[name.toLowerCase()] = value;
		else if (Array.isArray(value)) result[name.toLowerCase()] = value.filter((entry) => typeof entry === 'string');
	}
	return result;
}
