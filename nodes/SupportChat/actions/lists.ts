import type { IDataObject } from 'n8n-workflow';

import { toRecord } from './helpers';

/**
 * The records of a list the service answers whole, in one call (Support Board's searches and a user's
 * conversations): up to `limit` of them in the service's order, all without one. Limit saves no
 * request here; it only bounds what the node outputs.
 */
export function firstRecords(answer: unknown, limit: number | undefined): IDataObject[] {
	const list = Array.isArray(answer) ? answer : [];
	return (limit === undefined ? list : list.slice(0, limit)).map((entry) => toRecord(entry));
}
