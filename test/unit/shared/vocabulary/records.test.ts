import {
	conversationSummary,
	tagName,
	userSummary,
} from '../../../../nodes/SupportChat/actions/simplify';
import {
	CONVERSATION_SUMMARY,
	RECORD_ID_KEYS,
	REFERENCE_ID_KEYS,
	RESOURCE_NOUNS,
	TAG_NAME_KEYS,
	USER_SUMMARY,
} from '../../../../nodes/SupportChat/shared/vocabulary/records';
import { hasIdentity, SeenIds } from '../../../../nodes/SupportChat/transport/pagination/values';
import { EVENT_ALIASES } from '../../../../nodes/SupportChat/trigger/aliases';
import { resourceOfEvent } from '../../../../nodes/SupportChat/shared/eventFacts';
import { extractIds } from '../../../../nodes/SupportChat/trigger/ids';
import { eventOf } from '../../../helpers/trigger';

describe('the service vocabulary', () => {
	it.each([
		['RECORD_ID_KEYS', RECORD_ID_KEYS],
		['TAG_NAME_KEYS', TAG_NAME_KEYS],
	])('%s names each key once', (_, keys) => {
		expect(new Set(keys).size).toBe(keys.length);
	});

	it.each(RECORD_ID_KEYS)('%s is a record identity', (key) => {
		expect(hasIdentity({ [key]: 3 })).toBe(true);
		const seen = new SeenIds();
		expect(seen.add({ [key]: 3 })).toBe(true);
		// The same id under the same key is the same record, whatever else it carries.
		expect(seen.add({ [key]: '3', other: 1 })).toBe(false);
	});

	it.each(TAG_NAME_KEYS)('a tag named by %s has that name in Simplify and in the picker', (key) => {
		expect(tagName({ [key]: 'vip' })).toBe('vip');
		expect(userSummary({ id: 1, tags: [{ [key]: 'vip' }, 'lead'] }).tags).toEqual(['vip', 'lead']);
	});

	it('a tag name is never read from the prototype', () => {
		expect(tagName({ constructor: 'x' })).toBeUndefined();
	});

	it.each(
		Object.entries(USER_SUMMARY).flatMap(([field, paths]) => paths.map((path) => [field, path])),
	)('user Simplify: %s from %s', (field, path) => {
		const record = path.split('.').reduceRight<unknown>((value, key) => ({ [key]: value }), 'x');
		expect(userSummary(record as never)[field]).toBe('x');
	});

	it.each(
		Object.entries(CONVERSATION_SUMMARY).flatMap(([field, paths]) =>
			paths.map((path) => [field, path]),
		),
	)('conversation Simplify: %s from %s', (field, path) => {
		const record = path.split('.').reduceRight<unknown>((value, key) => ({ [key]: value }), 'x');
		expect(conversationSummary(record as never)[field]).toBe('x');
	});

	it.each(
		Object.entries(REFERENCE_ID_KEYS).flatMap(([resource, { flat, nested }]) => [
			...flat.map((key) => [resource, key, { [key]: 'r1' }] as const),
			...nested.map((key) => [resource, `${key}.id`, { [key]: { id: 'r1' } }] as const),
		]),
	)('a %s referenced as %s', (resource, _, body) => {
		expect(extractIds(body)[`${resource}Id` as 'userId']).toBe('r1');
	});
});

/**
 * The words that name a user, a conversation or a message are one table (shared/vocabulary/records.ts):
 * an event recognised by a word must find its record's id under the same word.
 */
describe('one table of resource words', () => {
	test.each([
		[{ event: 'guest.created', guest: { id: 5 } }, 'userCreated', { userId: 5 }],
		[{ event: 'profile.created', profile: { id: 'p_9' } }, 'userCreated', { userId: 'p_9' }],
		[
			{ event: 'session.started', session: { id: 'c_3' } },
			'conversationCreated',
			{ conversationId: 'c_3' },
		],
		[{ event: 'member.joined', data: { member_id: 12 } }, 'userCreated', { userId: 12 }],
		[
			{ event: 'chat.closed', data: { object: 'session', id: 8 } },
			'conversationClosed',
			{ conversationId: 8 },
		],
	])('%j: recognised and its id found', (body, event, ids) => {
		const detected = eventOf(body, {});
		expect(detected.event).toBe(event);
		expect(extractIds(body, resourceOfEvent(detected.event))).toMatchObject(ids);
	});

	test('every subject of an event about a user, a conversation or a message is a word of the table', () => {
		const table = new Set(Object.values(RESOURCE_NOUNS).flat());
		for (const alias of EVENT_ALIASES) {
			const resource = resourceOfEvent(alias.event);
			if (resource === undefined || alias.event === 'leadCaptured') continue;
			for (const subject of alias.subjects)
				expect([alias.event, subject, table.has(subject)]).toEqual([alias.event, subject, true]);
		}
	});
});
