import type { INodeProperties } from 'n8n-workflow';

import { attachmentOptions } from '../files/downloadOptions';
import { listOptionsCollection, sortedByName } from '../descriptions/common';
import { POLL_EVENT_OPTIONS } from '../shared/eventFacts';
import { ownMessageOptions } from '../trigger/description';

/** The same names and values as the webhook trigger's events, so a workflow works with either trigger. */
const eventOptions = [...POLL_EVENT_OPTIONS];

export const DEFAULT_MAX_REQUESTS = 100;

const pollOptions: INodeProperties[] = [
	...ownMessageOptions,
	{
		displayName: 'Max Requests per Poll',
		name: 'maxRequests',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_MAX_REQUESTS,
		description:
			'Most requests one poll sends to find events, each page and each retry counted: with Support Board, two plus one for each conversation with new messages; with the REST API, one for each page of each list read. A poll that needs more fails, emits nothing and moves nothing, so nothing is lost: raise it, or poll more often.',
	},
	{
		displayName: 'Since Parameter',
		name: 'sinceParam',
		type: 'string',
		default: '',
		placeholder: 'e.g. created_after',
		description:
			'REST only. A query parameter your service filters lists by, sent with the newest creation value (Watermark Field) the last poll read, so that a poll reads only what is new. Not sent for conversations while Conversation Closed is selected: a conversation of any age can close. Empty: the lists are read whole.',
	},
	{
		displayName: 'Watermark Field',
		name: 'watermarkField',
		type: 'string',
		default: '',
		placeholder: 'e.g. created_at',
		description:
			'REST only. A field of the records that grows with each new one (a creation time or an increasing number), for New User Created and New Conversation. Conversation Closed always goes by the closing time (closed_at and the like, else updated_at). Empty: the node looks for created_at and the like, then a numeric ID. A record without a value in it stops the poll with an error naming the record. Changing it starts those events afresh: the next poll records where things stand.',
	},
];

export const pollProperties: INodeProperties[] = [
	{
		displayName:
			'The first poll after the workflow is published records where things stand and emits nothing. Each later poll emits what happened since, oldest first, each event once. Fetch Test Event shows the newest events and changes nothing.',
		name: 'pollNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: eventOptions,
		default: [],
		description:
			"The events to look for. New Message can be found with Support Board's Web API only.",
	},
	{
		...listOptionsCollection,
		options: sortedByName([
			...(listOptionsCollection.options as INodeProperties[]),
			...attachmentOptions,
			...pollOptions,
		]),
	},
];
