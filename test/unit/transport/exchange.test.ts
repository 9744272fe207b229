/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Reading an answer's bytes within its deadline: all reads share one timer, armed for the earliest
 * deadline; each read still stops at its own.
 */
import { PassThrough } from 'node:stream';

import {
	AnswerDeadlineError,
	AnswerTooLargeError,
	readAnswer,
} from '../../../nodes/SupportChat/transport/exchange';

const MB = 1 << 20;

describe('readAnswer', () => {
	it('hands back the bytes of a body that ends in time, in the order they came', async () => {
		const body = new PassThrough();
		const read = readAnswer(body, MB, Date.now() + 60_000);
		body.write('{"a":');
		body.end('1}');
		expect((await read).toString()).toBe('{"a":1}');
	});

	it('stops a body that never ends at its deadline, though a read with a later one started first', async () => {
		const late = new PassThrough();
		const early = new PassThrough();
		const lateRead = readAnswer(late, MB, Date.now() + 400);
		const earlyRead = readAnswer(early, MB, Date.now() + 40);
		early.write('{"a":');
		late.write('{"b":');
		await expect(earlyRead).rejects.toBeInstanceOf(AnswerDeadlineError);
		expect(early.destroyed).toBe(true);
		// The read left waiting is still held to its own deadline once the earlier one has gone.
		expect(late.destroyed).toBe(false);
		await expect(lateRead).rejects.toBeInstanceOf(AnswerDeadlineError);
		expect(late.destroyed).toBe(true);
	});

	it.each([
		['already past', () => Date.now() - 1],
		['not a number', () => Number.NaN],
	])('a deadline %s destroys the body without reading it', async (_name, deadline) => {
		const body = new PassThrough();
		await expect(readAnswer(body, MB, deadline())).rejects.toBeInstanceOf(AnswerDeadlineError);
		expect(body.destroyed).toBe(true);
	});

	it('stops a body past Max Response Size at the chunk that crosses it', async () => {
		const body = new PassThrough();
		const read = readAnswer(body, 10, Date.now() + 60_000);
		body.write('12345');
		body.write('678901');
		await expect(read).rejects.toBeInstanceOf(AnswerTooLargeError);
		expect(body.destroyed).toBe(true);
	});
});
