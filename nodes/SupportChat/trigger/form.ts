import type { PlainObject } from '../shared/json';
import { fieldOf, isRecord } from '../shared/json';

/**
 * Form fields (`application/x-www-form-urlencoded`) as PHP senders post them: `http_build_query`
 * style, `a[b][]=` nesting included, in the body's charset.
 */

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const MAX_FORM_KEYS = 1000;

/**
 * Percent-decoding that never throws: invalid escapes stay as they are (as Node's querystring does).
 * Escaped bytes are read in the body's charset (`%E9` is `é` in a latin1 form).
 */
function decodeFormComponent(text: string, encoding: BufferEncoding): string {
	const plus = text.replace(/\+/g, ' ');
	if (!plus.includes('%')) return plus;
	const bytes: number[] = [];
	for (let index = 0; index < plus.length; index++) {
		const char = plus[index];
		if (char === '%' && /^[\da-f]{2}$/i.test(plus.slice(index + 1, index + 3))) {
			bytes.push(parseInt(plus.slice(index + 1, index + 3), 16));
			index += 2;
		} else {
			bytes.push(...Buffer.from(char, encoding));
		}
	}
	return Buffer.from(bytes).toString(encoding);
}

/** `a[b][]` → `['a', 'b', '']`; a plain key → `[key]`; malformed brackets keep the key whole. */
function splitFormKey(key: string): string[] {
	const match = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(key);
	if (!match) return [key];
	const parts = [match[1]];
	for (const segment of match[2].matchAll(/\[([^[\]]*)\]/g)) parts.push(segment[1]);
	return parts;
}

function appendValue(target: PlainObject, key: string, value: string): void {
	const existing = fieldOf(target, key);
	if (existing === undefined) target[key] = value;
	else if (Array.isArray(existing)) existing.push(value);
	else target[key] = [existing, value];
}

/** Places one form field, nesting PHP-style bracket keys; a key that conflicts stays flat. */
function placeFormField(
	result: PlainObject,
	rawKey: string,
	value: string,
	lengths: WeakMap<PlainObject, number>,
): void {
	const parts = splitFormKey(rawKey);
	if (parts.some((part) => FORBIDDEN_KEYS.has(part))) return;
	if (parts.length === 1) {
		appendValue(result, rawKey, value);
		return;
	}
	let node: PlainObject = result;
	for (let index = 0; index < parts.length - 1; index++) {
		const part = parts[index];
		const next = fieldOf(node, part);
		if (next === undefined) {
			const child: PlainObject = {};
			node[part] = child;
			node = child;
		} else if (isRecord(next)) {
			node = next;
		} else {
			appendValue(result, rawKey, value);
			return;
		}
	}
	const last = parts[parts.length - 1];
	if (last === '') {
		// Counted, not recounted: `a[]=` a thousand times must not cost a million steps.
		let index = lengths.get(node) ?? Object.keys(node).length;
		while (Object.hasOwn(node, String(index))) index++;
		node[String(index)] = value;
		lengths.set(node, index + 1);
	} else {
		appendValue(node, last, value);
	}
}

/** Form fields like n8n's body parser reads them (repeated keys become lists), with `a[b]=` nesting. */
export function parseForm(text: string, encoding: BufferEncoding = 'utf8'): PlainObject {
	const result: PlainObject = {};
	const lengths = new WeakMap<PlainObject, number>();
	let count = 0;
	for (const piece of text.split('&')) {
		if (piece === '') continue;
		if (++count > MAX_FORM_KEYS) break;
		const equals = piece.indexOf('=');
		const key = decodeFormComponent(equals === -1 ? piece : piece.slice(0, equals), encoding);
		const value = equals === -1 ? '' : decodeFormComponent(piece.slice(equals + 1), encoding);
		if (key !== '') placeFormField(result, key, value, lengths);
	}
	return result;
}
