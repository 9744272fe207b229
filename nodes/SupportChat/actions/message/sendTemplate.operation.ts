import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { idInput, requestOptionsCollection } from '../../descriptions/common';
import { filledByModel } from '../../descriptions/tool';
import { itemCollection } from '../../shared/parameters';
import type { TemplateParameters, TemplateRecipient } from '../../transport/calls';
import { locatorValue, parameterText, requiredText, resultOf, userFields } from '../helpers';
import type { OperationClient } from '../types';

/**
 * Message → Send Template (Support Board only): an approved WhatsApp template, through the product's
 * whatsapp-send-template, to a WhatsApp conversation's customer or to a phone number.
 */

/** The properties shown for one choice of Send To, in a workflow and in the tool type alike. */
const whenSentTo = (sendTo: string, properties: INodeProperties[]): INodeProperties[] =>
	properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, sendTo: [sendTo] },
		},
	}));

const properties: INodeProperties[] = [
	{
		displayName: 'Send To',
		name: 'sendTo',
		type: 'options',
		noDataExpression: true,
		default: 'conversation',
		options: [
			{
				name: 'Conversation',
				value: 'conversation',
				description:
					"The customer of a conversation that came from WhatsApp, on that conversation's number",
			},
			{
				name: 'Phone Number',
				value: 'phone',
				description: 'A WhatsApp number, in international format',
			},
		],
	},
	...whenSentTo('conversation', idInput('conversationId', 'Conversation')),
	...whenSentTo(
		'phone',
		filledByModel(
			{
				displayName: 'Phone Number',
				name: 'phone',
				type: 'string',
				required: true,
				default: '',
				placeholder: '+4915112345678',
				description:
					'WhatsApp number in international format, with a leading + and the country code',
			},
			'whatsappPhone',
		),
	),
	{
		displayName: 'Sender Phone Number ID',
		name: 'phoneId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 109000000000001',
		description:
			"Meta's phone number ID of the WhatsApp number to send from, as Support Board's WhatsApp settings show it. Support Board's WhatsApp app needs it: without one, it takes the second number of its settings.",
		displayOptions: { show: { sendTo: ['phone'] } },
	},
	...filledByModel(
		{
			displayName: 'Template',
			name: 'template',
			type: 'resourceLocator',
			required: true,
			default: { mode: 'name', value: '' },
			description:
				'An approved WhatsApp template. From List needs Support Board 3.8.9 or later (whatsapp-get-templates).',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					placeholder: 'Select a template...',
					typeOptions: { searchListMethod: 'searchWhatsAppTemplates', searchable: true },
				},
				{ displayName: 'By Name', name: 'name', type: 'string', placeholder: 'e.g. order_update' },
			],
		},
		'templateName',
		'name',
	),
	{
		displayName: 'Language',
		name: 'language',
		type: 'string',
		required: true,
		default: 'en_US',
		placeholder: 'e.g. en_US',
		description: "The template's language code, as WhatsApp Manager shows it (en_US, de, pt_BR)",
	},
	{
		displayName: 'Parameters',
		name: 'templateParameters',
		type: 'fixedCollection',
		placeholder: 'Add Parameter',
		default: {},
		typeOptions: { multipleValues: true, sortable: true },
		description:
			"Values for the template's placeholders: each part's values fill its placeholders in order ({{1}}, {{2}}, …)",
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{
						displayName: 'Part',
						name: 'part',
						type: 'options',
						default: 'body',
						options: [
							{ name: 'Body', value: 'body' },
							{
								name: 'Button',
								value: 'button',
								description: "A URL button's suffix; one value per button, in order",
							},
							{
								name: 'Header',
								value: 'header',
								description:
									'Text, or the link of an image, video or document (.jpg, .png, .mp4, .pdf)',
							},
						],
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description:
							'The text for this placeholder, without commas: Support Board cuts values at commas, so the node refuses a value that holds one',
					},
				],
			},
		],
	},
	requestOptionsCollection,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['message'], operation: ['sendTemplate'] } },
	properties,
);

