/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The poll trigger's promise on Support Board, where the product's own behaviour is the cause: history
 * never comes out as new (classes 1), a product with no message yet still fires (2), the workflow's own
 * replies start nothing (3), an event the webhook trigger ran is not run again (4). Under n8n-core's real
 * PollContext against the sandbox's Support Board mode, or against the real product's test bed with
 * SUPPORT_CHAT_TESTBED=/tmp/sb/run/env.json (its setup.sh; class 2 then needs a product with no message:
 * `SB_RESET=1 ./setup.sh`, and SUPPORT_CHAT_TESTBED_FRESH=1 to say it is).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChatPollTrigger } from '../../nodes/SupportChat/SupportChatPollTrigger.node';
import { EVENT_CLAIMS } from '../../nodes/SupportChat/shared/claims';
import type { Board } from '../helpers/board';
import { onTestbed, openBoard } from '../helpers/board';
import { callPoll } from '../helpers/engine';

const TYPE = 'n8n-nodes-support-chat.supportChatPollTrigger';
const ALL = ['userCreated', 'conversationCreated', 'messageCreated', 'conversationClosed'];
const stamp = () => randomUUID().slice(0, 8);

let board: Board;
beforeAll(async () => {
	board = await openBoard({ seed: { users: 6, conversations: 4 } });
});
afterAll(async () => await board.close());
beforeEach(async () => {
	await board.reset();
	EVENT_CLAIMS.clear();
});

async function poll(
	staticData?: IDataObject,
	opts: { options?: INodeParameters; events?: string[]; workflowId?: string } = {},
) {
	const result = await callPoll({
		node: { type: TYPE, parameters: { events: opts.events ?? ALL, options: opts.options ?? {} } },
		nodeType: new SupportChatPollTrigger(),
		credentials: {
			types: [new SupportChatApi()],
			data: { supportChatApi: { ...board.credentials } },
		},
		staticData,
		workflowId: opts.workflowId,
	});
	if (result.error) throw result.error;
	return { ...result, events: (result.items ?? []).map((item) => item.json) };
}

/** An empty conversation of the user's (`new-conversation` answers `{messages: [], details}`), its id. */
async function emptyConversation(userId: string): Promise<string> {
	const answer = (await board.call('new-conversation', { user_id: userId })) as {
		details?: { id?: unknown };
	};
	return String(answer.details?.id);
}

/** A new conversation whose visitor writes at once: its creation and first message share a second, the usual case. */
async function chat(text: string) {
	return await board.visitorStarts({
		email: `visitor-${stamp()}@example.com`,
		firstName: 'Vera',
		lastName: 'Visitor',
		message: text,
	});
}

describe('class 1: nothing that existed when the workflow was published is ever emitted as created', () => {
	it('a conversation from before publishing that gets a reply is New Message, never New Conversation', async () => {
		const old = await chat('Opened before publishing');
		const first = await poll();
		await board.visitorSays(old.userId, old.conversationId, 'Back again after publishing');
		const second = await poll(first.staticData);
		expect(
			second.events.filter((e) => e.conversationId === old.conversationId).map((e) => e.event),
		).toEqual(['messageCreated']);
		expect(second.events.filter((e) => e.event === 'conversationCreated')).toEqual([]);
	});

	it("an assignment note as a conversation's last message at publishing (get-conversations reports an older id) brings back nothing", async () => {
		const old = await chat('Please assign me');
		await board.assign(old.conversationId);
		const first = await poll();
		await board.visitorSays(old.userId, old.conversationId, 'Thanks for taking it');
		const second = await poll(first.staticData);
		expect(
			second.events.map((e) => [e.event, e.conversationId, (e.data as IDataObject).message]),
		).toEqual([['messageCreated', old.conversationId, 'Thanks for taking it']]);
	});

	it('an empty conversation from before publishing is history when its first message comes; one opened after is new, in either order', async () => {
		const visitor = await chat('I will open more chats');
		const emptyBefore = await emptyConversation(visitor.userId);
		const first = await poll();
		const emptyAfter = await emptyConversation(visitor.userId);
		const later = await chat('Opened after the empty one');
		const second = await poll(first.staticData);
		expect(
			second.events.filter((e) => e.event === 'conversationCreated').map((e) => e.conversationId),
		).toEqual([later.conversationId]);
		// The empty conversations get their first messages now: the one from after publishing is new.
		await board.visitorSays(visitor.userId, emptyAfter, 'First words in the second chat');
		await board.visitorSays(visitor.userId, emptyBefore, 'First words in the first chat');
		const third = await poll(second.staticData);
		expect(
			third.events.filter((e) => e.event === 'conversationCreated').map((e) => e.conversationId),
		).toEqual([emptyAfter]);
		expect(
			third.events
				.filter((e) => e.event === 'messageCreated')
				.map((e) => e.conversationId)
				.sort(),
		).toEqual([emptyBefore, emptyAfter].sort());
		expect((await poll(third.staticData)).events).toEqual([]);
	});

	it('an event added to Events after publishing starts from where things stand then, not from history', async () => {
		const first = await poll(undefined, { events: ['messageCreated'] });
		const earlier = await chat('Before New User Created was selected');
		const second = await poll(first.staticData, {
			events: ['messageCreated', 'userCreated', 'conversationCreated'],
		});
		// The first poll with the new events records where they stand; the message (its event was selected) comes out.
		expect(second.events.map((e) => e.event)).toEqual(['messageCreated']);
		const userId = await board.addUser('Nia', 'New', `nia-${stamp()}@example.com`);
		const third = await poll(second.staticData, {
			events: ['messageCreated', 'userCreated', 'conversationCreated'],
		});
		expect(third.events.map((e) => [e.event, e.userId])).toEqual([['userCreated', userId]]);
		expect(earlier.userId).not.toBe(userId);
	});
});

