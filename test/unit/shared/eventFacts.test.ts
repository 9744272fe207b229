/**
 * The event table (shared/eventFacts.ts): every list the code reads of it, derived from its rows. The
 * lists below were captured from the code before the table existed (issue 28, item 2), when each lived
 * in a file of its own; the derived ones must equal them byte for byte. And one made-up row, added in
 * this test only, reaches every derived list: adding an event is one row.
 */
import { triggerProperties } from '../../../nodes/SupportChat/trigger/description';
import { pollProperties } from '../../../nodes/SupportChat/poll/description';
import type { EventRow } from '../../../nodes/SupportChat/shared/events';
import {
	changeOf,
	deriveEventFacts,
	EVENT_ROWS,
	isPolledEvent,
	KIND_VALUES,
	NAMED_DELIVERIES,
	POLL_EVENT_OPTIONS,
	productEventOf,
	resourceOfEvent,
	subjectOf,
	TRIGGER_EVENT_OPTIONS,
	webhooksOf,
} from '../../../nodes/SupportChat/shared/eventFacts';
import { CLOSED_AT_KEYS } from '../../../nodes/SupportChat/shared/vocabulary/times';

/** The webhook trigger's Events options before the table: name, value, description, in the editor's order. */
const TRIGGER_OPTIONS_BEFORE: Array<[string, string, string]> = [
	[
		'*',
		'*',
		"Any of the service's six kinds, including kinds added later; Support Board's own events are selected by name",
	],
	['Conversation Closed', 'conversationClosed', 'A conversation is closed (archived)'],
	['Lead Captured', 'leadCaptured', 'A visitor leaves contact details, such as an email address'],
	['New Conversation', 'conversationCreated', 'A visitor starts a new chat session'],
	['New Message', 'messageCreated', 'A user sends a message during a conversation'],
	['New User Created', 'userCreated', 'A new user profile is created through chat or automation'],
	['Tag Applied', 'tagApplied', 'A tag is assigned to a user'],
	[
		'Bot Message',
		'botMessage',
		"Support Board: the chatbot answered a visitor's message (bot-message)",
	],
	[
		'Conversation Status Updated',
		'conversationStatusUpdated',
		'Support Board: a conversation became active, pending, waiting, archived or trashed (conversation-status-updated)',
	],
	[
		'Dialogflow Message',
		'dialogflowMessage',
		'Support Board: Dialogflow answered a message (dialogflow-message)',
	],
	[
		'Email Sent',
		'emailSent',
		'Support Board: an email notification was sent to a user (email-sent)',
	],
	['Login', 'login', "Support Board: a user logged in through the chat's login form (login)"],
	[
		'Message Deleted',
		'messageDeleted',
		'Support Board: a message was deleted in the chat (message-deleted)',
	],
	[
		'New Conversation Received',
		'newConversationReceived',
		'Support Board: the chat showed a visitor a conversation it had not shown yet, such as one an agent started (new-conversation)',
	],
	[
		'New Email Address',
		'newEmailAddress',
		'Support Board: a visitor left an email address in the follow-up form (new-email-address)',
	],
	[
		'New Messages Received',
		'newMessagesReceived',
		"Support Board: the chat showed a visitor new messages, such as an agent's reply (new-messages)",
	],
	[
		'Rich Message Submitted',
		'richMessage',
		'Support Board: a visitor answered a rich message, such as buttons or a form (rich-message)',
	],
	[
		'Slack Message Sent',
		'slackMessageSent',
		'Support Board: a chat message was sent on to Slack (slack-message-sent)',
	],
	['SMS Sent', 'smsSent', 'Support Board: a text message was sent to a user (sms-sent)'],
	['User Deleted', 'userDeleted', 'Support Board: a user was deleted (user-deleted)'],
];
const asOptions = (list: Array<[string, string, string]>) =>
	list.map(([name, value, description]) => ({ name, value, description }));

const VALUES = EVENT_ROWS.map(({ value }) => value);

