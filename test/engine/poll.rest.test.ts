/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The poll trigger's promise on the REST API, under n8n-core's real PollContext against the sandbox:
 * history never comes out as new (class 1), a list empty at publishing still fires (2), closings go by
 * their own clock (5), any number of records sharing the mark's value come out once with bounded state
 * (6), the budget is asked before every request (7), nothing is dropped without a word (8).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChatPollTrigger } from '../../nodes/SupportChat/SupportChatPollTrigger.node';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { N8N_MAJOR, callPoll } from '../helpers/engine';
import { TOKEN } from '../helpers/supportChat';

const TYPE = 'n8n-nodes-support-chat.supportChatPollTrigger';
let clock = Date.parse('2026-03-01T10:00:00Z');
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		token: TOKEN,
		pagination: 'page',
		pageSize: 10,
		seed: { users: 25, conversations: 6 },
		now: () => new Date(clock),
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => {
	sandbox.reset();
	sandbox.clearFaults();
});

interface PollOpts {
	options?: INodeParameters;
	pollBudgetMs?: number;
}

async function poll(events: string[], staticData?: IDataObject, opts: PollOpts = {}) {
	const result = await callPoll({
		node: { type: TYPE, parameters: { events, options: opts.options ?? {} } },
		nodeType: new SupportChatPollTrigger(),
		credentials: {
			types: [new SupportChatApi()],
			data: { supportChatApi: { baseUrl: sandbox.origin, apiToken: TOKEN } },
		},
		staticData,
		pollBudgetMs: opts.pollBudgetMs,
	});
	return { ...result, events: (result.items ?? []).map((item) => item.json) };
}

