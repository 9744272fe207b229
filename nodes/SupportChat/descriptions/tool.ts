import type { INodeProperties } from 'n8n-workflow';

/**
 * n8n's marker for a value the model fills (n8n-workflow's FROM_AI_AUTO_GENERATED_MARKER, copied
 * because older n8n releases do not export it): the editor shows such a value as "Defined
 * automatically by the model", with its description editable.
 */
const FROM_AI_MARKER = '/*n8n-auto-generated-fromAI-override*/';

/**
 * What the model is told about each input it fills when the node is an AI Agent's tool. n8n builds
 * the tool's argument schema from the `$fromAI(key, description, type)` calls in the node's
 * parameters, and nothing else of a parameter (not its display name, not its description) reaches
 * the model; the editor's own "let the model define this" button writes an empty description.
 */
const MODEL_INPUTS = {
	userId: 'ID of the user, as in the id field of a Support Chat user record',
	conversationId:
		'ID of the conversation, as in the id field of a Support Chat conversation record',
	assignee: 'ID of the support agent (or team) to assign the conversation to',
	message: 'Text of the message to send into the conversation, as the support agent',
	tag: 'Name of the tag to add to the user, e.g. vip. A tag the service does not have yet is created.',
	findValue:
		'Email address or phone number of the user to find, as the user gave it (a phone with its leading + and country code)',
	userSearch: 'Text to look for in the users: part of a name, an email address or a phone number',
	conversationSearch:
		'Text to look for in the conversations: words of a message or subject, a name, an email address, or a conversation ID',
	whatsappPhone:
		"Phone number of the customer's WhatsApp, in international format with its leading + and country code, e.g. +4915112345678",
	templateName: 'Name of the approved WhatsApp template to send, e.g. order_update',
	functionName:
		'Name of the Support Board Web API function to call, e.g. get-user: one of the functions this tool allows',
	functionArguments:
		'Arguments of the function as a JSON object of argument names and values, e.g. {"user_id": "12"}; {} for none',
} as const;

type ModelInput = keyof typeof MODEL_INPUTS;

/** The expression by which the model fills an input: a `$fromAI` call as the editor writes one. */
function fromAi(key: ModelInput): string {
	return `={{ ${FROM_AI_MARKER} $fromAI('${key}', \`${MODEL_INPUTS[key]}\`, 'string') }}`;
}

/**
 * A parameter as it is in a workflow, and again for the node's tool type (n8n's `@tool` display
 * condition), where its default lets the model fill it. A user can still set it in the editor; only
 * the default differs, so saved workflows and the parameter's name stay as they are.
 * @param mode for a resource locator, the mode that takes the model's text (By ID, By Name)
 */
export function filledByModel(
	property: INodeProperties,
	key: ModelInput,
	mode?: string,
): INodeProperties[] {
	const value = fromAi(key);
	return [
		{ ...property, displayOptions: { ...property.displayOptions, hide: { '@tool': [true] } } },
		{
			...property,
			default: mode === undefined ? value : { __rl: true, mode, value },
			displayOptions: { ...property.displayOptions, show: { '@tool': [true] } },
		},
	];
}
