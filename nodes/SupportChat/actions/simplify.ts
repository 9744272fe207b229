import type { IDataObject } from 'n8n-workflow';

import { getPath, isDataObject } from '../shared/json';

/** The first of several names a service may give the same field. */
function pick(record: IDataObject, ...paths: string[]): IDataObject[string] | undefined {
	for (const path of paths) {
		const value = getPath(record, path);
		if (value !== undefined && value !== null && value !== '') return value as IDataObject[string];
	}
	return undefined;
}

function compact(record: Record<string, IDataObject[string] | undefined>): IDataObject {
	return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as IDataObject;
}

function tagNames(value: unknown): string[] | undefined {
	if (!Array.isArray(value)) return undefined;
	return value
		.map((tag) => (isDataObject(tag) ? (tag.name ?? tag.tag) : tag))
		.filter((tag): tag is string => typeof tag === 'string');
}

/** The fields people use of a user record, under one set of names whatever the service calls them. */
export function userSummary(record: IDataObject): IDataObject {
	return compact({
		id: pick(record, 'id', '_id', 'uuid', 'user_id'),
		name: pick(record, 'name', 'full_name', 'fullName', 'display_name', 'displayName'),
		email: pick(record, 'email', 'email_address', 'emailAddress'),
		phone: pick(record, 'phone', 'phone_number', 'phoneNumber', 'mobile'),
		tags: tagNames(record.tags),
	});
}

/** The fields people use of a conversation record. */
export function conversationSummary(record: IDataObject): IDataObject {
	return compact({
		id: pick(record, 'id', '_id', 'uuid', 'conversation_id'),
		status: pick(record, 'status', 'state'),
		subject: pick(record, 'subject', 'title'),
		user_id: pick(record, 'user_id', 'userId', 'visitor_id', 'contact_id', 'user.id', 'visitor.id', 'contact.id'),
		user_name: pick(record, 'user.name', 'visitor.name', 'contact.name', 'user_name'),
		user_email: pick(record, 'user.email', 'visitor.email', 'contact.email', 'user_email'),
		assignee_id: pick(record, 'assignee_id', 'agent_id', 'assigned_to', 'assignee.id', 'agent.id', 'assignee'),
		created_at: pick(record, 'created_at', 'createdAt', 'created'),
		updated_at: pick(record, 'updated_at', 'updatedAt', 'updated'),
		closed_at: pick(record, 'closed_at', 'closedAt', 'archived_at'),
	});
}
