/**
 * Return All on Support Board with Pagination Concurrency 4 (the node reads pages ahead by number:
 * 100 rows a page, no count), run by the real n8n engine against the sandbox's Support Board mode,
 * each call answered 20 ms late so that requests overlap, or, with SUPPORT_CHAT_TESTBED, against the
 * real product (test/helpers/board.ts) for the smaller lists. The lists are users made here under a
 * fresh stamp, found by get-users' `search`: the test bed is shared and never emptied. What needs the
 * request log or faults (requests in flight, pages asked for, a lying or failing page) runs on the
 * sandbox only.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import type { Board } from '../helpers/board';
import { onTestbed, openBoard } from '../helpers/board';
import { runNode } from '../helpers/engine';
import { ACTION_TYPE, jsonOf } from '../helpers/supportChat';

/** The list sizes, each a search of its own; 0 finds nobody. The test bed makes the smaller ones only. */
const SIZES = onTestbed ? [0, 99, 100, 101] : [0, 99, 100, 101, 250, 400];
/** One marker a size, letters that are not hex digits, so that no stamp holds one. */
const MARKERS = 'ZPQRST';

let board: Board;
let stamp: string;
/** The users made, newest last; user i is in every list whose size is above i. */
const made: string[] = [];

const term = (size: number) => `${stamp}${MARKERS[SIZES.indexOf(size)]}`;
const lastName = (index: number) =>
	SIZES.filter((size) => index < size)
		.map(term)
		.join('');

beforeAll(async () => {
	board = await openBoard({ latencyMs: 20 });
	stamp = randomUUID().slice(0, 8);
	const total = Math.max(...SIZES);
	// A few at a time: the test bed's PHP server has two workers.
	const batch = onTestbed ? 2 : 16;
	for (let from = 0; from < total; from += batch) {
		const ids = await Promise.all(
			Array.from({ length: Math.min(batch, total - from) }, (_, k) =>
				board.addUser('Reader', lastName(from + k), `ra-${stamp}-${from + k}@example.test`),
			),
		);
		made.push(...ids);
	}
}, 120_000);
afterAll(async () => await board.close());

async function getUsers(size: number, more: IDataObject = {}, options: IDataObject = {}) {
	board.sandbox?.clearLog();
	const parameters = {
		resource: 'user',
		operation: 'getAll',
		returnAll: true,
		filters: { queryParameters: { parameter: [{ name: 'search', value: term(size) }] } },
		options: { concurrency: 4, ...options },
		...more,
	} as INodeParameters;
	return await runNode({
		node: { name: 'Support Chat', type: ACTION_TYPE, parameters },
		nodeTypes: { [ACTION_TYPE]: new SupportChat() },
		credentials: {
			types: [new SupportChatApi()],
			data: { supportChatApi: { ...board.credentials } },
		},
	});
}

const ids = (run: Awaited<ReturnType<typeof getUsers>>) => jsonOf(run).map((u) => String(u.id));

/** The pages the sandbox was asked for, in order of arrival. */
const pagesAsked = () =>
	(board.sandbox?.requests ?? []).map((r) => Number((r.body as IDataObject).pagination));

/** The most calls the sandbox had in flight at once: an answer at the same millisecond as an arrival came first. */
function peakInFlight(): number {
	const events = (board.sandbox?.requests ?? []).flatMap((r) => [
		{ at: r.time, step: 1 },
		{ at: r.answered ?? Number.POSITIVE_INFINITY, step: -1 },
	]);
	events.sort((a, b) => a.at - b.at || a.step - b.step);
	let open = 0;
	let peak = 0;
	for (const { step } of events) peak = Math.max(peak, (open += step));
	return peak;
}

const sandboxIt = onTestbed ? it.skip : it;

describe.each(SIZES)('a list of %i users, concurrency 4', (size) => {
	it('returns every user exactly once, in the order the pages read one by one give', async () => {
		const ahead = await getUsers(size);
		expect(ahead.status).toBe('success');
		const got = ids(ahead);
		expect(new Set(got).size).toBe(got.length);
		expect([...got].sort()).toEqual(made.slice(0, size).sort());
		// The product sorts by creation time, to the second: users made in one second may swap places
		// between two reads of the test bed, so there the two reads are compared as sets.
		const oneByOne = ids(await getUsers(size, {}, { concurrency: 1 }));
		if (onTestbed) expect(new Set(oneByOne)).toEqual(new Set(got));
		else expect(got).toEqual(oneByOne);
	});

	sandboxIt(
		'never has more than 4 calls in flight, and reads at most 3 pages past the end',
		async () => {
			await getUsers(size);
			expect(peakInFlight()).toBeLessThanOrEqual(4);
			const needed = Math.floor(size / 100) + 1;
			const asked = pagesAsked();
			expect([...asked].sort((a, b) => a - b)).toEqual(
				Array.from({ length: asked.length }, (_, page) => page),
			);
			expect(asked.length).toBeGreaterThanOrEqual(needed);
			expect(asked.length).toBeLessThanOrEqual(size < 100 ? 1 : needed + 3);
		},
	);
});

sandboxIt('has 4 calls in flight on a long list, 1 with concurrency 1', async () => {
	await getUsers(400, {}, { concurrency: 1 });
	expect(peakInFlight()).toBe(1);
	expect(pagesAsked()).toEqual([0, 1, 2, 3, 4]);
	await getUsers(400);
	expect(peakInFlight()).toBe(4);
});

sandboxIt('with Limit 150, reads only the 2 pages Limit needs', async () => {
	const all = ids(await getUsers(250));
	const run = await getUsers(250, { returnAll: false, limit: 150 });
	expect(ids(run)).toEqual(all.slice(0, 150));
	expect(pagesAsked()).toEqual([0, 1]);
});

sandboxIt('fails, naming the pages, when a page past a short one brings users', async () => {
	// Page 1 comes back short (one user), while page 2 still holds 50: the list changed, or the service lies.
	board.sandbox!.fault({
		path: 'get-users',
		pagination: 1,
		kind: 'raw',
		contentType: 'text/html; charset=UTF-8',
		body: JSON.stringify({ success: true, response: [{ id: '990001', first_name: 'Late' }] }),
	});
	const run = await getUsers(250);
	expect(run.status).toBe('error');
	expect(run.error('Support Chat')).toMatchObject({
		name: 'NodeApiError',
		message: expect.stringContaining(
			'Page 3 of get-users, read ahead, brought records after page 2 ended the list with 1 records (a full page holds 100)',
		),
		description: expect.stringContaining('Options → Pagination Concurrency'),
	});
	expect(peakInFlight()).toBeLessThanOrEqual(4);
});

sandboxIt.each([1, 4])(
	'fails on a 404 for a page after a full one, read with concurrency %i: Support Board answers an empty page there, never a 404',
	async (concurrency) => {
		board.sandbox!.fault({ path: 'get-users', pagination: 2, kind: 'status', status: 404 });
		const run = await getUsers(400, {}, { concurrency });
		expect(run.status).toBe('error');
		expect(run.output('Support Chat')).toEqual([]);
	},
);

sandboxIt('fails the whole list when one page fails: no part of it is returned', async () => {
	board.sandbox!.fault({ path: 'get-users', pagination: 2, kind: 'status', status: 403 });
	const run = await getUsers(400);
	expect(run.status).toBe('error');
	expect(run.output('Support Chat')).toEqual([]);
	expect(run.error('Support Chat')).toMatchObject({ name: 'NodeApiError' });
	// Every call had its answer before the node ended: none is left running behind the error.
	expect(board.sandbox!.requests.every((r) => r.answered !== undefined)).toBe(true);
});
