import { EVENT_ALIASES } from '../../../nodes/SupportChat/trigger/aliases';
import { eventOf } from '../../helpers/trigger';
import { KIND_ROWS as EVENTS } from '../../../nodes/SupportChat/shared/events';
import { lowerCaseHeaders } from '../../../nodes/SupportChat/trigger/deliveryHeaders';
import { hasClosedStatus } from '../../../nodes/SupportChat/trigger/detect';

describe('detectEvent: every alias and naming style', () => {
	const cases: Array<[string, string]> = [
		// New Conversation
		['conversation.created', 'conversationCreated'],
		['conversation_created', 'conversationCreated'],
		['conversation.create', 'conversationCreated'],
		['conversations.created', 'conversationCreated'],
		['new-conversation', 'conversationCreated'],
		['new_conversation', 'conversationCreated'],
		['New Conversation', 'conversationCreated'],
		['NewConversation', 'conversationCreated'],
		['new-conversation-created', 'conversationCreated'],
		['conversation.started', 'conversationCreated'],
		['conversation.opened', 'conversationCreated'],
		['chat:start', 'conversationCreated'],
		['chat.started', 'conversationCreated'],
		['session.started', 'conversationCreated'],
		['CONVERSATION_CREATED', 'conversationCreated'],
		['conversation.user.created', 'conversationCreated'],
		// New Message
		['message.created', 'messageCreated'],
		['message_created', 'messageCreated'],
		['message.create', 'messageCreated'],
		['new-message', 'messageCreated'],
		['New Message', 'messageCreated'],
		['NewMessage', 'messageCreated'],
		['message-sent', 'messageCreated'],
		['message.sent', 'messageCreated'],
		['message:send', 'messageCreated'],
		['message.received', 'messageCreated'],
		['message.added', 'messageCreated'],
		['conversation_message_added', 'messageCreated'],
		['chat.message.created', 'messageCreated'],
		['visitor.message.sent', 'messageCreated'],
		['message', 'messageCreated'],
		['MESSAGE_CREATED', 'messageCreated'],
		// Conversation Closed
		['conversation.closed', 'conversationClosed'],
		['conversation_closed', 'conversationClosed'],
		['conversation.close', 'conversationClosed'],
		['Conversation Closed', 'conversationClosed'],
		['ConversationClosed', 'conversationClosed'],
		['conversation-archived', 'conversationClosed'],
		['conversation.archive', 'conversationClosed'],
		['conversation.resolved', 'conversationClosed'],
		['conversation.ended', 'conversationClosed'],
		['chat:end', 'conversationClosed'],
		['chat_ended', 'conversationClosed'],
		['chat.finished', 'conversationClosed'],
		// New User Created
		['user.created', 'userCreated'],
		['user_created', 'userCreated'],
		['new-user', 'userCreated'],
		['New User Created', 'userCreated'],
		['NewUserCreated', 'userCreated'],
		['user.registered', 'userCreated'],
		['user-signup', 'userCreated'],
		['visitor.created', 'userCreated'],
		['contact.created', 'userCreated'],
		['customer.created', 'userCreated'],
		['profile.created', 'userCreated'],
		['new-visitor', 'userCreated'],
		// Tag Applied
		['tag.applied', 'tagApplied'],
		['tag_applied', 'tagApplied'],
		['Tag Applied', 'tagApplied'],
		['TagApplied', 'tagApplied'],
		['tag.added', 'tagApplied'],
		['tag-assigned', 'tagApplied'],
		['user.tag.added', 'tagApplied'],
		['contact.tag.applied', 'tagApplied'],
		['user.tagged', 'tagApplied'],
		['label.applied', 'tagApplied'],
		// Lead Captured
		['lead.captured', 'leadCaptured'],
		['lead_captured', 'leadCaptured'],
		['Lead Captured', 'leadCaptured'],
		['LeadCapture', 'leadCaptured'],
		['LeadCaptured', 'leadCaptured'],
		['lead.created', 'leadCaptured'],
		['new-lead', 'leadCaptured'],
		['contact.lead.created', 'leadCaptured'],
		['new-email-address', 'leadCaptured'],
		['lead', 'leadCaptured'],
	];

	test.each(cases)('event: %s → %s', (name, expected) => {
		expect(eventOf({ event: name }, {}).event).toBe(expected);
	});

	test('every canonical event has at least five aliases above', () => {
		for (const { value: event } of EVENTS) {
			expect(cases.filter(([, expected]) => expected === event).length).toBeGreaterThanOrEqual(5);
		}
	});

	test.each([
		'message.deleted',
		'message.updated',
		'message.reaction.added',
		'conversation.assigned',
		'conversation.reopened',
		'conversation',
		'user.updated',
		'user.deleted',
		'tag.created',
		'tag.removed',
		'email.sent',
		'conversation_takeover_state_changed',
		'ping',
		'test',
		'created',
		'webhook',
		'John Smith',
	])('not one of ours: %s → unknown', (name) => {
		expect(eventOf({ event: name }, {})).toEqual({ event: 'unknown', name, source: 'body.event' });
	});

	test('the display names of the events are themselves aliases', () => {
		for (const { name, value } of EVENTS) {
			expect(eventOf({ event: name }, {}).event).toBe(value);
			expect(eventOf({ event: value }, {}).event).toBe(value);
		}
	});

	test('the alias table names every canonical event', () => {
		expect(new Set(EVENT_ALIASES.map((alias) => alias.event))).toEqual(
			new Set(EVENTS.map((entry) => entry.value)),
		);
	});
});

