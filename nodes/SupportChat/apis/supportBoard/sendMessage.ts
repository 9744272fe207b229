import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isDataObject } from '../../shared/json';
import { QUOTE_LENGTH } from '../../shared/text';
import type { CallResult, Calls, TemplateRecipient } from '../../transport/calls';
import type { WirePort } from '../../transport/wire';
import { whatsapp } from './channels';
import { tokenForward } from './forwardsToken';
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

/**
 * Message → Send Template: an approved WhatsApp template through whatsapp-send-template, with the
 * arguments the admin area's direct WhatsApp message sends (js/admin.js: to, recipient_id,
 * template_name, template_languages, phone_id, and parameters as `[header, body, button]`, each a
 * comma-separated text). The WhatsApp app (sb_whatsapp_send_template) sends it to Graph with the token
 * it keeps for that number, never the admin token, and, given recipient_id and no Graph error, stores
 * "WhatsApp Template *name*" as the admin in that user's latest WhatsApp conversation of that number,
 * opening one when there is none. Like a channel's reply, its refusal comes back inside HTTP 200
 * `success: true` (Graph's `error`), read as Message → Send reads it (./channels).
 */
const TEMPLATE_FN = 'whatsapp-send-template';

const text = (value: unknown): string =>
	typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';

/** The number as Graph takes it: its digits (the app strips only the +). */
const digitsOf = (phone: string): string => phone.replace(/\D/g, '');

interface TemplateTarget {
	to: string;
	userId?: string;
	phoneId?: string;
}

/** The customer of a WhatsApp conversation: their phone, the user, and the number it came in on. */
async function conversationTarget(port: WirePort, id: string): Promise<TemplateTarget> {
	const answer = notFound(
		port,
		await fn.read(port, 'get-conversation', { conversation_id: id }),
		'conversation',
		id,
	);
	const details = isDataObject(answer) && isDataObject(answer.details) ? answer.details : {};
	const source = text(details.source);
	if (source !== 'wa')
		throw port.refuse(
			`Conversation ${id} did not come from WhatsApp (its source is ${source === '' ? 'none: the chat widget' : `"${source}"`}), and a template goes to WhatsApp only: nothing was sent`,
			'Choose a WhatsApp conversation, or Phone Number under Send To.',
		);
	const userId = text(details.user_id);
	const phone = text(await fn.read(port, 'get-user-extra', { user_id: userId, slug: 'phone' }));
	if (digitsOf(phone) === '')
		throw port.refuse(
			`Conversation ${id} is on WhatsApp, but Support Board has no phone for its user ${userId}: nothing was sent`,
			"Add the customer's phone to the user in Support Board, or choose Phone Number under Send To.",
		);
	const phoneId = text(details.extra);
	return { to: digitsOf(phone), userId, phoneId: phoneId === '' ? undefined : phoneId };
}

/** A number: its user, when Support Board has one with that phone, so that the product records the template. */
async function phoneTarget(
	port: WirePort,
	phone: string,
	phoneId: string,
): Promise<TemplateTarget> {
	const to = digitsOf(phone);
	const user = await fn.read(port, 'get-user-by', { by: 'phone', value: `+${to}` });
	const userId = isDataObject(user) ? text(user.id) : '';
	return { to, userId: userId === '' ? undefined : userId, phoneId };
}

const targetOf = (port: WirePort, recipient: TemplateRecipient) =>
	'phone' in recipient
		? phoneTarget(port, recipient.phone, recipient.phoneId)
		: conversationTarget(port, recipient.conversationId);

/** What an empty HTTP 500 means here: PHP died, without the app or inside it. */
const templateHint = (status: number | undefined): string | undefined =>
	status === 500
		? "Support Board answers whatsapp-send-template with an empty HTTP 500 when its WhatsApp app is not installed, and when PHP stops inside the app, which may have sent the template first: check Support Board's WhatsApp settings, and the customer's chat before sending again."
		: undefined;

