/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Class 4: the webhook trigger and the poll trigger of one workflow run each event once. The sandbox's
 * Support Board mode sends its real webhooks to the Support Chat Trigger (n8n-core's WebhookContext, one
 * workflow id) while the poll trigger of the same workflow polls between and during them (PollContext);
 * visitors write in overlapping pairs, and some deliveries fail on the way, as while n8n is down. Every
 * event must start exactly one of the two, whatever arrives first.
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

const TOKEN = 'sb-both-triggers-token-5a6b';
const KEY = 'sb-both-triggers-key-7c8d';
const PAIRS = 60;
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

it(`${PAIRS * 2} visitor messages in overlapping pairs, polls running among them, a fifth of the deliveries lost: each event runs once`, async () => {
	EVENT_CLAIMS.clear();
	const workflowId = randomUUID();
	const credentials = {
		types: [new SupportChatApi()],
		data: {
			supportChatApi: {
				api: 'supportBoard',
				baseUrl: sandbox.supportBoard!.installUrl,
				apiToken: TOKEN,
				webhookSecret: KEY,
			},
		},
	};
	const url = receiver.endpoint('both', {
		trigger: { events: ['messageCreated'], verification: 'bodyField' },
		credentials,
		workflowId,
	});
	sandbox.supportBoard!.configureWebhooks({ url, key: KEY, active: true });
	let staticData: IDataObject | undefined;
	const polled: string[] = [];
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
		polled.push(...(result.items ?? []).map((item) => String(item.json.eventKey)));
	};
	await poll();

	const visitors = await Promise.all(
		[0, 1].map(
			async (i) =>
				(
					await sandbox.supportBoard!.visitor.start({
						message: `Visitor ${i} arrives`,
						email: `pair-${i}@example.com`,
					})
				).conversation,
		),
	);
	const sent: string[] = [];
	// Polls run one after another, as n8n runs a poller, but beside the deliveries, never waiting for them.
	let polls = Promise.resolve();
	for (let pair = 0; pair < PAIRS; pair++) {
		// Every fifth pair while "n8n is down": the product's deliveries fail (it sends once, no retry).
		sandbox.supportBoard!.configureWebhooks({
			url: pair % 5 === 4 ? 'http://127.0.0.1:9/down' : url,
			key: KEY,
			active: true,
		});
		const [a, b] = await Promise.all(
			visitors.map((c, i) => sandbox.supportBoard!.visitor.say(c.id, `pair ${pair} from ${i}`)),
		);
		sent.push(`messageCreated:${a.id}`, `messageCreated:${b.id}`);
		if (pair % 3 === 0) polls = polls.then(poll);
	}
	await polls;
	await sandbox.settled();
	await receiver.settled();
	await poll();

	const webhooked = receiver
		.deliveries('both')
		.flatMap((d) => d.items.map((item) => String(item.eventKey)));
	const counts = new Map<string, number>();
	for (const key of [...webhooked, ...polled]) counts.set(key, (counts.get(key) ?? 0) + 1);
	const theirs = sent.map((key) => counts.get(key) ?? 0);
	process.stderr.write(
		`[poll.bothTriggers] ${sent.length} events: ${webhooked.filter((k) => sent.includes(k)).length} run by the webhook trigger, ${polled.filter((k) => sent.includes(k)).length} by the poll trigger, ${theirs.filter((n) => n > 1).length} twice, ${theirs.filter((n) => n === 0).length} never\n`,
	);
	expect(theirs.filter((n) => n !== 1)).toEqual([]);
	// Both triggers took part: the lost deliveries came by poll, the rest by webhook.
	expect(polled.filter((key) => sent.includes(key)).length).toBeGreaterThanOrEqual((PAIRS / 5) * 2);
	expect(webhooked.filter((key) => sent.includes(key)).length).toBeGreaterThan(PAIRS);
	// The deliveries the poll had run first were answered as such.
	const late = receiver
		.deliveries('both')
		.filter((d) => (d.body as IDataObject)?.ignored === 'event already run by the poll trigger');
	process.stderr.write(
		`[poll.bothTriggers] ${late.length} deliveries arrived after the poll had run their event\n`,
	);
});
