/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Issue 27, class 8: claims cannot be flooded. With Verification None anyone can post events to the
 * webhook trigger. A workflow with both triggers (as in poll.bothTriggers.test.ts): a real event is
 * delivered and run by the webhook trigger, then two deliveries of 10,000 made-up events each, then a
 * real event more, then a poll. No event may run twice: the flood must not push the real event's claim
 * out (the poll would run it again), and what the webhook trigger could not claim is left to the poll.
 */
import type { IDataObject } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChatPollTrigger } from '../../nodes/SupportChat/SupportChatPollTrigger.node';
import { EVENT_CLAIMS } from '../../nodes/SupportChat/shared/claims';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { callPoll } from '../helpers/engine';
import type { Receiver } from '../helpers/receiver';
import { startReceiver } from '../helpers/receiver';

const TOKEN = 'sb-claims-flood-token-3e4f';
const FLOOD = 10_000;
let sandbox: Sandbox;
let receiver: Receiver;

beforeAll(async () => {
	sandbox = await startSandbox({
		api: 'support-board',
		token: TOKEN,
		seed: { users: 2, conversations: 1 },
	});
	receiver = await startReceiver({ sandbox });
});
afterAll(async () => {
	await receiver.close();
	await sandbox.close();
});

/** One POST of `FLOOD` made-up New Message events in Support Board's shape, as anyone may send them. */
async function flood(url: string, first: number): Promise<void> {
	const events = Array.from({ length: FLOOD }, (_, i) => ({
		function: 'message-sent',
		key: 'anything',
		data: {
			user_id: '2',
			message_id: first + i,
			message: 'flood',
			attachments: [],
			conversation_user_id: '2',
			conversation_id: '1',
			conversation_status_code: 2,
			conversation_source: '',
		},
		'sender-url': '',
	}));
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(events),
	});
	expect(answer.status).toBe(200);
}

it(`with Verification None, two deliveries of ${FLOOD} events do not make a real event run twice`, async () => {
	EVENT_CLAIMS.clear();
	const workflowId = randomUUID();
	const credentials = {
		types: [new SupportChatApi()],
		data: {
			supportChatApi: {
				api: 'supportBoard',
				baseUrl: sandbox.supportBoard!.installUrl,
				apiToken: TOKEN,
			},
		},
	};
	const url = receiver.endpoint('flood', {
		trigger: { events: ['messageCreated'], verification: 'none' },
		workflowId,
	});
	sandbox.supportBoard!.configureWebhooks({ url, key: 'not-checked', active: true });
	let staticData: IDataObject | undefined;
	const poll = async () => {
		const result = await callPoll({
			node: {
				type: 'n8n-nodes-support-chat.supportChatPollTrigger',
				parameters: { events: ['messageCreated'], options: {} },
			},
			nodeType: new SupportChatPollTrigger(),
			credentials,
			staticData,
			workflowId,
		});
		if (result.error) throw result.error;
		staticData = result.staticData;
		return (result.items ?? []).map((item) => String(item.json.eventKey));
	};
	expect(await poll()).toEqual([]);

	const { conversation } = await sandbox.supportBoard!.visitor.start({
		message: 'A visitor arrives',
		email: 'flood@example.com',
	});
	const real = await sandbox.supportBoard!.visitor.say(conversation.id, 'A real question');
	await sandbox.settled();
	await receiver.settled();
	const realKey = `messageCreated:${real.id}`;
	const webhooked = () =>
		receiver.deliveries('flood').flatMap((d) => d.items.map((item) => String(item.eventKey)));
	expect(webhooked()).toContain(realKey);

	await flood(url, 9_000_000);
	await flood(url, 9_000_000 + FLOOD);
	await receiver.settled();
	const later = await sandbox.supportBoard!.visitor.say(conversation.id, 'Another real question');
	await sandbox.settled();
	await receiver.settled();
	const laterKey = `messageCreated:${later.id}`;

	const polled = await poll();
	// The real event's claim outlived the flood: the poll leaves it out.
	expect(polled).not.toContain(realKey);
	const counts = new Map<string, number>();
	for (const key of [...webhooked(), ...polled]) counts.set(key, (counts.get(key) ?? 0) + 1);
	expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
	expect([counts.get(realKey), counts.get(laterKey)]).toEqual([1, 1]);
	const floodRun = webhooked().filter((key) => /^messageCreated:9\d{6}$/.test(key)).length;
	const left = receiver
		.deliveries('flood')
		.filter((d) => String((d.body as IDataObject)?.ignored ?? '').startsWith('left to the poll'));
	process.stderr.write(
		`[claims.flood] ${2 * FLOOD} flood events: ${floodRun} run by the webhook, the rest left to the poll; ${left.length} deliveries answered as left; the later real event run by the ${polled.includes(laterKey) ? 'poll' : 'webhook'}\n`,
	);
	expect(polled).toContain(laterKey);
});

it(`a webhook-only workflow at the bound still runs every event once: nothing else would run it`, async () => {
	EVENT_CLAIMS.clear();
	const url = receiver.endpoint('alone', {
		trigger: { events: ['messageCreated'], verification: 'none' },
		workflowId: randomUUID(),
	});
	sandbox.supportBoard!.configureWebhooks({ url, key: 'not-checked', active: true });
	await flood(url, 8_000_000);
	await flood(url, 8_000_000 + FLOOD);
	const { conversation } = await sandbox.supportBoard!.visitor.start({
		message: 'Another visitor arrives',
		email: 'alone@example.com',
	});
	const real = await sandbox.supportBoard!.visitor.say(conversation.id, 'Anyone there?');
	await sandbox.settled();
	await receiver.settled();
	const run = receiver
		.deliveries('alone')
		.flatMap((d) => d.items.map((item) => String(item.eventKey)));
	expect(run).toContain(`messageCreated:${real.id}`);
	expect(run.filter((key) => /^messageCreated:8\d{6}$/.test(key))).toHaveLength(2 * FLOOD);
	expect(new Set(run).size).toBe(run.length);
});