async function sendWhatsAppTemplate(
	port: WirePort,
	{ recipient, template, language, parameters }: Calls['sendWhatsAppTemplate'],
): Promise<CallResult> {
	const forwards = tokenForward(TEMPLATE_FN);
	if (forwards !== undefined) throw port.refuse(`${TEMPLATE_FN} was not called: ${forwards}`);
	const target = await targetOf(port, recipient);
	const parts = [parameters.header, parameters.body, parameters.button];
	const sent: IDataObject = {
		to: target.to,
		template_name: template,
		template_languages: language,
		// All three, empty ones too: a part left out takes the app's default template's parameters.
		parameters: JSON.stringify(parts.map((values) => values.join(','))),
		// Named whenever known: without one, the app (1.3.1) takes the second number of its settings.
		...(target.phoneId === undefined ? {} : { phone_id: target.phoneId }),
		...(target.userId === undefined ? {} : { recipient_id: target.userId }),
	};
	const answer = await fn.named(port, 'whatsapp-send-template', sent, {
		read: false,
		repeatable: false,
		resourceLabel: 'conversation',
		hint: templateHint,
	});
	if (answer === false)
		throw port.error(
			200,
			`Support Board sent nothing for template ${template}: its WhatsApp app answered false`,
			{
				description:
					"The app answers false when it finds nothing to send: with its 360dialog provider, when its template settings (the namespace) are not set or it has no such template. Check Support Board's WhatsApp settings.",
			},
		);
	const verdict = whatsapp(answer);
	if (!verdict.delivered) throw templateRefused(port, template, verdict.reason, verdict.unproven);
	return {
		answer: {
			channel: 'WhatsApp',
			status: 'sent',
			whatsappMessageId: verdict.id ?? null,
			recordedInSupportBoard: target.userId !== undefined,
			sent: { ...sent, parameters: parts.map((values) => values.join(',')) },
			response: isDataObject(answer) ? answer : null,
		},
		sent,
	};
}

function templateRefused(port: WirePort, template: string, reason: string, unproven?: true) {
	const quoted = port.mask.quote(reason, QUOTE_LENGTH);
	return unproven
		? port.error(
				200,
				`Support Board answered ${TEMPLATE_FN} with ${quoted}: whether WhatsApp received template ${template} is not known`,
				{
					description:
						"The answer shows neither WhatsApp's message ID nor a refusal. Look at the customer's chat in Support Board before sending it again.",
				},
			)
		: port.error(200, `WhatsApp refused template ${template}: ${quoted}`, {
				description:
					"Nothing was sent, and Support Board recorded nothing. Check the template's name and language code against your approved templates (WhatsApp Manager), and its parameters against the template's placeholders.",
			});
}

/** The message of a 3.8.7 picker: its Web API has no whatsapp-get-templates. */
const NO_TEMPLATE_LIST =
	"This Support Board's Web API has no whatsapp-get-templates: it came in Support Board 3.8.9. Choose By Name and type the template's name";

/** Whether api.php refused the function as unknown (HTTP 404, `function-not-found`). */
function functionNotFound(error: unknown): boolean {
	if (!(error instanceof NodeApiError) || error.httpCode !== '404') return false;
	try {
		const body: unknown = JSON.parse(String(error.context.responseBody ?? ''));
		return isDataObject(body) && body.response === 'function-not-found';
	} catch {
		return false;
	}
}

/** whatsapp-get-templates (3.8.9's Web API): `[provider, templates]`, as the WhatsApp app answers it. */
async function listWhatsAppTemplates(port: WirePort): Promise<CallResult> {
	try {
		return { answer: await fn.read(port, 'whatsapp-get-templates', {}), sent: {} };
	} catch (error) {
		throw functionNotFound(error)
			? port.refuse(
					NO_TEMPLATE_LIST,
					'WhatsApp Manager lists your approved templates by name. Updating Support Board to 3.8.9 or later brings this list.',
				)
			: error;
	}
}

export const SEND_CALLS = { sendMessage, sendWhatsAppTemplate, listWhatsAppTemplates };
