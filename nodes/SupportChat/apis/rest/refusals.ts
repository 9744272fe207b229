import type { CallName, Calls } from '../../transport/calls';

/**
 * The calls the service description's REST paths (§4) have no request for: the REST wire refuses them
 * before any request, naming the Support Board function that does it and what to use instead.
 */
export type RestRefusal = { refuse: string };

const HTTP_REQUEST =
	"send the request your service documents with n8n's HTTP Request node, using these credentials";

const onlySupportBoard = (what: string, fn: string, instead = HTTP_REQUEST): RestRefusal => ({
	// All in the message: a continue-on-fail item and an AI Agent's tool see the message only.
	refuse: `The service description has no REST path to ${what}: it exists only in Support Board's Web API (${fn}). For Support Board, choose Support Board Web API in the Support Chat API credentials; with the REST API, ${instead}.`,
});

export const REST_REFUSALS = {
	getMessages: onlySupportBoard(
		"list a conversation's messages",
		'get-conversation',
		'use Conversation → Get: the conversation record carries whatever messages your service includes',
	),
	findUser: onlySupportBoard(
		'find a user by e-mail or phone',
		'get-user-by',
		'use User → Get Many with an Extra Query Parameter your service filters by (email, say), or a Filter node after it',
	),
	searchUsers: onlySupportBoard(
		'search users',
		'search-users',
		'use User → Get Many with an Extra Query Parameter your service searches by (search, say), or a Filter node after it',
	),
	searchConversations: onlySupportBoard(
		'search conversations',
		'search-conversations',
		'use Conversation → Get Many with an Extra Query Parameter your service searches by (search, say), or a Filter node after it',
	),
	getUserConversations: onlySupportBoard(
		"list a user's conversations",
		'get-user-conversations',
		'use Conversation → Get Many with an Extra Query Parameter user_id if your service filters by it, or a Filter node on user_id after it',
	),
	addNote: onlySupportBoard('add a note', 'add-note'),
	getNotes: onlySupportBoard('get the notes of a conversation', 'get-notes'),
	deleteNote: onlySupportBoard('delete a note', 'delete-note'),
	updateConversationDepartment: onlySupportBoard(
		"update a conversation's department",
		'update-conversation-department',
	),
	updateConversationStatus: onlySupportBoard(
		"update a conversation's status",
		'update-conversation-status',
	),
	updateConversationTags: onlySupportBoard("update a conversation's tags", 'update-tags'),
	listDepartments: onlySupportBoard(
		'list departments',
		'get-departments',
		'type the department ID',
	),
	listAgents: onlySupportBoard('list agents', 'get-users', 'type the agent ID'),
	callFunction: onlySupportBoard('call a function by name', 'any function you name'),
	sendWhatsAppTemplate: onlySupportBoard(
		'send a WhatsApp template',
		'whatsapp-send-template, with its WhatsApp app',
		"send the template with your WhatsApp provider's own API (Meta's Cloud API, say) through n8n's WhatsApp Business Cloud or HTTP Request node",
	),
	listWhatsAppTemplates: onlySupportBoard(
		'list WhatsApp templates',
		'whatsapp-get-templates, Support Board 3.8.9 or later',
		"choose By Name and type the template's name",
	),
	readServiceSettings: onlySupportBoard(
		"read the service's settings",
		'get-settings',
		"turn off Set Up Webhook in Support Board and paste the trigger's Production URL into your service's dashboard",
	),
	saveServiceSettings: onlySupportBoard(
		"write the service's settings",
		'save-settings',
		"turn off Set Up Webhook in Support Board and paste the trigger's Production URL into your service's dashboard",
	),
} satisfies Partial<Record<CallName, RestRefusal>>;

const NO_ATTACHMENTS = (what: string) =>
	`The service description has no ${what} (§4 sends a message as conversation_id, message, type and sender_id). Support Board's Web API takes attachments; with the REST API, if your service takes files by their address, send them as the Extra Body Field it documents (Additional Fields → Extra Body Fields).`;

/**
 * Inputs of a call the REST paths have no field for, refused before any request: the message's
 * attachments (files from the item's binary data have no upload request either).
 */
export function refusedInput<K extends CallName>(name: K, args: Calls[K]): string | undefined {
	if (name !== 'sendMessage') return undefined;
	const { files, attachmentUrls } = args as Calls['sendMessage'];
	if (files.length > 0)
		return NO_ATTACHMENTS('request to upload a file, nor a field for attachments');
	if (attachmentUrls.length > 0) return NO_ATTACHMENTS("field for a message's attachments");
	return undefined;
}
