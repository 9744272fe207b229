import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { limitParameter, returnAllParameter } from '../descriptions/common';
import { isDataObject, trimmedText } from '../shared/json';
import type { UserFields } from '../transport/calls';
import { NO_RECORD } from '../transport/success';
import { ANSWER_ENVELOPES, ENVELOPE_NOISE } from '../shared/vocabulary/envelopes';
import { itemCollection } from '../shared/parameters';

/**
 * Unwraps the envelope around a single record (`{data: {...}}`, `{success: true, response: {...}}`, `{user: {...}}`). A wrapper key is only taken when everything beside it
 * is envelope noise (success flags, meta), so a record that merely has a `data` field stays whole.
 */
function unwrapRecord(body: unknown, resourceKeys: string[] = []): unknown {
	if (!isDataObject(body)) return body;
	for (const key of [...ANSWER_ENVELOPES, ...resourceKeys]) {
		const inner = body[key];
		if (!isDataObject(inner)) continue;
		const others = Object.keys(body).filter((k) => k !== key);
		if (others.every((k) => ENVELOPE_NOISE.has(k))) return unwrapRecord(inner, resourceKeys);
	}
	return body;
}

/** n8n items must be objects; a list of plain values (tag names) becomes `{ [valueKey]: value }`. */
export function toRecord(value: unknown, valueKey = 'value'): IDataObject {
	return isDataObject(value) ? value : { [valueKey]: value as IDataObject[string] };
}

/**
 * The item of a write. The service's record when it answered one; otherwise what was done
 * (`fallback`), marked `noResponseBody: true` when the service answered nothing (204, an empty 200),
 * or carrying the service's answer as `response` when it was a bare value or text.
 */
export function resultOf(
	body: unknown,
	fallback: IDataObject,
	resourceKeys: string[] = [],
): IDataObject {
	const record = unwrapRecord(body, resourceKeys);
	if (isDataObject(record) && Object.keys(record).length > 0) return record;
	if (body === undefined) return { ...fallback, noResponseBody: true };
	if (isDataObject(body) || Array.isArray(body)) return fallback;
	return { ...fallback, response: body as IDataObject[string] };
}

/**
 * The record a read returned. A read never makes one up: an answer without a record (an envelope with
 * nothing inside, an empty object, a list) fails, saying what came instead.
 */
export function recordOf(
	ctx: IExecuteFunctions,
	body: unknown,
	itemIndex: number,
	label: string,
	resourceKeys: string[] = [],
): IDataObject {
	const record = unwrapRecord(body, resourceKeys);
	if (isDataObject(record) && Object.keys(record).length > 0) return record;
	const got = Array.isArray(record)
		? `a list of ${record.length}`
		: isDataObject(record)
			? 'an empty object'
			: 'no object';
	throw new NodeApiError(
		ctx.getNode(),
		{ got },
		{
			message: `The service answered without a ${label} record (it sent ${got})`,
			description: NO_RECORD,
			itemIndex,
		},
	);
}

/** A parameter as text: a number as written (an expression may give one), a string trimmed, else ''. */
export function parameterText(value: unknown): string {
	return typeof value === 'number' ? String(value) : (trimmedText(value) ?? '');
}

export function locatorValue(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label: string,
): string {
	const text = parameterText(ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }));
	if (text === '') {
		const what = label === 'tag' ? 'tag name' : `${label} ID`;
		throw new NodeOperationError(ctx.getNode(), `The ${what} is empty`, {
			itemIndex,
			description: `Give the ${what}, or map it from an earlier node with an expression.`,
		});
	}
	return text;
}

export function requiredText(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label: string,
): string {
	const text = parameterText(ctx.getNodeParameter(name, itemIndex, ''));
	if (text === '') {
		throw new NodeOperationError(ctx.getNode(), `${label} is empty`, { itemIndex });
	}
	return text;
}

/** "vip, lead" or ["vip", "lead"] → ["vip", "lead"]. */
export function tagList(value: unknown): string[] {
	const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
	return parts.map((part) => String(part).trim()).filter((part) => part !== '');
}

const PHONE = /^\+[1-9][\d\s().-]{5,20}$/;
// The domain's labels are split on their dots, so no two quantifiers compete for the same character.
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const MAX_EMAIL_LENGTH = 254;

