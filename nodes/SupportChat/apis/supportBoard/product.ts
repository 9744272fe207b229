import type { IDataObject } from 'n8n-workflow';

import { isDataObject } from '../../shared/json';

/**
 * What Support Board is, as data: its page size, its status codes, the functions behind its lists and
 * what its refusal codes mean. The wire and the poll finder read it; ./functions sends the calls.
 */

/** Rows in one page of get-users and get-conversations (the product's `LIMIT pagination * 100, 100`). */
export const SUPPORT_BOARD_PAGE_SIZE = 100;

export const TAGS_UNSUPPORTED =
	'Support Board\'s Web API has no tag function, so the node cannot tag a user or list tags there. To label a user, use User → Update with an Extra Body Field named settings_extra and a value such as {"segment": ["lead", "Segment"]} (a user detail), or give a conversation tags when creating it (Extra Body Field tags)';

/** What the Status of a new conversation is in the product's codes: 2 waits for an agent, 0 is live. */
const NEW_STATUS: Readonly<Record<string, number>> = { active: 0, pending: 2 };

export function conversationStatus(status: string | undefined): IDataObject {
	return status !== undefined && Object.hasOwn(NEW_STATUS, status)
		? { status_code: NEW_STATUS[status] }
		: {};
}

/**
 * The Status filter of Get Many in the product's codes. Without one, `all`: the product leaves
 * archived conversations out unless asked, and the description promises active, pending and closed.
 * Active is the product's inbox (every code but archived and trash).
 */
const LIST_STATUS: Readonly<Record<string, number | string>> = { active: 0, pending: 2, closed: 3 };

export const SB_LISTS: Readonly<
	Record<'users' | 'conversations', { args(query: IDataObject): IDataObject }>
> = {
	users: { args: (query) => ({ function: 'get-users', ...query }) },
	conversations: {
		args: ({ status, ...rest }) => ({
			function: 'get-conversations',
			status_code:
				typeof status === 'string' && Object.hasOwn(LIST_STATUS, status)
					? LIST_STATUS[status]
					: 'all',
			...rest,
		}),
	},
};

/**
 * What to do about the product's refusals, by its code: every code of Support Board 3.8.7's source
 * (`sb_error(…)`, `new SBValidationError(…)`) that a Web API function can answer with a meaning of its
 * own, answered `{"status": "error", "response": "<code>"}` or `{"success": false, "response": "<code>"}`.
 * Codes only the admin area, the cloud or app installs answer are left out.
 */
const CODE_HINTS: ReadonlyMap<string, string> = new Map(
	Object.entries({
		'active-user-not-found':
			"Support Board did not know who writes the message: give the sender's user ID (Sender ID), or send it as the admin whose token it is.",
		'agent-update-error':
			"Support Board could not save the conversation's agent in its database: check the conversation ID, then run again.",
		'app-not-installed':
			'This function belongs to a Support Board app (WordPress, Dialogflow or Slack) that this Support Board does not have: install and activate the app, or call another function.',
		'db-error':
			"Support Board's database refused the query, for the reason in the message: check the values sent, and Support Board's database.",
		'department-update-error':
			"Support Board could not save the conversation's department in its database: check the conversation and department IDs, then run again.",
		'duplicate-email':
			'A Support Board user with this e-mail exists already: update that user, or use another e-mail.',
		'duplicate-phone':
			'A Support Board user with this phone exists already: update that user, or use another phone.',
		'email-error':
			"Support Board could not send the e-mail, for its mail server's reason in the message: check the SMTP settings of Support Board.",
		'function-not-found':
			'This Support Board does not know the function in its Web API: the node is made for Support Board 3.8; check your version.',
		'invalid-otp':
			'Support Board asks for a one-time password (otp) with this e-mail, and the one sent is wrong or missing.',
		'invalid-status-code':
			'Support Board takes a conversation status code from 0 to 4 (5 empties the trash): check the status sent.',
		'invalid-token':
			"Support Board refused the token: use an admin's token (in Support Board, Users, then your admin user's profile box).",
		'invalid-user-type':
			'Support Board takes the user types visitor, user, lead, agent, admin and bot only: check user_type.',
		'json-encode-error':
			'Support Board could not store the settings as JSON: check that the settings sent are text in UTF-8.',
		'missing-argument':
			'This Support Board expects an argument the node does not send: the node is made for Support Board 3.8; check your version.',
		'missing-arguments':
			'Support Board updates a message only with a new text, payload or attachments: send at least one.',
		'missing-function-name': 'The call named no function of the Web API: give the function name.',
		'missing-user-id-or-message':
			'Support Board sends an e-mail only with a recipient (recipient_id) and a message: give both.',
		'not-an-agent':
			'Support Board assigns conversations only to agents and admins, and the assignee is neither: choose an agent or an admin (From List under Assignee offers them).',
		'security-error':
			"Support Board refused the call for security: check that the token is an admin's.",
		'settings-not-found': 'Support Board received no settings to save: send the settings.',
		'token-not-found':
			'Support Board did not receive a token: set the Admin Token in the Support Chat API credentials.',
		'user-not-found': 'Support Board has no user with this ID: check the User ID.',
		'user-email-not-found':
			'The Support Board user to e-mail has no e-mail address: add one to the user first.',
		'user-or-sender-not-found':
			'Support Board found no recipient or no sender for the e-mail: check both user IDs.',
		'value-not-numeric':
			'Support Board expected a number (an ID) and received something else: check the IDs sent.',
	}),
);

/**
 * The product's code in its answer: `response` of its JSON, or the `[function][code]` of the text it
 * dies with (`Support Board [sb_db_escape][value-not-numeric]: …`, and every error in its debug mode).
 */
const CODE_IN_TEXT = /\[[\w.-]{1,64}\]\[([a-z-]{1,64})\]/;

function productCode(body: unknown): string | undefined {
	if (isDataObject(body)) return typeof body.response === 'string' ? body.response : undefined;
	return typeof body === 'string' ? CODE_IN_TEXT.exec(body.slice(0, 500))?.[1] : undefined;
}

/** Functions of the Web API that came after 3.8.7, by the version that adds them. */
const ADDED_IN: ReadonlyMap<string, string> = new Map([
	['update-tags', '3.8.9'],
	['whatsapp-get-templates', '3.8.9'],
]);

/**
 * The hint for one of the product's refusals, or for an answer that shows no Support Board at the
 * address. `fn`: the function called, so that a function a newer version adds says which.
 */
export function codeHint(
	status: number | undefined,
	body: unknown,
	fn?: string,
): string | undefined {
	const code = productCode(body);
	const since = fn === undefined ? undefined : ADDED_IN.get(fn);
	if (code === 'function-not-found' && since !== undefined) {
		return `${fn} is in the Web API of Support Board ${since} or later, and this Support Board does not have it: update Support Board to ${since} or later.`;
	}
	if (code !== undefined && CODE_HINTS.has(code)) return CODE_HINTS.get(code);
	if (status === 404) {
		return 'No Support Board Web API answered at this address. Set the Base URL in the credentials to your Support Board: its install folder (https://example.com/supportboard), https://host/script for the cloud and SaaS editions, or the full …/include/api.php.';
	}
	return undefined;
}