describe('the lists derived from the table equal the lists they replace', () => {
	it("the webhook trigger's Events options, in their order and words", () => {
		const events = triggerProperties.find((property) => property.name === 'events');
		expect(events?.options).toEqual(asOptions(TRIGGER_OPTIONS_BEFORE));
		expect(TRIGGER_EVENT_OPTIONS).toEqual(asOptions(TRIGGER_OPTIONS_BEFORE.slice(1)));
	});

	it("the poll trigger's Events options, and the events a poll reads from its parameter", () => {
		const before = ['conversationClosed', 'conversationCreated', 'messageCreated', 'userCreated'];
		const events = pollProperties.find((property) => property.name === 'events');
		expect(events?.options).toEqual(
			asOptions(TRIGGER_OPTIONS_BEFORE.filter(([, value]) => before.includes(value))),
		);
		expect(POLL_EVENT_OPTIONS.map(({ value }) => value)).toEqual(before);
		expect(VALUES.filter(isPolledEvent).sort()).toEqual([...before].sort());
		for (const other of [1, null, '*', 'unknown', 'constructor', 'tagApplied'])
			expect(isPolledEvent(other)).toBe(false);
	});

	it('resourceOfEvent, for the six kinds (it was asked of them only) and what else is unknown', () => {
		expect(Object.fromEntries(KIND_VALUES.map((kind) => [kind, resourceOfEvent(kind)]))).toEqual({
			conversationCreated: 'conversation',
			messageCreated: 'message',
			conversationClosed: 'conversation',
			userCreated: 'user',
			tagApplied: undefined,
			leadCaptured: 'user',
		});
		for (const other of ['unknown', '*', 'constructor', '__proto__'])
			expect(resourceOfEvent(other)).toBeUndefined();
	});

	it("the eventKey's subject: MESSAGE_EVENTS, USER_EVENTS, and the conversation for any other", () => {
		const of = (subject: string) => VALUES.filter((value) => subjectOf(value) === subject).sort();
		expect(of('message')).toEqual(
			['messageCreated', 'messageDeleted', 'newMessagesReceived'].sort(),
		);
		expect(of('user')).toEqual(
			[
				'userCreated',
				'tagApplied',
				'leadCaptured',
				'login',
				'userDeleted',
				'newEmailAddress',
				'emailSent',
				'smsSent',
				'richMessage',
			].sort(),
		);
		expect(subjectOf('unknown')).toBe('conversation');
		expect(subjectOf('toString')).toBe('conversation');
	});

	it('the changes: CHANGES and CHANGED_BY_DATA', () => {
		const changes = VALUES.filter((value) => changeOf(value) !== null);
		expect(Object.fromEntries(changes.map((value) => [value, changeOf(value)]))).toEqual({
			conversationClosed: CLOSED_AT_KEYS,
			tagApplied: ['tag', 'tag_name', 'name'],
			leadCaptured: ['email', 'phone'],
			conversationStatusUpdated: ['status_code'],
			newEmailAddress: ['email', 'phone'],
			emailSent: 'data',
			smsSent: 'data',
			slackMessageSent: 'data',
			botMessage: 'data',
			dialogflowMessage: 'data',
			richMessage: 'data',
		});
		expect(changeOf('unknown')).toBeNull();
	});

	it("KIND_WEBHOOKS, and each of Support Board's own events by its function", () => {
		expect(Object.fromEntries(KIND_VALUES.map((kind) => [kind, webhooksOf(kind)]))).toEqual({
			conversationCreated: ['new-conversation-created'],
			messageCreated: ['message-sent'],
			conversationClosed: ['conversation-status-updated'],
			userCreated: ['registration'],
			tagApplied: [],
			leadCaptured: ['new-email-address'],
		});
		expect(webhooksOf('login')).toEqual(['login']);
		expect(webhooksOf('*')).toBeUndefined();
		expect(productEventOf('Rich-Message')).toBe('richMessage');
		expect(productEventOf('registration')).toBeUndefined();
	});

	it("NAMED_DELIVERIES: the whole names detection reads first (aliases.ts's, before)", () => {
		expect(new Map([...NAMED_DELIVERIES].sort(([a], [b]) => a.localeCompare(b)))).toStrictEqual(
			new Map([
				['login', { about: 'user' }],
				['new-email-address', { event: 'leadCaptured', about: 'user', formId: true }],
				['registration', { event: 'userCreated', about: 'user', formId: true }],
				['rich-message', { formId: true }],
			]),
		);
	});
});

