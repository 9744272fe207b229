import type { CallName } from '../../calls';

/**
 * The calls the service description's REST paths (§4) have no request for: the REST wire refuses them
 * before any request, naming the API that has them and what to use instead.
 */
export type RestRefusal = { refuse: string };

const onlySupportBoard = (what: string, instead: string): RestRefusal => ({
	refuse: `The service description has no REST path to ${what}: this operation is for Support Board's Web API (choose Support Board Web API in the credentials). With the REST API, ${instead}`,
});

export const REST_REFUSALS = {
	getMessages: onlySupportBoard(
		"list a conversation's messages",
		'use Conversation → Get: the conversation record carries whatever messages your service includes',
	),
	findUser: onlySupportBoard(
		'find a user by e-mail or phone',
		'use User → Get Many with an Extra Query Parameter your service filters by (email, say), or a Filter node after it',
	),
	searchUsers: onlySupportBoard(
		'search users',
		'use User → Get Many with an Extra Query Parameter your service searches by (search, say), or a Filter node after it',
	),
	searchConversations: onlySupportBoard(
		'search conversations',
		'use Conversation → Get Many with an Extra Query Parameter your service searches by (search, say), or a Filter node after it',
	),
	getUserConversations: onlySupportBoard(
		"list a user's conversations",
		'use Conversation → Get Many with an Extra Query Parameter user_id if your service filters by it, or a Filter node on user_id after it',
	),
} satisfies Partial<Record<CallName, RestRefusal>>;
