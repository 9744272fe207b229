import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { fieldOf, isDataObject } from '../../shared/json';
import { RECORD_ID_KEYS } from '../../shared/vocabulary/records';
import type { PageRequest } from './styles';
import {
	PAGE_COUNT_HEADERS,
	RECORD_RANGE_UNITS,
	TOTAL_HEADERS,
} from '../../shared/vocabulary/pages';

/**
 * Reading paging values out of service answers. Every key and every number here comes from the
 * service, so keys are looked up as own properties only (../../shared/json) and numbers count only
 * when they are plain non-negative safe integers.
 */

/** The first of RECORD_ID_KEYS under which the record has a string or number. */
function idKeyOf(item: IDataObject): string | undefined {
	for (const key of RECORD_ID_KEYS) {
		const value = fieldOf(item, key);
		if (typeof value === 'string' || typeof value === 'number') return key;
	}
	return undefined;
}

/** The key under which a bare string or number is its own id. */
const BARE_ID_KEY = 'value';

/** The key a record's identity stands under (a bare string or number is its own id, under `value`), or undefined when it has none. */
function identityKey(item: unknown): string | undefined {
	if (isDataObject(item)) return idKeyOf(item);
	return typeof item === 'string' || typeof item === 'number' ? BARE_ID_KEY : undefined;
}

/** The id under the key `identityKey` found: the record's field, or the bare value itself. */
function idUnder(item: unknown, key: string): string | number {
	return (isDataObject(item) ? item[key] : item) as string | number;
}

/** Whether a record has an identity, found without building one (the collector asks for every record). */
export function hasIdentity(item: unknown): boolean {
	return identityKey(item) !== undefined;
}

/**
 * Where two ids stand in a strict total order: numbers by value, strings by length and then by
 * character (so that "9" comes before "10"); NaN for a number beside a string, or a NaN id.
 */
function idOrder(a: string | number, b: string | number): number {
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	if (typeof a === 'string' && typeof b === 'string')
		return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
	return Number.NaN;
}

/**
 * The ids a list has noted so far, all under one key, each strictly after the last in one direction of
 * `idOrder`: no two of them are the same, so none needs looking up. Most lists come sorted by id.
 */
interface OrderedRun {
	key: string;
	ids: Array<string | number>;
	/** 1 rising, -1 falling, 0 while only one id is noted. */
	direction: number;
}

/**
 * The identities of the records taken, held apart by the key the id stands under: `{id: 2}` and
 * `{id: "2"}` are one record, `{uuid: 2}` another. No text and no object is built for a record whose
 * id is a string: a long list notes tens of thousands. While the ids come in order (`OrderedRun`) they
 * are only listed; the first one out of order puts them in a set, where every id goes from then on.
 */
export class SeenIds {
	private readonly byKey = new Map<string, Set<string>>();

	/** The key of the last id noted and its set: the records of a list almost always share one key. */
	private last: { key: string; values: Set<string> } | undefined;

	/** Undefined once an id broke the order, and before the first id. */
	private run: OrderedRun | undefined;

	/**
	 * Notes a record's identity: true when it is new, false for a record seen before, undefined for a
	 * record without one (which is never a repeat by id).
	 */
	add(item: unknown): boolean | undefined {
		const key = identityKey(item);
		if (key === undefined) return undefined;
		const value = idUnder(item, key);
		// Only the first id starts a run: nothing is noted anywhere yet.
		if (this.run === undefined && this.byKey.size === 0) {
			this.run = { key, ids: [value], direction: 0 };
			return true;
		}
		if (this.run && this.extendsRun(this.run, key, value)) return true;
		this.endRun();
		return this.note(key, value);
	}

	/** Whether a record's identity was noted; a record without one never was. */
	has(item: unknown): boolean {
		const key = identityKey(item);
		if (key === undefined) return false;
		this.endRun();
		return this.byKey.get(key)?.has(String(idUnder(item, key))) ?? false;
	}

	private extendsRun(run: OrderedRun, key: string, value: string | number): boolean {
		if (key !== run.key) return false;
		const step = idOrder(value, run.ids[run.ids.length - 1]);
		const direction = run.direction === 0 ? Math.sign(step) : run.direction;
		if (!(step * direction > 0)) return false;
		run.direction = direction;
		run.ids.push(value);
		return true;
	}

	/** Puts the ids of the run in the set of their key. */
	private endRun(): void {
		const run = this.run;
		if (run === undefined) return;
		this.run = undefined;
		for (const id of run.ids) this.note(run.key, id);
	}

	private note(key: string, value: string | number): boolean {
		let values = this.last?.key === key ? this.last.values : this.byKey.get(key);
		if (values === undefined) this.byKey.set(key, (values = new Set()));
		if (this.last?.values !== values) this.last = { key, values };
		const size = values.size;
		values.add(typeof value === 'string' ? value : String(value));
		return values.size !== size;
	}
}

/** The id of a record, to continue after it (Stripe's `starting_after`). */
export function recordId(item: unknown): string | undefined {
	if (!isDataObject(item)) return undefined;
	const key = idKeyOf(item);
	return key === undefined ? undefined : String(item[key]);
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

/** The request as text, to tell one already made. */
export function requestKey(request: PageRequest): string {
	const qs = Object.keys(request.qs)
		.sort()
		.map((k) => `${k}=${JSON.stringify(request.qs[k])}`)
		.join('&');
	return `${request.url ?? request.path ?? ''}?${qs}`;
}

/**
 * The same page served twice: a digest of the whole page, so that pages whose records have no ids
 * and happen to begin and end alike are still told apart. Linear in what was received.
 */
export function pageDigest(items: unknown[]): string {
	return createHash('sha256').update(JSON.stringify(items)).digest('base64');
}

/**
 * A header value is untrusted text of any length: only its first characters are read, with indexOf
 * and slices (linear), and what they hold counts only as toCount accepts it. A count is at most 16
 * digits; `items 0-24/137` is a few characters more.
 */
const MAX_VALUE = 80;

function text(headers: Record<string, string>, name: string): string | undefined {
	const value = fieldOf(headers, name);
	return typeof value === 'string' ? value.slice(0, MAX_VALUE).trim() : undefined;
}

/** The count under the first of `names` present, as the body's keys are read: the first one present decides. */
function firstCount(headers: Record<string, string>, names: readonly string[]): number | undefined {
	for (const name of names) {
		const value = text(headers, name);
		if (value !== undefined) return toCount(value);
	}
	return undefined;
}

/**
 * The total of a `Content-Range` over records (RFC 9110 §14.4 with a unit of the service's own):
 * `items 0-24/137` and PostgREST's `0-24/137` declare 137; `*` after the slash, or a byte range, none.
 */
function rangeTotal(value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const space = value.indexOf(' ');
	const unit = space < 0 ? '' : value.slice(0, space).toLowerCase();
	const slash = value.lastIndexOf('/');
	return RECORD_RANGE_UNITS.includes(unit) && slash >= 0
		? toCount(value.slice(slash + 1))
		: undefined;
}

/**
 * What a page declares in its response headers: the records in the whole list and the number of
 * pages. Held as a declaration in the body is, by the one rule in the collector; never a loop bound.
 */
export function headerCounts(headers: Record<string, string>): { total?: number; pages?: number } {
	return {
		total: firstCount(headers, TOTAL_HEADERS) ?? rangeTotal(text(headers, 'content-range')),
		pages: firstCount(headers, PAGE_COUNT_HEADERS),
	};
}
