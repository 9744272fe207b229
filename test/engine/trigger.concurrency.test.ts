/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Duplicates that arrive together. n8n serves requests to one webhook concurrently: each request
 * rebuilds the workflow from the static data saved so far, runs the trigger's `webhook()`, and saves its
 * own copy of the static data when it ends (only if the node changed it), so the last save wins. These
 * tests run several `webhook()` calls in flight at once under n8n-core's real WebhookContext and model
 * the database exactly so: load at the start of a call, save at its end.
 */
import { createHmac } from 'node:crypto';

import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChatTrigger } from '../../nodes/SupportChat/SupportChatTrigger.node';
import { DELIVERY_REGISTRY } from '../../nodes/SupportChat/trigger/dedupe';
import type { WebhookResult } from '../helpers/engine';
import { callWebhook } from '../helpers/engine';

const SECRET = `whsec_${Buffer.from('concurrency test signing key, 32b').toString('base64')}`;
const trigger = new SupportChatTrigger();
const credentials = {
	types: [new SupportChatApi()],
	data: {
		supportChatApi: {
			baseUrl: 'http://127.0.0.1:1',
			apiToken: 'token-not-used',
			webhookSecret: SECRET,
		},
	},
};

const node = (parameters: INodeParameters): INode => ({
	id: 'c0ffee00-0000-4000-8000-000000000001',
	name: 'Support Chat Trigger',
	type: 'n8n-nodes-support-chat.supportChatTrigger',
	typeVersion: 1,
	position: [0, 0],
	webhookId: 'c0ffee00-0000-4000-8000-0000000000aa',
	parameters,
});

