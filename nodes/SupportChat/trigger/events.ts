import type { ReferencedResource } from '../shared/vocabulary/records';

/**
 * The events the trigger offers: the editor's Events list (description/events.ts), the poll trigger's,
 * and the values items carry. Which event a delivery is, is detect.ts's job.
 */

/** The events the trigger offers, in the order of the spec's table (§6), with lead capture last. */
export const EVENTS = [
	{
		value: 'conversationCreated',
		name: 'New Conversation',
		description: 'A visitor starts a new chat session',
	},
	{
		value: 'messageCreated',
		name: 'New Message',
		description: 'A user sends a message during a conversation',
	},
	{
		value: 'conversationClosed',
		name: 'Conversation Closed',
		description: 'A conversation is closed (archived)',
	},
	{
		value: 'userCreated',
		name: 'New User Created',
		description: 'A new user profile is created through chat or automation',
	},
	{
		value: 'tagApplied',
		name: 'Tag Applied',
		description: 'A tag is assigned to a user',
	},
	{
		value: 'leadCaptured',
		name: 'Lead Captured',
		description: 'A visitor leaves contact details, such as an email address',
	},
] as const;

export type CanonicalEvent = (typeof EVENTS)[number]['value'];

export const ANY_EVENT = '*';
export const UNKNOWN_EVENT = 'unknown';

/** The resource an event is about, so that a bare `id` in its data can be read as that resource's id. */
export function resourceOfEvent(
	event: CanonicalEvent | typeof UNKNOWN_EVENT,
): ReferencedResource | undefined {
	switch (event) {
		case 'conversationCreated':
		case 'conversationClosed':
			return 'conversation';
		case 'messageCreated':
			return 'message';
		case 'userCreated':
		case 'leadCaptured':
			return 'user';
		default:
			return undefined;
	}
}
