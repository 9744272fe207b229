import type { IDataObject } from 'n8n-workflow';

import { isDataObject } from '../../shared/json';
import type { CallResult, Calls } from '../../transport/calls';
import type { WirePort } from '../../transport/wire';
import { deliver, routeOf } from './replyRoute';
import { fn, notFound, unsupported } from './functions';
import { uploadFiles } from './upload';

/**
 * Message → Send on Support Board: where the reply goes is read first (./delivery), the item's files
 * are uploaded (./upload), the message is stored with every attachment (send-message takes them as JSON
 * `[[name, url], …]`), then sent on to the conversation's messaging channel, if it has one.
 */

/**
 * Who writes a message sent as `type`: as agent, the admin whose token it is (the product's `-1`); as
 * the visitor, the conversation's owner; as bot, the product's bot user.
 */
async function senderOf(
	port: WirePort,
	type: string,
	conversationId: string,
): Promise<string | number> {
	if (type === 'agent') return -1;
	if (type === 'bot') return String(await fn.read(port, 'get-bot-id', {}));
	if (type === 'user') {
		const owner = notFound(
			port,
			await fn.read(port, 'get-user-from-conversation', { conversation_id: conversationId }),
			'conversation',
			conversationId,
		);
		if (isDataObject(owner) && owner.id !== undefined) return String(owner.id);
		throw unsupported(
			port,
			`Support Board names no user for conversation ${conversationId}, so no message can be sent as its user: choose Agent under Send As, or give Sender ID`,
		);
	}
	throw unsupported(
		port,
		`Support Board writes a message as an agent, the user or the bot; "${type}" is none of them: choose it under Send As`,
	);
}

/** The stored message's ID from send-message's answer (`{id, queue, …, message}`). */
const storedId = (answer: unknown): string =>
	isDataObject(answer) && (typeof answer.id === 'number' || typeof answer.id === 'string')
		? String(answer.id)
		: '';

/**
 * The answer with the files as the message stores them: an upload's name is the one THE file name rule
 * made of it (./upload), which may not be the name given, and the output says which.
 */
function withNames(answer: unknown, attachments: Array<[string, string]>): unknown {
	if (!isDataObject(answer) || attachments.length === 0) return answer;
	return { ...answer, attachments: attachments.map(([name, url]) => ({ name, url })) };
}

async function sendMessage(
	port: WirePort,
	{
		conversationId,
		message,
		type,
		senderId,
		extra,
		files,
		attachmentUrls,
		deliver: onward,
	}: Calls['sendMessage'],
): Promise<CallResult> {
	// The admin area sends on what its agents and the bot write; a message written as the customer is theirs already.
	const route = onward && type !== 'user' ? await routeOf(port, conversationId) : undefined;
	const attachments: Array<[string, string]> = [
		...(files.length > 0 ? await uploadFiles(port, files) : []),
		...attachmentUrls.map(({ name, url }): [string, string] => [name, url]),
	];
	const sent: IDataObject = {
		user_id: senderId ?? (await senderOf(port, type, conversationId)),
		conversation_id: conversationId,
		message,
		...(attachments.length > 0 ? { attachments: JSON.stringify(attachments) } : {}),
		...extra,
	};
	const answer = withNames(await fn.write(port, 'send-message', sent, 'conversation'), attachments);
	if (route === undefined) return { answer, sent };
	const messageId = storedId(answer);
	const stored = isDataObject(answer) ? answer : {};
	const delivery = await deliver(port, route, {
		// As the admin area does: the text the product stored (its spelling correction, an Extra Body
		// Field named message), so the customer reads what the conversation shows.
		message: typeof stored.message === 'string' ? stored.message : message,
		attachments,
		messageId,
		conversationId,
		extra: route.extra,
	});
	return { answer: { ...stored, delivery }, sent };
}

export const SEND_CALLS = { sendMessage };
