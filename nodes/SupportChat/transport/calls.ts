import type { IDataObject } from 'n8n-workflow';

/**
 * What an operation can ask of the service, by name, with what it names. An operation never says how
 * a call travels: each wire in ./wires (the REST paths of the service description, Support Board's Web
 * API) implements every call here, so a call without an implementation fails to compile.
 */

/**
 * Who a WhatsApp template goes to: a WhatsApp conversation's customer, on its number; or a phone number
 * (international format), from the WhatsApp number whose phone number ID is `phoneId`.
 */
export type TemplateRecipient = { conversationId: string } | { phone: string; phoneId: string };

/** The values of a template's parameters, by the part of the template that holds them, in order. */
export interface TemplateParameters {
	header: string[];
	body: string[];
	button: string[];
}

/** The user fields the service description documents (§2), checked by the operation. */
export interface UserFields {
	name?: string;
	email?: string;
	phone?: string;
	tags?: string[];
}

/** The fields of a new conversation the node offers (the description shows none). */
export interface ConversationFields {
	user_id?: string;
	message?: string;
	subject?: string;
	status?: string;
}

/** A file the item carries (its binary data), to send with a message. */
export interface AttachmentFile {
	name: string;
	mimeType: string;
	bytes: Buffer;
}

/** A file already online, sent with a message by its address. */
export interface AttachmentUrl {
	name: string;
	url: string;
}

/** The largest file the node sends from an item's binary data (docs/support-board.md › Attachments). */
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

/** `extra`: the user's Extra Body Fields, sent as they are beside what the node sends. */
export interface Calls {
	getUser: { id: string };
	createUser: { fields: UserFields; extra: IDataObject };
	updateUser: { id: string; fields: UserFields; extra: IDataObject };
	deleteUser: { id: string };
	getConversation: { id: string };
	createConversation: { fields: ConversationFields; extra: IDataObject };
	assignConversation: { id: string; assignee: string; assigneeField: string; extra: IDataObject };
	closeConversation: { id: string; extra: IDataObject };
	sendMessage: {
		conversationId: string;
		message: string;
		type: string;
		senderId?: string;
		extra: IDataObject;
		files: AttachmentFile[];
		attachmentUrls: AttachmentUrl[];
		/** Whether a reply in a messaging channel's conversation is forwarded to that channel too. */
		deliver: boolean;
	};
	addTag: { userId: string; tag: string; extra: IDataObject };
	addNote: { conversationId: string; note: string; authorId?: string; authorName?: string };
	getNotes: { conversationId: string };
	deleteNote: { conversationId: string; noteId: string };
	updateConversationDepartment: { conversationId: string; department: string; extra: IDataObject };
	/** `status`: the value of a Status option of Update Status (`active`, `pending`, …), never an API's code. */
	updateConversationStatus: { conversationId: string; status: string; extra: IDataObject };
	updateConversationTags: { conversationId: string; tags: string[]; add: boolean };
	/** The pickers' reads: the departments and the agents (admins included) a conversation can go to. */
	listDepartments: Record<string, never>;
	listAgents: Record<string, never>;
	/** A conversation's messages, oldest first (the whole list: no API here pages it). */
	getMessages: { conversationId: string };
	/** The user with this e-mail or phone; the answer is null when the service has none. */
	findUser: { by: 'email' | 'phone'; value: string };
	/** The users the service finds for a text (the whole list, in the service's order). */
	searchUsers: { search: string };
	/** The conversations the service finds for a text (the whole list, in the service's order). */
	searchConversations: { search: string };
	/** One user's conversations (the whole list, in the service's order). */
	getUserConversations: { userId: string };
	/**
	 * One function of an API that has functions (Support Board's Web API), by the name the user gave,
	 * with the user's arguments; `repeatable`: the user's word that repeating it does nothing twice.
	 */
	callFunction: { name: string; args: IDataObject; repeatable: boolean };
	/** An approved WhatsApp template, by name and language code, sent through Support Board's WhatsApp app. */
	sendWhatsAppTemplate: {
		recipient: TemplateRecipient;
		template: string;
		language: string;
		parameters: TemplateParameters;
	};
	/** The picker's read: the WhatsApp templates the app's business accounts hold. */
	listWhatsAppTemplates: Record<string, never>;
	/** The service's whole settings, as it stores them (the webhook trigger's Set Up Webhook reads them). */
	readServiceSettings: Record<string, never>;
	/** Stores `settings` in place of ALL the service's settings: pass what readServiceSettings gave, changed. */
	saveServiceSettings: { settings: IDataObject };
}

export type CallName = keyof Calls;

/**
 * What a call brought back: the service's answer (its envelope already taken off by the wire where the
 * wire knows it), and what was sent, which is what an operation reports when the answer holds no record.
 */
export interface CallResult {
	answer: unknown;
	sent: IDataObject;
}

export type ListName = 'users' | 'conversations' | 'tags';

export interface ListCall {
	list: ListName;
	/** Filters and the user's Extra Query Parameters. */
	query: IDataObject;
	/** Max records to return; undefined = all. */
	limit?: number;
}
