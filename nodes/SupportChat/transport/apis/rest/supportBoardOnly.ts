import type { CallName } from '../../calls';

/**
 * The calls the service description has no REST path for: Support Board's Web API has a function for
 * each. The REST wire refuses them before any request, saying so, rather than guess at a path.
 */
const SUPPORT_BOARD_ONLY = {
	addNote: ['Add Note', 'add-note'],
	getNotes: ['Get Notes', 'get-notes'],
	deleteNote: ['Delete Note', 'delete-note'],
	updateConversationDepartment: ['Update Department', 'update-conversation-department'],
	updateConversationStatus: ['Update Status', 'update-conversation-status'],
	updateConversationTags: ['Update Tags', 'update-tags'],
	listDepartments: ['the department list', 'get-departments'],
	listAgents: ['the agent list', 'get-users'],
} as const satisfies Partial<Record<CallName, readonly [string, string]>>;

export type SupportBoardOnlyCall = keyof typeof SUPPORT_BOARD_ONLY;

export function isSupportBoardOnly(name: CallName): name is SupportBoardOnlyCall {
	return Object.hasOwn(SUPPORT_BOARD_ONLY, name);
}

/** The refusal: what is missing, where it exists, and what to do instead. */
export function supportBoardOnlyRefusal(name: SupportBoardOnlyCall): { message: string; description: string } {
	const [what, fn] = SUPPORT_BOARD_ONLY[name];
	return {
		message: `The service description has no REST path for ${what}: it exists only in Support Board's Web API (${fn})`,
		description:
			"For Support Board, set API to Support Board Web API in the Support Chat API credentials. For another service, send the request your service documents with n8n's HTTP Request node, using these credentials.",
	};
}
