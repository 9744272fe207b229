/**
 * Class 9: what docs/poll-trigger.md says of n8n and the poll trigger's state, held through n8n-core's real
 * PollTriggerExecutor. n8n 2.41.1 saves a poller's static data after the poll that runs when the
 * workflow is published, and after each poll that emits; not after a poll that emits nothing or fails,
 * never after Fetch Test Event. A restart therefore reads again from the last save: what it reads again
 * is either emitted already (and left out by the marks) or was never to be emitted (own replies, notes).
 * Against the sandbox's Support Board mode, or the real product with SUPPORT_CHAT_TESTBED.
 */
import type { IDataObject } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChatPollTrigger } from '../../nodes/SupportChat/SupportChatPollTrigger.node';
import { EVENT_CLAIMS } from '../../nodes/SupportChat/shared/claims';
import type { Board } from '../helpers/board';
import { openBoard } from '../helpers/board';
import { N8N_MAJOR, pollHost } from '../helpers/engine';

const TYPE = 'n8n-nodes-support-chat.supportChatPollTrigger';
let board: Board;
beforeAll(async () => {
	board = await openBoard({ seed: { users: 4, conversations: 3 } });
});
afterAll(async () => await board.close());

const host = () =>
	pollHost({
		node: {
			type: TYPE,
			parameters: { events: ['conversationCreated', 'messageCreated'], options: {} },
		},
		nodeType: new SupportChatPollTrigger(),
		credentials: {
			types: [new SupportChatApi()],
			data: { supportChatApi: { ...board.credentials } },
		},
	});
const marksOf = (saved: IDataObject) => JSON.stringify(saved['node:Poll Trigger']);
const messages = (items: Array<{ json: IDataObject }>) =>
	items.map((item) =>
		item.json.event === 'messageCreated'
			? (item.json.data as IDataObject).message
			: item.json.event,
	);

// n8n 1.x runs polls in its cli, without n8n-core's PollTriggerExecutor, and saves as it likes: the claim is n8n 2.41's.
(N8N_MAJOR >= 2 ? it : it.skip)(
	'n8n 2.x: a restart reads again from the last save and emits nothing twice; an empty poll and Fetch Test Event save nothing',
	async () => {
		const poller = host();
		await poller.activate();
		const published = poller.saved();
		expect(marksOf(published)).toMatch(/"messageId":\d+/);
		expect(poller.emitted).toEqual([]);

		const chat = await board.visitorStarts({
			email: `restart-${Date.now()}@example.com`,
			message: 'First words',
		});
		await poller.tick();
		expect(messages(poller.emitted)).toEqual(['conversationCreated', 'First words']);
		const afterEmit = poller.saved();
		expect(afterEmit).not.toEqual(published);

		// The agent's reply is the workflow's own: the poll moves past it in memory, emits nothing, and n8n saves nothing.
		await board.agentReplies(chat.conversationId, 'An agent answers');
		await poller.tick();
		expect(poller.saved()).toEqual(afterEmit);
		expect(await poller.fetchTestEvent()).not.toEqual([]);
		expect(poller.saved()).toEqual(afterEmit);

		// n8n stops; the visitor writes; n8n starts again from the save after the last emitting poll.
		await board.visitorSays(chat.userId, chat.conversationId, 'While n8n was down');
		EVENT_CLAIMS.clear();
		await poller.restart();
		expect(messages(poller.emitted)).toEqual([
			'conversationCreated',
			'First words',
			'While n8n was down',
		]);
		await poller.tick();
		await poller.restart();
		await poller.tick();
		expect(messages(poller.emitted)).toEqual([
			'conversationCreated',
			'First words',
			'While n8n was down',
		]);
		expect(poller.errors).toEqual([]);
		const keys = poller.emitted.map((item) => item.json.eventKey);
		expect(new Set(keys).size).toBe(keys.length);
	},
);