async function api(method: string, path: string, body?: unknown) {
	const response = await fetch(`${sandbox.baseUrl}${path}`, {
		method,
		headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return (await response.json()) as IDataObject;
}

/** One page of users each poll, in place of the sandbox's. */
function serveUsers(records: IDataObject[]) {
	sandbox.clearFaults();
	sandbox.fault({
		method: 'GET',
		path: '/users',
		kind: 'raw',
		contentType: 'application/json',
		body: JSON.stringify({ data: records }),
		times: 100,
	});
}
const NO_PAGES = { paginationStyle: 'none' };

describe('class 5: closings go by when they closed, whatever field marks creation', () => {
	it('with Watermark Field created_at, two old conversations closed one after the other are two closings', async () => {
		const events = ['conversationCreated', 'conversationClosed'];
		const options = { watermarkField: 'created_at' };
		const first = await poll(events, undefined, { options });
		expect(first.error).toBeUndefined();
		const [older, old] = sandbox.state.conversations.filter((c) => c.status !== 'closed');
		clock += 60_000;
		await api('POST', `/conversations/${old.id}/close`);
		const second = await poll(events, first.staticData, { options });
		expect(second.events.map((e) => [e.event, e.conversationId])).toEqual([
			['conversationClosed', old.id],
		]);
		clock += 60_000;
		await api('POST', `/conversations/${older.id}/close`);
		const third = await poll(events, second.staticData, { options });
		expect(third.events.map((e) => [e.event, e.conversationId])).toEqual([
			['conversationClosed', older.id],
		]);
	});
});

describe("class 6: any number of records sharing the mark's value come out once, and the state keeps only that tie", () => {
	it('2,500 users written in one second are emitted once, never again; the state shrinks once a newer one moves the mark', async () => {
		const at = '2026-03-01T10:00:00Z';
		const before = [{ id: 'u0', created_at: '2026-03-01T09:00:00Z' }];
		serveUsers(before);
		const first = await poll(['userCreated'], undefined, { options: NO_PAGES });
		expect(first.error).toBeUndefined();
		const burst = Array.from({ length: 2_500 }, (_, i) => ({ id: `b${i}`, created_at: at }));
		serveUsers([...before, ...burst]);
		const second = await poll(['userCreated'], first.staticData, { options: NO_PAGES });
		expect(second.events).toHaveLength(2_500);
		let state = second.staticData;
		for (let i = 0; i < 3; i++) {
			const again = await poll(['userCreated'], state, { options: NO_PAGES });
			expect(again.error).toBeUndefined();
			expect(again.events).toHaveLength(0);
			state = again.staticData;
		}
		serveUsers([...before, ...burst, { id: 'late', created_at: '2026-03-01T10:00:01Z' }]);
		const later = await poll(['userCreated'], state, { options: NO_PAGES });
		expect(later.events.map((e) => e.userId)).toEqual(['late']);
		// What is kept is the tie at the mark: 2,500 keys while the burst is the newest, one after.
		expect(JSON.stringify(second.staticData).length).toBeGreaterThan(2_500 * 10);
		expect(JSON.stringify(later.staticData).length).toBeLessThan(600);
	});

	it('after 10,000 events in ten polls the state is the size of the last tie, not of what was emitted', async () => {
		const users = (from: number, to: number) =>
			Array.from({ length: to - from }, (_, i) => ({
				id: `n${from + i}`,
				created_at: new Date(Date.parse('2026-03-01T00:00:00Z') + (from + i) * 1000).toISOString(),
			}));
		serveUsers(users(0, 1));
		let state = (await poll(['userCreated'], undefined, { options: NO_PAGES })).staticData;
		let emitted = 0;
		for (let round = 0; round < 10; round++) {
			serveUsers(users(0, 1 + (round + 1) * 1_000));
			const result = await poll(['userCreated'], state, { options: NO_PAGES });
			emitted += result.events.length;
			state = result.staticData;
		}
		expect(emitted).toBe(10_000);
		const size = JSON.stringify(state).length;
		process.stderr.write(`[poll.rest] state after 10,000 events: ${size} bytes of JSON\n`);
		expect(size).toBeLessThan(400);
	});
});

describe('class 8: nothing dropped without a word', () => {
	it('a new record whose watermark value is missing or null is an error naming the field and the record', async () => {
		serveUsers([{ id: 'u1', created_at: '2026-03-01T09:00:00Z' }]);
		const first = await poll(['userCreated'], undefined, { options: NO_PAGES });
		serveUsers([
			{ id: 'u1', created_at: '2026-03-01T09:00:00Z' },
			{ id: 'u2', created_at: null },
		]);
		const second = await poll(['userCreated'], first.staticData, { options: NO_PAGES });
		expect(second.error?.message).toMatch(/record u2 has no value in "created_at"/);
		expect(second.staticData).toEqual(first.staticData);
	});

	it('a record without an id is an error, not a silent gap', async () => {
		serveUsers([{ id: 'u1', created_at: '2026-03-01T09:00:00Z' }]);
		const first = await poll(['userCreated'], undefined, { options: NO_PAGES });
		serveUsers([
			{ id: 'u1', created_at: '2026-03-01T09:00:00Z' },
			{ name: 'No Id', created_at: '2026-03-01T09:30:00Z' },
		]);
		const second = await poll(['userCreated'], first.staticData, { options: NO_PAGES });
		expect(second.error?.message).toMatch(/A users record \(number 2 in the list\) has no id/);
	});

	it('a Watermark Field that no record carries is named, with a record that lacks it', async () => {
		serveUsers([{ id: 'u1', created_at: '2026-03-01T09:00:00Z' }]);
		const result = await poll(['userCreated'], undefined, {
			options: { ...NO_PAGES, watermarkField: 'seq' },
		});
		expect(result.error?.message).toMatch(
			/"seq", the Watermark Field \(record u1 has id, created_at\)/,
		);
	});
});

describe('class 1 and 2 on REST: history never new; a list empty at publishing still fires', () => {
	it('an event added to Events after publishing starts from where things stand then', async () => {
		const first = await poll(['conversationCreated']);
		const second = await poll(['conversationCreated', 'userCreated'], first.staticData);
		expect(second.error).toBeUndefined();
		expect(second.events).toEqual([]);
		await api('POST', '/users', { name: 'Nia New', email: 'nia@example.com' });
		const third = await poll(['conversationCreated', 'userCreated'], second.staticData);
		expect(third.events.map((e) => (e.data as IDataObject).email)).toEqual(['nia@example.com']);
	});

	it('users written to a list that was empty at publishing come out', async () => {
		serveUsers([]);
		const first = await poll(['userCreated'], undefined, { options: NO_PAGES });
		serveUsers([{ id: 'u1', created_at: '2026-03-01T09:00:00Z' }]);
		const second = await poll(['userCreated'], first.staticData, { options: NO_PAGES });
		expect(second.events.map((e) => e.userId)).toEqual(['u1']);
	});
});

describe('class 7: the budget is asked before every request, not before each list', () => {
	it('Max Requests per Poll counts each page', async () => {
		const first = await poll(['userCreated']);
		sandbox.clearLog();
		// 25 users in pages of 10: three requests.
		const second = await poll(['userCreated'], first.staticData, { options: { maxRequests: 2 } });
		expect(second.error?.message).toMatch(/needs more than 2 requests \(GET \/users/);
		expect(sandbox.requests).toHaveLength(2);
		expect(second.staticData).toEqual(first.staticData);
	});

	// n8n 1.x gives a poller no budget (getPollBudgetMs arrived in 2.x): the node then stops after 5 minutes.
	(N8N_MAJOR >= 2 ? it : it.skip)(
		"n8n 2.x: a slow service stops the poll before the request past n8n's budget, not after the whole list",
		async () => {
			const first = await poll(['userCreated']);
			sandbox.clearLog();
			sandbox.fault({ method: 'GET', path: '/users', kind: 'slow', delayMs: 400, times: 10 });
			// 80% of 500 ms is spent asking: the second page starts after 400 ms and is not sent.
			const second = await poll(['userCreated'], first.staticData, { pollBudgetMs: 500 });
			expect(second.error?.message).toMatch(/ran out of time after 1 requests/);
			expect(sandbox.requests).toHaveLength(1);
			expect(second.staticData).toEqual(first.staticData);
		},
	);
});
