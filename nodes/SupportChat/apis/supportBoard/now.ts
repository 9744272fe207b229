import type { IDataObject } from 'n8n-workflow';

import type { FinderClient } from '../types';
import { isDataObject } from '../../shared/json';
import { highest, rows, text } from './pollEvents';
import { SUPPORT_BOARD_PAGE_SIZE } from './product';

/**
 * Where Support Board stands now, for the poll trigger's first poll: the true highest user, message and
 * conversation ids, not a guess from a list. get-users and get-conversations give a start; the
 * get-new-* functions above it, asked until they answer nothing newer, give the rest.
 */

/** Asks `next(mark)` for what is above the mark until nothing is: the true highest id, however the first guess fell short. */
async function chase(mark: number, next: (mark: number) => Promise<number>): Promise<number> {
	for (;;) {
		const found = await next(mark);
		if (found <= mark) return mark;
		mark = found;
	}
}

/**
 * Where the conversations and messages stand now. get-conversations puts conversations waiting for an
 * agent (status 2) first unless the product orders by date: its pages are read until the first row of
 * another status, for a first guess; get-new-conversations above that guess then finds the rest.
 */
export async function messagesNow(
	client: FinderClient,
): Promise<{ messageId: number; conversationId: number; rows: IDataObject[] }> {
	const seen: IDataObject[] = [];
	for (let page = 0; ; page++) {
		const list = rows(
			await client.read('get-conversations', { status_code: 'all', pagination: page }),
		);
		seen.push(...list);
		if (
			list.some((row) => text(row.conversation_status_code) !== '2') ||
			list.length < SUPPORT_BOARD_PAGE_SIZE
		)
			break;
	}
	let conversationId = highest(seen, 'conversation_id', 0);
	const messageId = await chase(highest(seen, 'message_id', 0), async (mark) => {
		const newer = rows(await client.read('get-new-conversations', { datetime: String(mark) }));
		conversationId = highest(newer, 'conversation_id', conversationId);
		return highest(newer, 'message_id', mark);
	});
	return { messageId, conversationId, rows: seen };
}

/** Conversations above the highest one seen that exist with no message yet: get-conversation finds them, one id at a time. */
export async function conversationsNow(client: FinderClient, seen: number): Promise<number> {
	return await chase(seen, async (mark) =>
		isDataObject(await client.read('get-conversation', { conversation_id: mark + 1 }))
			? mark + 1
			: mark,
	);
}

export async function usersNow(
	client: FinderClient,
): Promise<{ userId: number; rows: IDataObject[] }> {
	const list = rows(await client.read('get-users', { pagination: 0 }));
	const userId = await chase(highest(list, 'id', 0), async (mark) =>
		highest(rows(await client.read('get-new-users', { datetime: String(mark) })), 'id', mark),
	);
	return { userId, rows: list };
}
