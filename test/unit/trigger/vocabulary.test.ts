/**
 * The words that name a user, a conversation or a message are one table (shared/vocabulary/records.ts):
 * an event recognised by a word must find its record's id under the same word.
 */
import { EVENT_ALIASES } from '../../../nodes/SupportChat/trigger/aliases';
import { detectEvent } from '../../../nodes/SupportChat/trigger/detect';
import { resourceOfEvent } from '../../../nodes/SupportChat/trigger/events';
import { extractIds } from '../../../nodes/SupportChat/trigger/ids';
import { RESOURCE_NOUNS } from '../../../nodes/SupportChat/shared/vocabulary/records';

describe('one table of resource words', () => {
	test.each([
		[{ event: 'guest.created', guest: { id: 5 } }, 'userCreated', { userId: 5 }],
		[{ event: 'profile.created', profile: { id: 'p_9' } }, 'userCreated', { userId: 'p_9' }],
		[{ event: 'session.started', session: { id: 'c_3' } }, 'conversationCreated', { conversationId: 'c_3' }],
		[{ event: 'member.joined', data: { member_id: 12 } }, 'userCreated', { userId: 12 }],
		[{ event: 'chat.closed', data: { object: 'session', id: 8 } }, 'conversationClosed', { conversationId: 8 }],
	])('%j: recognised and its id found', (body, event, ids) => {
		const detected = detectEvent(body, {});
		expect(detected.event).toBe(event);
		expect(extractIds(body, resourceOfEvent(detected.event))).toMatchObject(ids);
	});

	test('every subject of an event about a user, a conversation or a message is a word of the table', () => {
		const table = new Set(Object.values(RESOURCE_NOUNS).flat());
		for (const alias of EVENT_ALIASES) {
			const resource = resourceOfEvent(alias.event);
			if (resource === undefined || alias.event === 'leadCaptured') continue;
			for (const subject of alias.subjects) expect([alias.event, subject, table.has(subject)]).toEqual([alias.event, subject, true]);
		}
	});
});
