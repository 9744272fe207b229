import type { IDataObject, JsonObject } from 'n8n-workflow';

/**
 * The JSON toolbox: reading values out of what the service or a sender handed us. Everything here is
 * untrusted, so keys are read as own properties only (a word such as `constructor` or `__proto__`
 * must never reach Object.prototype).
 */

/**
 * An object as JSON.parse or a form parser gives it: its values not yet checked. Not n8n-workflow's
 * `JsonObject`, whose values are already known to be JSON.
 */
export type PlainObject = { [key: string]: unknown };

/** An object that is not an array; its values still unknown. For untrusted payloads. */
export function isRecord(value: unknown): value is PlainObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The same test as `isRecord`, typed as n8n's `IDataObject`: for answers that become items as they
 * are (a record, a page of records).
 */
export function isDataObject(value: unknown): value is IDataObject {
	return isRecord(value);
}

/**
 * The same test as `isRecord`, typed as n8n's `JsonObject`: what `NodeApiError` takes as the service's
 * error response (it reads fields of it, and hands a NodeApiError given to it back as it is).
 */
export function isJsonObject(value: unknown): value is JsonObject {
	return isRecord(value);
}

/**
 * A field of a thrown value (its `message`, its `description`): a catch clause's value is unknown, and
 * what n8n, Node or a service library throws is not always an Error of this realm.
 */
export function thrownField(error: unknown, key: string): unknown {
	return isRecord(error) ? error[key] : undefined;
}

/** A field the object itself has, never one inherited from Object.prototype (`constructor`, `__proto__`). */
export function fieldOf(source: PlainObject | IDataObject, key: string): unknown {
	return Object.hasOwn(source, key) ? source[key] : undefined;
}

const INDEX = /^\d{1,9}$/;

/**
 * The value at a path a user typed (Items Path, Next Path) or a field path of a record: a key that
 * itself contains dots is tried whole first, and a number steps into a list (`data.0.id`).
 */
export function getPath(source: unknown, path: string): unknown {
	if (path === '') return source;
	if (isRecord(source) && Object.hasOwn(source, path)) return source[path];
	let current: unknown = source;
	for (const part of path.split('.')) {
		if (Array.isArray(current) && INDEX.test(part)) current = current[Number(part)];
		else if (isRecord(current) && Object.hasOwn(current, part)) current = current[part];
		else return undefined;
	}
	return current;
}

/**
 * The value at a dot path through nested objects only (`data.conversation.id`): every dot separates,
 * and lists are not stepped into. The trigger reads senders' payloads with it, where a key with a dot
 * or a list in the way means the field is not where the path says.
 */
export function getObjectPath(value: unknown, path: string): unknown {
	let current: unknown = value;
	for (const key of path.split('.')) {
		if (!isRecord(current) || !Object.hasOwn(current, key)) return undefined;
		current = current[key];
	}
	return current;
}

/** A string with something in it, trimmed; anything else (numbers included) as undefined. */
export function trimmedText(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	return text === '' ? undefined : text;
}

/** A non-empty trimmed string or a finite number, as text; anything else as undefined. */
export function asText(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return trimmedText(value);
}

/** What `rewrite` changes: a string, a key, a field's or a list's whole value (undefined: left to the walk). */
interface Rewrite {
	text?(value: string): string;
	key?(key: string): string;
	/** `record`: the object the field is in, for a rule that reads its other fields. */
	field?(key: string, value: unknown, record: Readonly<Record<string, unknown>>): unknown;
	list?(value: readonly unknown[]): unknown;
}

/**
 * A copy of a JSON-like value with strings, keys or fields rewritten; the value itself when nothing
 * changed (no copy is made then). Nesting deeper than `maxDepth` is kept as it is: parsed JSON is the
 * input, and JSON.parse itself bounds the depth by the bytes received.
 */
export function rewrite(value: unknown, how: Rewrite, maxDepth = 256): unknown {
	if (typeof value === 'string') return how.text ? how.text(value) : value;
	if (maxDepth <= 0 || typeof value !== 'object' || value === null) return value;
	if (Array.isArray(value)) {
		const replaced = how.list?.(value);
		if (replaced !== undefined) return replaced;
		let copy: unknown[] | undefined;
		value.forEach((entry, index) => {
			const next = rewrite(entry, how, maxDepth - 1);
			if (next !== entry) {
				copy ??= [...value];
				copy[index] = next;
			}
		});
		return copy ?? value;
	}
	if (Buffer.isBuffer(value) || value instanceof Date) return value;
	let copy: Record<string, unknown> | undefined;
	for (const [key, entry] of Object.entries(value)) {
		const nextKey = how.key ? how.key(key) : key;
		const replaced = how.field?.(key, entry, value as Record<string, unknown>);
		const next = replaced !== undefined ? replaced : rewrite(entry, how, maxDepth - 1);
		if (next !== entry || nextKey !== key) {
			copy ??= Object.fromEntries(Object.entries(value));
			if (nextKey !== key) delete copy[key];
			// defineProperty: a key such as "__proto__" from parsed JSON stays a plain field.
			Object.defineProperty(copy, nextKey, {
				value: next,
				enumerable: true,
				writable: true,
				configurable: true,
			});
		}
	}
	return copy ?? value;
}