describe('adding an event is one row', () => {
	const madeUp = {
		value: 'ticketEscalated',
		name: 'Ticket Escalated',
		description: 'Support Board: a made-up event of this test (ticket-escalated)',
		source: 'supportBoard',
		about: 'message',
		keyedBy: 'message',
		change: ['level'],
		webhooks: ['ticket-escalated'],
		namedWhole: true,
		formId: true,
		polled: true,
	} as const satisfies EventRow;
	const before = deriveEventFacts(EVENT_ROWS);
	const after = deriveEventFacts([...EVENT_ROWS, madeUp]);
	const option = { name: madeUp.name, value: madeUp.value, description: madeUp.description };

	it('a row that leaves a fact out does not compile', () => {
		// @ts-expect-error -- whether it is polled is a fact every row states
		const row: EventRow = {
			value: 'ticketClosed',
			name: 'Ticket Closed',
			description: 'A made-up event of this test',
			source: 'kind',
			about: null,
			keyedBy: 'user',
			change: null,
			webhooks: [],
			namedWhole: false,
			formId: false,
		};
		expect(row.value).toBe('ticketClosed');
	});

	it('the table as shipped is what the module derives from', () => {
		expect(before.triggerOptions).toEqual(TRIGGER_EVENT_OPTIONS);
		expect(before.pollOptions).toEqual(POLL_EVENT_OPTIONS);
		expect(before.namedDeliveries).toEqual(NAMED_DELIVERIES);
	});

	it('reaches every derived list, and changes nothing else in them', () => {
		// Support Board's own events follow the six kinds, sorted by name: the new one among them.
		const byName = (list: Array<{ name: string }>) =>
			[...list].sort((x, y) => x.name.localeCompare(y.name));
		expect(after.triggerOptions).toEqual([
			...before.triggerOptions.slice(0, 6),
			...byName([...before.triggerOptions.slice(6), option]),
		]);
		expect(after.pollOptions.filter((entry) => entry.value !== madeUp.value)).toEqual(
			before.pollOptions,
		);
		expect(after.pollOptions).toContainEqual(option);
		expect([before.isPolled(madeUp.value), after.isPolled(madeUp.value)]).toEqual([false, true]);
		expect([before.about(madeUp.value), after.about(madeUp.value)]).toEqual([undefined, 'message']);
		expect([before.keyedBy(madeUp.value), after.keyedBy(madeUp.value)]).toEqual([
			'conversation',
			'message',
		]);
		expect([before.change(madeUp.value), after.change(madeUp.value)]).toEqual([null, ['level']]);
		expect([before.webhooks(madeUp.value), after.webhooks(madeUp.value)]).toEqual([
			undefined,
			['ticket-escalated'],
		]);
		expect([before.productRow('Ticket-Escalated'), after.productRow('Ticket-Escalated')]).toEqual([
			undefined,
			madeUp,
		]);
		expect(after.namedDeliveries.get('ticket-escalated')).toEqual({
			about: 'message',
			formId: true,
		});
		expect(before.namedDeliveries.has('ticket-escalated')).toBe(false);
		expect(after.kinds).toEqual(before.kinds);
	});

	it('a made-up kind joins the six, and `*` with them', () => {
		const kind = {
			...madeUp,
			source: 'kind',
			value: 'ticketOpened',
			name: 'Ticket Opened',
		} as const;
		const withKind = deriveEventFacts([...EVENT_ROWS, kind]);
		expect(withKind.kinds).toEqual([...before.kinds, 'ticketOpened']);
		expect(withKind.triggerOptions.map(({ value }) => value).indexOf('ticketOpened')).toBeLessThan(
			withKind.triggerOptions.map(({ value }) => value).indexOf('botMessage'),
		);
		expect(withKind.namedDeliveries.get('ticket-escalated')).toEqual({
			event: 'ticketOpened',
			about: 'message',
			formId: true,
		});
	});
});