/** Meta's language codes: a language (en, fil), with a region or variant (en_US, es_419, zh_HK). */
const LANGUAGE_CODE = /^[a-z]{2,3}(?:_[A-Za-z0-9]{2,4})?$/;

const PARTS: ReadonlySet<string> = new Set(['header', 'body', 'button']);

const isPart = (part: unknown): part is keyof TemplateParameters =>
	typeof part === 'string' && PARTS.has(part);

/**
 * The rows of Parameters as the product takes them, by part in order; or what is wrong with one. The
 * product joins each part's values with commas and cuts them there again (sb_whatsapp_send_template), so
 * a value with a comma would arrive as two: it is refused, as is an empty one, which Graph refuses.
 */
function templateParameters(rows: unknown): TemplateParameters | string {
	const parameters: TemplateParameters = { header: [], body: [], button: [] };
	const list: unknown[] = Array.isArray(rows) ? rows : [];
	for (const [index, row] of list.entries()) {
		const part = typeof row === 'object' && row !== null && 'part' in row ? row.part : 'body';
		const raw = typeof row === 'object' && row !== null && 'value' in row ? row.value : '';
		const value = parameterText(raw);
		const which = `Parameter ${index + 1}`;
		if (!isPart(part)) return `${which} names no part of a template: choose Header, Body or Button`;
		if (value === '') return `${which} (${part}) is empty: WhatsApp refuses an empty placeholder`;
		if (value.includes(','))
			return `${which} (${part}) holds a comma ("${value.slice(0, 80)}"): Support Board cuts a template's values at commas, so it would arrive as two values`;
		parameters[part].push(value);
	}
	return parameters;
}

/** A phone number ID as Meta gives it: digits. */
const PHONE_NUMBER_ID = /^\d{1,30}$/;

function recipientOf(ctx: IExecuteFunctions, itemIndex: number): TemplateRecipient {
	if (ctx.getNodeParameter('sendTo', itemIndex, 'conversation') !== 'phone')
		return { conversationId: locatorValue(ctx, 'conversationId', itemIndex, 'conversation') };
	const phone = requiredText(ctx, 'phone', itemIndex, 'Phone Number');
	const phoneId = requiredText(ctx, 'phoneId', itemIndex, 'Sender Phone Number ID');
	if (!PHONE_NUMBER_ID.test(phoneId))
		throw fail(
			ctx,
			itemIndex,
			`Sender Phone Number ID "${phoneId.slice(0, 40)}" is not a phone number ID`,
			"Meta's phone number IDs are digits, as Support Board's WhatsApp settings show them.",
		);
	// Checked as User → Create checks a phone: international format, with its + and country code.
	return { phone: userFields(ctx, { phone }, itemIndex).phone ?? phone, phoneId };
}

function fail(ctx: IExecuteFunctions, itemIndex: number, message: string, description?: string) {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

export async function execute(this: IExecuteFunctions, itemIndex: number, client: OperationClient) {
	const recipient = recipientOf(this, itemIndex);
	const template = parameterText(
		this.getNodeParameter('template', itemIndex, '', { extractValue: true }),
	);
	if (template === '')
		throw fail(
			this,
			itemIndex,
			'The template name is empty',
			'Give the name of an approved template.',
		);
	const language = requiredText(this, 'language', itemIndex, 'Language');
	if (!LANGUAGE_CODE.test(language))
		throw fail(
			this,
			itemIndex,
			`"${language.slice(0, 40)}" is not a WhatsApp language code`,
			'Write it as WhatsApp Manager shows it: en_US, de, pt_BR.',
		);
	const rows = itemCollection(this, 'templateParameters', itemIndex).parameter;
	const parameters = templateParameters(rows);
	if (typeof parameters === 'string') throw fail(this, itemIndex, parameters);
	const { answer, sent } = await client.call('sendWhatsAppTemplate', {
		recipient,
		template,
		language,
		parameters,
	});
	return resultOf(answer, sent);
}
