import type { INodeProperties } from 'n8n-workflow';

import { attachmentOptions } from '../../files/downloadOptions';
import { sortedByName } from '../../descriptions/common';

// Defaults are literals because n8n's editor and linter read them statically; they match
// TRIGGER_DEFAULTS.options in ../triggerSettings (test/unit/trigger/triggerSettings.test.ts checks).

/**
 * Which New Message events are the workflow's own: the same options, names and defaults in the webhook
 * trigger and the poll trigger, read by `readLoopOptions` and judged by `isOwnMessage` for both.
 */
export const ownMessageOptions: INodeProperties[] = [
	{
		displayName: 'Ignore Own Messages',
		name: 'ignoreOwnMessages',
		type: 'boolean',
		default: true,
		description:
			"Whether to ignore New Message events sent from the service's side: as agent, admin, operator, assistant or bot, or by a user other than the conversation's visitor (user_id differs from conversation_user_id). On by default because a workflow that answers a message by sending one (sent as agent) would otherwise hear its own answer and trigger itself in a loop.",
	},
	{
		displayName: 'Ignored Sender IDs',
		name: 'ignoredSenderIds',
		type: 'string',
		default: '',
		placeholder: '12, 57',
		description:
			'Comma-separated user IDs whose messages never start the workflow, such as the user your workflow sends messages as',
	},
];

export const optionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: sortedByName([
		...attachmentOptions,
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 60,
			description:
				'With Download Attachments: how long one file may take in all, from sending the request to its last byte',
		},
		{
			displayName: 'Deduplication Window (Minutes)',
			name: 'dedupeWindowMinutes',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 1440,
			description:
				"How long a delivery ID (Standard Webhooks ID header, event ID or envelope ID) is remembered, so that a sender's retry does not start the workflow twice. A delivery without an ID is never taken for a repeat, even when its body is identical to an earlier one. 0 turns this off.",
		},
		...ownMessageOptions,
		{
			displayName: 'Include Headers',
			name: 'includeHeaders',
			type: 'boolean',
			default: false,
			description:
				'Whether to add the request headers to each item. Headers carrying credentials are masked.',
		},
		{
			displayName: 'Unrecognised Events',
			name: 'unknownEvents',
			type: 'options',
			options: [
				{
					name: 'Ignore',
					value: 'ignore',
					description: 'Answer 200 and start nothing',
				},
				{
					name: 'Pass On',
					value: 'passOn',
					description: 'Start the workflow with event set to "unknown"',
				},
			],
			default: 'ignore',
			description: 'What to do with a delivery whose event name the trigger does not recognise',
		},
	]),
};
