/** Small helpers shared by the trigger's pure functions. */

export type JsonObject = { [key: string]: unknown };

/** Headers as Node gives them: lower-case names, a string or a list of strings per name. */
export type HeaderMap = Record<string, string | string[] | undefined>;

export function isRecord(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a dot path (`data.conversation.id`), or undefined. Only walks plain objects. */
export function getPath(value: unknown, path: string): unknown {
	let current: unknown = value;
	for (const key of path.split('.')) {
		if (!isRecord(current) || !Object.prototype.hasOwnProperty.call(current, key)) return undefined;
		current = current[key];
	}
	return current;
}

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

/** A string or finite number as a non-empty trimmed string; anything else as undefined. */
export function asText(value: unknown): string | undefined {
	if (typeof value === 'string') {
		const text = value.trim();
		return text === '' ? undefined : text;
	}
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}
