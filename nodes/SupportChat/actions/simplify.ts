import type { IDataObject } from 'n8n-workflow';

import { fieldOf, getPath, isRecord } from '../shared/json';
import { attachmentsOf } from '../files/parse';
import {
	MESSAGE_SUMMARY,
	SENDER_NAME_PARTS,
	SENDER_NAME_PATHS,
} from '../shared/vocabulary/messages';
import type { SummaryFields } from '../shared/vocabulary/records';
import {
	CONVERSATION_SUMMARY,
	CONVERSATION_USER_NAME_PARTS,
	NAME_PARTS,
	TAG_NAME_KEYS,
	USER_SUMMARY,
} from '../shared/vocabulary/records';

/** The first of several names a service may give the same field. */
function pick(record: IDataObject, paths: readonly string[]): IDataObject[string] | undefined {
	for (const path of paths) {
		const value = getPath(record, path);
		if (value !== undefined && value !== null && value !== '') return value as IDataObject[string];
	}
	return undefined;
}

/** One output field per entry of the table, left out when the record has none of its paths. */
function summarize(record: IDataObject, fields: SummaryFields): IDataObject {
	const summary: IDataObject = {};
	for (const [field, paths] of Object.entries(fields)) {
		const value = pick(record, paths);
		if (value !== undefined) summary[field] = value;
	}
	return summary;
}

/** A name kept as first and last name, joined; undefined when no pair has a first name. */
function joinedName(
	record: IDataObject,
	pairs: readonly (readonly [string, string])[],
): string | undefined {
	for (const [first, last] of pairs) {
		const given = getPath(record, first);
		if (typeof given !== 'string' || given.trim() === '') continue;
		const family = getPath(record, last);
		return typeof family === 'string' && family.trim() !== ''
			? `${given.trim()} ${family.trim()}`
			: given.trim();
	}
	return undefined;
}

/** A tag's name: the tag itself when it is a plain value, else its first name key that is set. */
export function tagName(tag: unknown): unknown {
	if (!isRecord(tag)) return tag;
	for (const key of TAG_NAME_KEYS) {
		const value = fieldOf(tag, key);
		if (value !== undefined && value !== null) return value;
	}
	return undefined;
}

function tagNames(value: unknown): string[] | undefined {
	if (!Array.isArray(value)) return undefined;
	return value.map(tagName).filter((tag): tag is string => typeof tag === 'string');
}

/** The fields people use of a user record, under one set of names whatever the service calls them. */
export function userSummary(record: IDataObject): IDataObject {
	const summary = summarize(record, USER_SUMMARY);
	const name = summary.name ?? joinedName(record, NAME_PARTS);
	if (name !== undefined) summary.name = name;
	const tags = tagNames(fieldOf(record, 'tags'));
	if (tags !== undefined) summary.tags = tags;
	return summary;
}

/** The fields people use of a conversation record. */
export function conversationSummary(record: IDataObject): IDataObject {
	const summary = summarize(record, CONVERSATION_SUMMARY);
	const name = summary.user_name ?? joinedName(record, CONVERSATION_USER_NAME_PARTS);
	return name === undefined ? summary : { ...summary, user_name: name };
}

/** The fields people use of a message: who wrote it (id, name, type), the text, the attachments, the time. */
export function messageSummary(record: IDataObject): IDataObject {
	const { id, sender_id, user_type, text, time } = summarize(record, MESSAGE_SUMMARY);
	const name = pick(record, SENDER_NAME_PATHS) ?? joinedName(record, SENDER_NAME_PARTS);
	const summary = {
		id,
		sender_id,
		sender_name: name,
		user_type,
		text: text ?? '',
		attachments: attachmentsOf(record),
		time,
	};
	return Object.fromEntries(
		Object.entries(summary).filter(([, value]) => value !== undefined),
	) as IDataObject;
}