/** A Standard Webhooks delivery as the sender signs it: the same id and bytes on every attempt. */
function signed(id: string, body: object, now = Date.now()) {
	const text = JSON.stringify(body);
	const timestamp = String(Math.floor(now / 1000));
	const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
	const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${text}`).digest('base64');
	return {
		headers: {
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': timestamp,
			'webhook-signature': `v1,${signature}`,
		},
		body: text,
	};
}

/** An unsigned delivery that names itself in the body. */
const unsigned = (eventId: string) => ({
	headers: { 'content-type': 'application/json' },
	body: JSON.stringify({
		event: 'conversation.created',
		event_id: eventId,
		data: { id: `c_${eventId}` },
	}),
});

/** The workflow's row in n8n's database: every call loads it when it starts and saves its copy when it ends. */
class StaticDataStore {
	data: IDataObject = {};

	saves = 0;

	async call(
		options: Omit<Parameters<typeof callWebhook>[0], 'staticData'>,
	): Promise<WebhookResult> {
		const loaded = this.data;
		const result = await callWebhook({ ...options, staticData: loaded });
		// n8n saves static data after production deliveries only, and only when the node changed it.
		if (result.staticDataChanged && options.mode !== 'manual') {
			this.data = result.staticData;
			this.saves++;
		}
		return result;
	}
}

const started = (results: WebhookResult[]) =>
	results.filter((result) => result.response.workflowData !== undefined);
const answers = (results: WebhookResult[]) =>
	results.map((result) => JSON.parse(String(result.responseBody)) as IDataObject);

/** A small deterministic shuffle, so a failing order can be replayed. */
function shuffle<T>(list: T[], seed: number): T[] {
	const copy = [...list];
	let state = seed;
	for (let index = copy.length - 1; index > 0; index--) {
		state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
		const other = state % (index + 1);
		[copy[index], copy[other]] = [copy[other], copy[index]];
	}
	return copy;
}

/** Lets other requests in between, as the network does: a call starts after `turns` trips through the event loop. */
const after = async <T>(turns: number, start: () => Promise<T>): Promise<T> => {
	for (let turn = 0; turn < turns; turn++)
		await new Promise<void>((resolve) => setImmediate(resolve));
	return start();
};

let workflowId: string;
let sequence = 0;
beforeEach(() => {
	// A new workflow per test; the process's memory of earlier tests' workflows cannot interfere.
	workflowId = `concurrency-workflow-${++sequence}`;
});

describe('copies of one delivery in flight together', () => {
	it.each([
		['Standard Webhooks (webhook-id, credentials read before deciding)', 'standardWebhooks'],
		['unsigned (event_id in the body)', 'none'],
	])('%s: 20 copies start exactly one run', async (_label, verification) => {
		const store = new StaticDataStore();
		const request =
			verification === 'none'
				? unsigned('evt_1')
				: signed('msg_1', { event: 'conversation.created', data: { id: 'c_1' } });

		const results = await Promise.all(
			Array.from({ length: 20 }, () =>
				store.call({
					node: node({ events: ['*'], verification }),
					nodeType: trigger,
					credentials,
					request,
					workflowId,
				}),
			),
		);

		expect(started(results)).toHaveLength(1);
		expect(results.every((result) => result.status === 200)).toBe(true);
		expect(
			answers(results).filter((answer) => answer.ignored === 'duplicate delivery'),
		).toHaveLength(19);

		// And a retry after they all ended.
		const retry = await store.call({
			node: node({ events: ['*'], verification }),
			nodeType: trigger,
			credentials,
			request,
			workflowId,
		});
		expect(started([retry])).toHaveLength(0);
	});

	it('A and B together, then a retry of A: A ran once, even after a restart of the process', async () => {
		const store = new StaticDataStore();
		const send = (id: string) =>
			store.call({
				node: node({ events: ['*'] }),
				nodeType: trigger,
				request: unsigned(id),
				workflowId,
			});

		const first = await Promise.all([send('A'), send('B')]);
		expect(started(first)).toHaveLength(2);

		expect(started([await send('A')])).toHaveLength(0);

		// After a restart only the saved static data remembers: B's save, the last one, must carry A.
		DELIVERY_REGISTRY.clear();
		expect(started(await Promise.all([send('A'), send('B')]))).toHaveLength(0);
	});
});

describe('a burst of distinct deliveries with their retries interleaved', () => {
	it.each([1, 2, 3, 4, 5])(
		'order %i: each delivery runs exactly once; the saved static data remembers them all',
		async (seed) => {
			const store = new StaticDataStore();
			const ids = Array.from({ length: 12 }, (_, index) => `evt_${seed}_${index}`);
			// Every delivery three times: the original and two retries of a sender that did not hear back.
			const attempts = shuffle(
				ids.flatMap((id) => [id, id, id]),
				seed,
			);
			const call = (id: string) =>
				store.call({
					node: node({ events: ['*'], verification: 'standardWebhooks' }),
					nodeType: trigger,
					credentials,
					request: signed(id, { event: 'conversation.created', data: { id } }),
					workflowId,
				});

			const results = await Promise.all(
				attempts.map((id, index) => after(index % 4, () => call(id))),
			);

			const runs = started(results).map(
				(result) => result.response.workflowData?.[0][0].json.deliveryId,
			);
			expect([...runs].sort()).toEqual([...ids].sort());

			// A restart: the process forgets, the database must not have lost any delivery to a last write.
			DELIVERY_REGISTRY.clear();
			const late = await Promise.all(ids.map((id) => call(id)));
			expect(started(late)).toHaveLength(0);
		},
	);
});

describe('test URL and production URL', () => {
	const send = (store: StaticDataStore, mode: 'manual' | 'webhook') =>
		store.call({
			node: node({ events: ['*'] }),
			nodeType: trigger,
			request: unsigned('evt_both'),
			workflowId,
			mode,
		});

	it('the same delivery to both URLs at once: each starts its run', async () => {
		const production = new StaticDataStore();
		const test = new StaticDataStore();
		const results = await Promise.all([send(test, 'manual'), send(production, 'webhook')]);
		expect(started(results)).toHaveLength(2);
	});

	it('a test delivery first does not hide the production one; each URL suppresses its own repeats', async () => {
		const store = new StaticDataStore();
		expect(started([await send(store, 'manual')])).toHaveLength(1);
		expect(started([await send(store, 'webhook')])).toHaveLength(1);
		expect(started([await send(store, 'webhook')])).toHaveLength(0);
		expect(started([await send(store, 'manual')])).toHaveLength(0);
	});

	it('a production delivery first does not hide the test one, though the test URL sees the saved static data', async () => {
		const store = new StaticDataStore();
		expect(started([await send(store, 'webhook')])).toHaveLength(1);
		expect(started([await send(store, 'manual')])).toHaveLength(1);
		expect(store.data).toHaveProperty(['node:Support Chat Trigger', 'supportChatDeliveries']);
	});
});

describe('two workflows, or two trigger nodes, do not share their memory', () => {
	it('the same delivery to two workflows starts both', async () => {
		const one = new StaticDataStore();
		const two = new StaticDataStore();
		const results = await Promise.all([
			one.call({
				node: node({ events: ['*'] }),
				nodeType: trigger,
				request: unsigned('evt_shared'),
				workflowId,
			}),
			two.call({
				node: node({ events: ['*'] }),
				nodeType: trigger,
				request: unsigned('evt_shared'),
				workflowId: `${workflowId}-other`,
			}),
		]);
		expect(started(results)).toHaveLength(2);
	});
});