describe('detectEvent: where the name is found', () => {
	test.each([
		[{ event: 'message.created' }, {}, 'messageCreated', 'body.event'],
		[{ type: 'message.created' }, {}, 'messageCreated', 'body.type'],
		[
			{ topic: 'conversation.user.created', type: 'notification_event' },
			{},
			'conversationCreated',
			'body.topic',
		],
		[{ event_type: 'tag_applied' }, {}, 'tagApplied', 'body.event_type'],
		[{ eventType: 'TagApplied' }, {}, 'tagApplied', 'body.eventType'],
		[{ event_name: 'lead.captured' }, {}, 'leadCaptured', 'body.event_name'],
		[{ eventName: 'NewUserCreated' }, {}, 'userCreated', 'body.eventName'],
		[{ webhook_event: 'conversation_closed' }, {}, 'conversationClosed', 'body.webhook_event'],
		[{ action: 'message.created' }, {}, 'messageCreated', 'body.action'],
		[{ name: 'New Conversation' }, {}, 'conversationCreated', 'body.name'],
		[{ function: 'message-sent', data: { message: 'Hi' } }, {}, 'messageCreated', 'body.function'],
		[{ function: 'new-conversation-created' }, {}, 'conversationCreated', 'body.function'],
		[
			{ function: 'new-email-address', data: { email: 'a@b.c' } },
			{},
			'leadCaptured',
			'body.function',
		],
		[{ data: { event: 'conversation.closed' } }, {}, 'conversationClosed', 'body.data.event'],
		[{ payload: { event: 'user.created' } }, {}, 'userCreated', 'body.payload.event'],
		[{ meta: { event: 'lead.captured' } }, {}, 'leadCaptured', 'body.meta.event'],
		[{ event: { type: 'message.created', id: 'evt_1' } }, {}, 'messageCreated', 'body.event.type'],
		[{ event: { name: 'tag.applied' } }, {}, 'tagApplied', 'body.event.name'],
		[{ data: { function: 'message-sent' } }, {}, 'messageCreated', 'body.data.function'],
		[{ message: 'Hello' }, { 'x-event': 'message.created' }, 'messageCreated', 'header x-event'],
		[
			{},
			{ 'x-webhook-event': 'conversation.created' },
			'conversationCreated',
			'header x-webhook-event',
		],
		[{}, { 'x-event-type': 'user_created' }, 'userCreated', 'header x-event-type'],
		[{}, { 'x-event-name': 'Tag Applied' }, 'tagApplied', 'header x-event-name'],
		[{}, { 'x-supportchat-event': 'lead.captured' }, 'leadCaptured', 'header x-supportchat-event'],
		[{}, { 'x-chat-topic': 'conversation/closed' }, 'conversationClosed', 'header x-chat-topic'],
		[{}, { 'X-Event': 'message.created' }, 'messageCreated', 'header x-event'],
	])('%j %j → %s from %s', (body, headers, event, source) => {
		// As handleDelivery hands them on: names in lower case, whatever case the sender used.
		const detected = eventOf(body, lowerCaseHeaders(headers));
		expect(detected.event).toBe(event);
		expect(detected.source).toBe(source);
	});

	test('a header beats the body, and the name is reported as sent', () => {
		expect(eventOf({ event: 'user.created' }, { 'x-event': 'Message-Sent' })).toEqual({
			event: 'messageCreated',
			name: 'Message-Sent',
			source: 'header x-event',
		});
	});

	test('a sender type in `type` is not an event name, the header decides', () => {
		const body = { type: 'agent', message: 'Hi', conversation_id: '5' };
		expect(eventOf(body, { 'x-event': 'message.created' }).event).toBe('messageCreated');
		expect(eventOf(body, {})).toEqual({ event: 'unknown', name: 'agent', source: 'body.type' });
	});

	test('an explicit field decides even when unrecognised: `type` cannot override it', () => {
		expect(eventOf({ event: 'message.deleted', type: 'message' }, {}).event).toBe('unknown');
		expect(eventOf({ event: 'message.deleted', name: 'New User' }, {}).event).toBe('unknown');
	});

	test("a user's name is not an event name and is not reported as one", () => {
		expect(eventOf({ name: 'John', email: 'j@x.y' }, {})).toEqual({ event: 'unknown' });
	});

	test('a bare subject is not enough in an ambiguous field', () => {
		expect(eventOf({ type: 'message', text: 'hi' }, {}).event).toBe('unknown');
		expect(eventOf({ event: 'message', text: 'hi' }, {}).event).toBe('messageCreated');
	});

	test.each([
		[{ type: 'conversation', action: 'closed' }, {}, 'conversationClosed'],
		[{ type: 'message', action: 'deleted' }, {}, 'unknown'],
		[{ action: 'created', conversation: { id: 5 } }, {}, 'conversationCreated'],
		[{ action: 'created', message: { id: 9 }, conversation: { id: 5 } }, {}, 'messageCreated'],
		[{ action: 'created', data: { user: { id: 3 } } }, {}, 'userCreated'],
		[{ action: 'closed' }, { 'x-event': 'conversation' }, 'conversationClosed'],
		[{ event: 'message', action: 'deleted' }, {}, 'unknown'],
		[{ action: 'created' }, {}, 'unknown'],
	])('subject and action from different places: %j %j → %s', (body, headers, event) => {
		expect(eventOf(body, headers).event).toBe(event);
	});

	test('no name anywhere', () => {
		expect(eventOf({ text: 'hello' }, {})).toEqual({ event: 'unknown' });
		expect(eventOf({}, {})).toEqual({ event: 'unknown' });
	});

	test('non-string values are not names', () => {
		expect(eventOf({ event: 42, type: ['message.created'] }, {})).toEqual({ event: 'unknown' });
	});
});