/**
 * The user fields of a form, checked against the documented formats (spec §2: phone in international
 * format with a leading +), tags as a list.
 */
export function userFields(
	ctx: IExecuteFunctions,
	fields: IDataObject,
	itemIndex: number,
): UserFields {
	const body: UserFields = {};
	for (const key of ['name', 'email', 'phone'] as const) {
		const value = parameterText(fields[key]);
		if (value !== '') body[key] = value;
	}
	if (
		typeof body.email === 'string' &&
		(body.email.length > MAX_EMAIL_LENGTH || !EMAIL.test(body.email))
	) {
		throw new NodeOperationError(ctx.getNode(), `"${body.email}" is not a valid email address`, {
			itemIndex,
		});
	}
	if (typeof body.phone === 'string' && !PHONE.test(body.phone)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Phone "${body.phone}" is not in international format`,
			{
				itemIndex,
				description: 'The service expects a leading + and the country code, e.g. +4915112345678.',
			},
		);
	}
	if (fields.tags !== undefined) body.tags = tagList(fields.tags);
	return body;
}

/**
 * Name/value rows the user typed (Extra Body Fields, Extra Query Parameters) as one object; a row
 * without a name is refused rather than sent under an empty key.
 */
function namedValues(
	ctx: IExecuteFunctions,
	rows: unknown,
	what: string,
	itemIndex: number,
): IDataObject {
	const values: IDataObject = {};
	for (const row of Array.isArray(rows) ? (rows as IDataObject[]) : []) {
		const name = typeof row.name === 'string' ? row.name.trim() : '';
		if (name === '')
			throw new NodeOperationError(ctx.getNode(), `An extra ${what} has no name`, { itemIndex });
		values[name] = row.value;
	}
	return values;
}

/**
 * The user's "Extra Body Fields", sent beside what the node sends (REST: body fields; Support Board:
 * the function's arguments); they override nothing the form set unless named the same.
 */
export function extraFields(
	ctx: IExecuteFunctions,
	fields: IDataObject,
	itemIndex: number,
): IDataObject {
	return namedValues(
		ctx,
		(fields.extraFields as IDataObject | undefined)?.field,
		'body field',
		itemIndex,
	);
}

/**
 * The query of a list operation: its Filters, with Extra Query Parameters added as they are.
 * `known` maps filter fields to query names (e.g. status → status).
 */
export function listQuery(
	ctx: IExecuteFunctions,
	itemIndex: number,
	known: string[] = [],
): IDataObject {
	const filters = itemCollection(ctx, 'filters', itemIndex);
	const qs: IDataObject = {};
	for (const key of known) {
		const value = filters[key];
		if (value !== undefined && value !== '') qs[key] = value;
	}
	const extra = (filters.queryParameters as IDataObject | undefined)?.parameter;
	return { ...qs, ...namedValues(ctx, extra, 'query parameter', itemIndex) };
}

/** The limit a list operation passes to `client.list`: undefined with Return All, else Limit (descriptions/common.ts). */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (ctx.getNodeParameter(returnAllParameter.name, itemIndex, returnAllParameter.default))
		return undefined;
	return ctx.getNodeParameter(limitParameter.name, itemIndex, limitParameter.default) as number;
}

/** Applies Simplify (see descriptions/common.ts) to the records of a get or list operation. */
export function maybeSimplify(
	ctx: IExecuteFunctions,
	itemIndex: number,
	records: IDataObject[],
	summary: (record: IDataObject) => IDataObject,
): IDataObject[] {
	return ctx.getNodeParameter('simplify', itemIndex, false) === true
		? records.map(summary)
		: records;
}

/**
 * The records of a list the service answers whole, in one call (Support Board's searches and a user's
 * conversations): up to `limit` of them in the service's order, all without one. Limit saves no
 * request here; it only bounds what the node outputs.
 */
export function firstRecords(answer: unknown, limit: number | undefined): IDataObject[] {
	const list = Array.isArray(answer) ? answer : [];
	return (limit === undefined ? list : list.slice(0, limit)).map((entry) => toRecord(entry));
}
