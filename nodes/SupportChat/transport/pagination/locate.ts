import type { IDataObject } from 'n8n-workflow';

import { cut } from '../../shared/text';
import { PageShapeError } from './reading';
import { fieldOf, getPath, isDataObject } from '../../shared/json';
import { ANSWER_ENVELOPES } from '../../shared/vocabulary/envelopes';
import { LIST_KEYS, META_KEYS } from '../../shared/vocabulary/pages';
import { OPTION_PATHS } from './styles';

interface Located {
	items: unknown[];
	at: string;
	/** Objects that may carry paging metadata, nearest first. */
	scopes: IDataObject[];
}

/** The container itself, then its metadata objects two levels deep (`meta.cursor.next`). */
function metaScopes(container: IDataObject, depth = 2): IDataObject[] {
	const scopes = [container];
	if (depth === 0) return scopes;
	for (const key of META_KEYS) {
		const value = fieldOf(container, key);
		if (isDataObject(value)) scopes.push(...metaScopes(value, depth - 1));
	}
	return scopes;
}

function locateItems(body: unknown, at = ''): Located | undefined {
	if (Array.isArray(body)) return { items: body, at: at || '(the whole body)', scopes: [] };
	if (!isDataObject(body)) return undefined;
	const here = (key: string) => (at ? `${at}.${key}` : key);
	const embedded = fieldOf(body, '_embedded');
	if (isDataObject(embedded)) {
		for (const [key, items] of Object.entries(embedded))
			if (Array.isArray(items))
				return { items, at: here(`_embedded.${key}`), scopes: metaScopes(body) };
	}
	for (const key of LIST_KEYS) {
		const value = fieldOf(body, key);
		if (Array.isArray(value)) return { items: value, at: here(key), scopes: metaScopes(body) };
	}
	const arrays = Object.entries(body).flatMap(([key, items]) =>
		Array.isArray(items) && !META_KEYS.has(key) ? [{ key, items }] : [],
	);
	if (arrays.length === 1) {
		const [{ key, items }] = arrays;
		return { items, at: here(key), scopes: metaScopes(body) };
	}
	for (const key of ANSWER_ENVELOPES) {
		const value = fieldOf(body, key);
		const inner = isDataObject(value) ? locateItems(value, here(key)) : undefined;
		if (inner) return { ...inner, scopes: [...inner.scopes, ...metaScopes(body)] };
	}
	return undefined;
}

/** What the answer was, for a message: its first keys, each cut short. */
function describeKeys(body: unknown): string {
	if (Array.isArray(body)) return 'an array';
	if (!isDataObject(body)) return typeof body === 'string' ? 'text' : String(body);
	const keys = Object.keys(body)
		.slice(0, 12)
		.map((key) => cut(key, 40));
	return keys.length ? `an object with keys ${keys.join(', ')}` : 'an empty object';
}

export function isBodyless(body: unknown): boolean {
	return body === undefined || body === null || body === '';
}

/** Finds the records of a list response, or throws a PageShapeError that tells the user what to set. */
export function findItems(body: unknown, itemsPath: string): Located {
	if (itemsPath !== '') {
		const value = getPath(body, itemsPath);
		if (!Array.isArray(value)) {
			throw new PageShapeError(
				`No list found at Items Path "${cut(itemsPath, 80)}"; the service answered ${describeKeys(body)}`,
			);
		}
		const dot = itemsPath.lastIndexOf('.');
		const parent = dot < 0 ? body : getPath(body, itemsPath.slice(0, dot));
		const scopes = isDataObject(parent) ? metaScopes(parent) : [];
		if (isDataObject(body) && parent !== body) scopes.push(...metaScopes(body));
		return { items: value, at: itemsPath, scopes };
	}
	if (isBodyless(body)) return { items: [], at: '(empty body)', scopes: [] };
	const found = locateItems(body);
	if (!found) {
		throw new PageShapeError(
			`Could not find the list of records in the answer, which was ${describeKeys(body)}. Set ${OPTION_PATHS.itemsPath} to where the records are`,
		);
	}
	return found;
}