describe('conversation status updates', () => {
	test.each([
		[
			{ function: 'conversation-status-updated', data: { conversation_id: 7, status_code: 3 } },
			'conversationClosed',
		],
		[
			{ function: 'conversation-status-updated', data: { conversation_id: 7, status_code: '3' } },
			'conversationClosed',
		],
		[
			{ function: 'conversation-status-updated', data: { conversation_id: 7, status: 'archived' } },
			'conversationClosed',
		],
		[{ event: 'conversation.status.changed', data: { status: 'closed' } }, 'conversationClosed'],
		[{ event: 'conversation.updated', data: { status: 'resolved' } }, 'conversationClosed'],
		[
			{ event: 'conversation_status_changed', conversation: { status: 'Closed' } },
			'conversationClosed',
		],
		[{ event: 'conversation.updated', status: 'done' }, 'conversationClosed'],
		[
			{ function: 'conversation-status-updated', data: { conversation_id: 7, status_code: 1 } },
			'unknown',
		],
		[
			{ function: 'conversation-status-updated', data: { conversation_id: 7, status: 'open' } },
			'unknown',
		],
		[{ event: 'conversation.updated', data: { subject: 'Billing' } }, 'unknown'],
	])('%j → %s', (body, event) => {
		expect(eventOf(body, {}).event).toBe(event);
	});
});

describe('conversation status updates', () => {
	test('hasClosedStatus', () => {
		expect(hasClosedStatus({ data: { state: 'ARCHIVED' } })).toBe(true);
		expect(hasClosedStatus({ data: { state: 'pending' } })).toBe(false);
		expect(hasClosedStatus({})).toBe(false);
	});
});