describe("class 3: the workflow's own replies start nothing, by the webhook trigger's rule and options", () => {
	it("an agent's and the bot's replies are left out by default; the visitor's message comes out with the webhook trigger's eventKey", async () => {
		const started = await chat('Is anyone there?');
		const first = await poll();
		const visitorMessage = await board.visitorSays(
			started.userId,
			started.conversationId,
			'Hello?',
		);
		await board.agentReplies(started.conversationId, 'Yes, how can I help?');
		await board.call('send-message', {
			user_id: board.staff.botId,
			conversation_id: started.conversationId,
			message: 'A bot says hi',
		});
		const second = await poll(first.staticData);
		expect(second.events.map((e) => [e.event, e.messageId])).toEqual([
			['messageCreated', visitorMessage],
		]);
		// The same key the webhook trigger gives the product's message-sent delivery of that message.
		expect(second.events[0].eventKey).toBe(`messageCreated:${visitorMessage}`);
		// Nothing the replies left behind comes out later either.
		expect((await poll(second.staticData)).events).toEqual([]);

		const all = await poll(first.staticData, { options: { ignoreOwnMessages: false } });
		expect(all.events.map((e) => (e.data as IDataObject).message)).toEqual([
			'Hello?',
			'Yes, how can I help?',
			'A bot says hi',
		]);
		const ignored = await poll(first.staticData, { options: { ignoredSenderIds: started.userId } });
		expect(ignored.events).toEqual([]);
	});
});

describe('class 4: an event the webhook trigger of the same workflow ran is not run again by the poll', () => {
	it('a claim by one trigger leaves the event out of the other; the poll still moves past it', async () => {
		const workflowId = randomUUID();
		const started = await chat('Two triggers hear this');
		const first = await poll(undefined, { workflowId, events: ['messageCreated'] });
		const heard = await board.visitorSays(
			started.userId,
			started.conversationId,
			'Heard by the webhook',
		);
		const missed = await board.visitorSays(
			started.userId,
			started.conversationId,
			'Missed by the webhook',
		);
		// What the webhook trigger does for the delivery it got (test/unit/shared/claims.test.ts holds the other way).
		expect(EVENT_CLAIMS.claim(workflowId, `messageCreated:${heard}`, 'webhook', Date.now())).toBe(
			'run',
		);
		const second = await poll(first.staticData, { workflowId, events: ['messageCreated'] });
		expect(second.events.map((e) => e.messageId)).toEqual([missed]);
		// The poll claimed what it ran: a late delivery of it is the webhook trigger's to leave out.
		expect(EVENT_CLAIMS.claim(workflowId, `messageCreated:${missed}`, 'webhook', Date.now())).toBe(
			'taken',
		);
		// Another workflow's poll is not affected.
		expect(
			(await poll(first.staticData, { events: ['messageCreated'] })).events.map((e) => e.messageId),
		).toEqual([heard, missed]);
	});
});

const fresh = !onTestbed || process.env.SUPPORT_CHAT_TESTBED_FRESH === '1';
(fresh ? describe : describe.skip)(
	'class 2: a product with no message yet fires New Message and Conversation Closed',
	() => {
		let empty: Board;
		beforeAll(async () => {
			empty = onTestbed ? board : await openBoard({ seed: { users: 0, conversations: 0 } });
		});
		afterAll(async () => {
			if (empty !== board) await empty.close();
		});

		it('the first message and the first closing come out, though the message mark starts at 0', async () => {
			const pollEmpty = async (staticData?: IDataObject) => {
				const result = await callPoll({
					node: { type: TYPE, parameters: { events: ALL, options: {} } },
					nodeType: new SupportChatPollTrigger(),
					credentials: {
						types: [new SupportChatApi()],
						data: { supportChatApi: { ...empty.credentials } },
					},
					staticData,
				});
				if (result.error) throw result.error;
				return {
					staticData: result.staticData,
					events: (result.items ?? []).map((item) => item.json),
				};
			};
			const first = await pollEmpty();
			expect(JSON.stringify(first.staticData)).toMatch(/"messageId":0/);
			const started = await empty.visitorStarts({
				email: `first-${stamp()}@example.com`,
				message: 'The very first message',
			});
			await empty.archive(started.conversationId);
			const second = await pollEmpty(first.staticData);
			expect(second.events.map((e) => e.event)).toEqual([
				'userCreated',
				'conversationCreated',
				'messageCreated',
				'conversationClosed',
			]);
			expect(second.events[2]).toMatchObject({ messageId: started.messageId });
		});
	},
);
