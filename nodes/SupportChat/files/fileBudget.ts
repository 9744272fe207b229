import type { FileRules } from './download';
import { RunShareExceeded } from './download';

/**
 * What one run may download in all: one webhook delivery, one poll, or one execution of the action over
 * all its input items. Max Attachment Size and Max Attachments bound one file and one item; without a
 * bound per run, a delivery of many events, each naming many files, would download them all in one go.
 * Every file takes from the run's budget: its size limit is what is left of the run's bytes (counted
 * as received), its Timeout what is left of the run's time spent downloading (never past a poll's
 * deadline). A run downloads one file at a time, so that time is the sum of its files' own: the action's
 * other work between items is not counted. Once a bound is met, the rest of the run asks for no file.
 */

/** The bounds of one run, as the options set them. */
export interface RunBounds {
	files: number;
	/** Counted as received: the sum of the files' lengths, never a length a server declares. */
	bytes: number;
	ms: number;
	/** What the user set, in the options' units, for the messages. */
	shown: { megabytes: number; seconds: number };
}

/** The kind of run, as its messages name it. */
export type RunKind = 'webhook delivery' | 'poll' | 'execution';

/** A bound of the run met: the files it stopped cannot be had in this run. */
export class RunBoundMet extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
	}
}

/** Less time than this left is too little to ask for a file at all. */
const MIN_FILE_MS = 1000;

const LATER =
	'or download the files later in the workflow from the URLs the message names (data.attachments).';

/** The host's own deadline (a poll's) coming first: n8n drops a poll that outlasts it. */
const POLL_OUT_OF_TIME = new RunBoundMet(
	"The poll's time ran out before this event's files were downloaded",
	'n8n gives a poll a limited time, and a poll that outlasts it is dropped. Poll more often, or lower Options → Max Attachment Size (MB), or download the files in the workflow from the URLs in data.',
);

export class FileBudget {
	private files: number;

	private bytes: number;

	/** The time spent downloading the files done so far. */
	private spent = 0;

	/** The file being downloaded: when it was asked for, and when it failed, if it did. */
	private flight: { since: number; until?: number } | undefined;

	/** Whether the host's deadline (a poll's), not the run's own time, cut the last file asked for. */
	private hostCuts = false;

	private met: RunBoundMet | undefined;

	/** @param hostDeadline the time the host gives the run (a poll's), in ms since the epoch */
	constructor(
		private readonly bounds: RunBounds,
		private readonly kind: RunKind,
		private readonly hostDeadline = Infinity,
	) {
		this.files = bounds.files;
		this.bytes = bounds.bytes;
	}

	/** Throws the bound this run has met, or would meet with `count` more files: before any request. */
	open(count: number): void {
		if (this.met) throw this.met;
		if (count > this.files) throw this.meet('files');
	}

	/** The rules of the next file: the bytes the run has left beside its own limit, its time cut to the run's. */
	next(rules: FileRules, now = Date.now()): FileRules {
		if (this.met) throw this.met;
		if (this.files < 1) throw this.meet('files');
		if (this.bytes < 1) throw this.meet('bytes');
		this.land(now);
		const own = this.bounds.ms - this.spent;
		const host = this.hostDeadline - now;
		this.hostCuts = host <= own;
		const left = Math.floor(Math.min(own, host));
		if (left < MIN_FILE_MS) throw this.meet('time');
		this.files -= 1;
		this.flight = { since: now };
		return {
			...rules,
			runBytes: this.bytes,
			timeoutMs: Math.min(rules.timeoutMs, left),
		};
	}

	/** A file received: its bytes and its time are taken from the run's. */
	took(bytes: number, now = Date.now()): void {
		this.bytes -= bytes;
		this.land(now);
	}

	/** The file in flight ends: its time is spent (until it failed, if it did). */
	private land(now: number): void {
		if (this.flight) this.spent += (this.flight.until ?? now) - this.flight.since;
		this.flight = undefined;
	}

	/**
	 * A file's failure as the run reports it: the run's bound when the run's share, not the user's own
	 * limit for one file, is what stopped it (`asked`, the rules `next` gave, against `rules`).
	 */
	failure(error: unknown, asked: FileRules, rules: FileRules, now = Date.now()): unknown {
		if (error instanceof RunShareExceeded) return this.meet('bytes');
		if (this.flight) this.flight.until = now;
		const elapsed = this.flight ? now - this.flight.since : 0;
		if (asked.timeoutMs < rules.timeoutMs && elapsed >= asked.timeoutMs) return this.meet('time');
		return error;
	}

	private meet(bound: Bound): RunBoundMet {
		this.met = this.bound(bound);
		return this.met;
	}

	private bound(bound: Bound): RunBoundMet {
		if (bound === 'time' && this.hostCuts) return POLL_OUT_OF_TIME;
		const { name, unit, limit } = BOUNDS[bound];
		const what = this.kind === 'execution' ? 'item' : 'event';
		return new RunBoundMet(
			`This ${this.kind}'s downloads reached ${name} (${limit(this.bounds)}); this ${what}'s files were not downloaded`,
			`One webhook delivery, one poll, or one execution of the node over all its items downloads no more. Raise Options → ${name}${unit}, ${LATER}`,
		);
	}
}

type Bound = 'files' | 'bytes' | 'time';

/** Each bound: its option (name and unit, as the editor shows them) and its value as the user set it. */
const BOUNDS: Record<Bound, { name: string; unit: string; limit: (bounds: RunBounds) => string }> =
	{
		files: { name: 'Max Attachments per Run', unit: '', limit: (b) => `${b.files} files` },
		bytes: {
			name: 'Max Attachment Total per Run',
			unit: ' (MB)',
			limit: (b) => `${b.shown.megabytes} MB`,
		},
		time: {
			name: 'Max Download Time per Run',
			unit: ' (Seconds)',
			limit: (b) => `${b.shown.seconds} s`,
		},
	};
