import type { IDataObject } from 'n8n-workflow';

import { fieldOf, isDataObject } from '../../shared/json';
import { RECORD_ID_KEYS } from '../../shared/vocabulary/records';
import type { PageRequest } from './styles';

/**
 * Reading paging values out of service answers. Every key and every number here comes from the
 * service, so keys are looked up as own properties only (../../shared/json) and numbers count only
 * when they are plain non-negative safe integers.
 */

function idOf(item: IDataObject): { key: string; value: string | number } | undefined {
	for (const key of RECORD_ID_KEYS) {
		const value = fieldOf(item, key);
		if (typeof value === 'string' || typeof value === 'number') return { key, value };
	}
	return undefined;
}

/**
 * A record's identity: the key its id is under and the id (a bare string or number is its own id,
 * under `value`), or undefined when it has none.
 */
export function itemIdentity(item: unknown): { key: string; value: string | number } | undefined {
	if (isDataObject(item)) return idOf(item);
	if (typeof item === 'string' || typeof item === 'number') return { key: 'value', value: item };
	return undefined;
}

/**
 * The identities of the records taken, held apart by the key the id stands under: `{id: 2}` and
 * `{id: "2"}` are one record, `{uuid: 2}` another. No text is built for every record.
 */
export class SeenIds {
	private readonly byKey = new Map<string, Set<string>>();

	/** Notes an identity; whether it was new. */
	add(id: { key: string; value: string | number }): boolean {
		let values = this.byKey.get(id.key);
		if (values === undefined) this.byKey.set(id.key, (values = new Set()));
		const text = String(id.value);
		if (values.has(text)) return false;
		values.add(text);
		return true;
	}
}

/** The id of a record, to continue after it (Stripe's `starting_after`). */
export function recordId(item: unknown): string | undefined {
	const id = isDataObject(item) ? idOf(item) : undefined;
	return id && String(id.value);
}

export interface Found {
	key: string;
	value: unknown;
}

/** The first of `keys` present in the nearest scope. */
export function lookup(scopes: readonly IDataObject[], keys: readonly string[]): Found | undefined {
	for (const scope of scopes) {
		for (const key of keys) {
			if (Object.hasOwn(scope, key)) return { key, value: scope[key] };
		}
	}
	return undefined;
}

const DIGITS = /^\d{1,16}$/;

/**
 * A count or position the service declares: a non-negative safe integer, as a number or in digits.
 * Anything else (negative, fractional, NaN, beyond 2^53, a 1e400 that JSON read as Infinity) counts
 * as not declared rather than as a number to compute with.
 */
export function toCount(value: unknown): number | undefined {
	const n =
		typeof value === 'number'
			? value
			: typeof value === 'string' && DIGITS.test(value.trim())
				? Number(value.trim())
				: NaN;
	return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** A declared page size: a count of at least 1 (a per_page of 0 would divide by zero). */
export function toSize(value: unknown): number | undefined {
	const n = toCount(value);
	return n !== undefined && n > 0 ? n : undefined;
}

export function toBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (value === 1 || value === 'true' || value === '1') return true;
	if (value === 0 || value === 'false' || value === '0') return false;
	return undefined;
}

export function withParam(
	request: PageRequest,
	param: string,
	value: string | number,
): PageRequest {
	return { path: request.path, url: request.url, qs: { ...request.qs, [param]: value } };
}
