/**
 * What the poll trigger reads in a REST service's records to tell new from old. The description shows no
 * record fields (§2), so these are the names chat and CRM services use; Watermark Field overrides them.
 */

/** A record's creation time, first present wins. */
export const CREATED_AT_KEYS: readonly string[] = ['created_at', 'createdAt', 'creation_time', 'created', 'date_created', 'inserted_at'];

/** When a conversation was closed, first present wins; its last change when it keeps no closing time. */
export const CLOSED_AT_KEYS: readonly string[] = ['closed_at', 'closedAt', 'archived_at', 'archivedAt', 'resolved_at', 'updated_at', 'updatedAt'];

/** Where a conversation's state is, and the states that mean closed (spec §3: "closed (archived)"). */
export const STATUS_KEYS: readonly string[] = ['status', 'state'];
export const CLOSED_STATES: ReadonlySet<string> = new Set(['closed', 'archived', 'resolved', 'done']);
