import type { FileRules } from '../../../nodes/SupportChat/files/download';
import type { RunBounds } from '../../../nodes/SupportChat/files/fileBudget';
import { FileBudget, RunBoundMet } from '../../../nodes/SupportChat/files/fileBudget';
import { RunShareExceeded } from '../../../nodes/SupportChat/files/download';
import { FileRefused } from '../../../nodes/SupportChat/files/urls';

const MB = 1024 * 1024;
const RULES: FileRules = { maxBytes: 16 * MB, timeoutMs: 30_000, otherHosts: true };
const BOUNDS: RunBounds = {
	files: 3,
	bytes: 20 * MB,
	ms: 60_000,
	shown: { megabytes: 20, seconds: 60 },
};
const NOW = 1_000_000;

const thrown = (run: () => unknown) => {
	try {
		run();
	} catch (error) {
		return error as RunBoundMet;
	}
	throw new Error('nothing thrown');
};

it("cuts each file's size and Timeout to what the run has left", () => {
	const budget = new FileBudget(BOUNDS, 'webhook delivery');
	expect(budget.next(RULES, NOW)).toEqual({ ...RULES, runBytes: 20 * MB, timeoutMs: 30_000 });
	budget.took(15 * MB, NOW + 50_000);
	expect(budget.next(RULES, NOW + 50_000)).toEqual({
		...RULES,
		runBytes: 5 * MB,
		timeoutMs: 10_000,
	});
});

it('refuses a list longer than the files left before any file, and nothing after', () => {
	const budget = new FileBudget(BOUNDS, 'webhook delivery');
	budget.open(2);
	const met = thrown(() => budget.open(4));
	expect(met).toBeInstanceOf(RunBoundMet);
	expect(met.message).toBe(
		"This webhook delivery's downloads reached Max Attachments per Run (3 files); this event's files were not downloaded",
	);
	expect(met.description).toContain('Raise Options → Max Attachments per Run,');
	expect(thrown(() => budget.open(1))).toBe(met);
	expect(thrown(() => budget.next(RULES, NOW))).toBe(met);
});

it('counts files as they are asked for', () => {
	const budget = new FileBudget(BOUNDS, 'execution');
	for (let i = 0; i < 3; i++) budget.next(RULES, NOW);
	expect(thrown(() => budget.next(RULES, NOW)).message).toBe(
		"This execution's downloads reached Max Attachments per Run (3 files); this item's files were not downloaded",
	);
});

it("names the run's bytes, not the file's size, when the bytes left were the smaller limit", () => {
	const budget = new FileBudget(BOUNDS, 'poll');
	budget.took(18 * MB);
	const asked = budget.next(RULES, NOW);
	const overRun = new RunShareExceeded(
		'The attachment x is larger than the run has left',
		'Raise Options → Max Attachment Size (MB) to download it.',
	);
	const met = budget.failure(overRun, asked, RULES) as RunBoundMet;
	expect(met.message).toBe(
		"This poll's downloads reached Max Attachment Total per Run (20 MB); this event's files were not downloaded",
	);
	expect(met.description).toContain('Options → Max Attachment Total per Run (MB)');
	const gone = new FileRefused('The attachment x could not be downloaded: 404', 'Check', 404);
	expect(budget.failure(gone, asked, RULES)).toBe(gone);
});

it("keeps the file's own size refusal for a length the server declares, though the run has less left", () => {
	const budget = new FileBudget(BOUNDS, 'poll');
	budget.took(18 * MB);
	const asked = budget.next(RULES, NOW);
	const declared = new FileRefused('larger', 'Raise Options → Max Attachment Size (MB).');
	expect(budget.failure(declared, asked, RULES, NOW)).toBe(declared);
	expect(budget.next(RULES, NOW)).toMatchObject({ runBytes: 2 * MB });
});

it("keeps a file's own size refusal when the file's limit was the smaller", () => {
	const budget = new FileBudget(BOUNDS, 'poll');
	const asked = budget.next(RULES, NOW);
	const tooLarge = new FileRefused('larger', 'Raise Options → Max Attachment Size (MB).');
	expect(budget.failure(tooLarge, asked, RULES)).toBe(tooLarge);
});

it('stops asking once less than a second of the run is left, and names the time bound', () => {
	const budget = new FileBudget(BOUNDS, 'webhook delivery');
	budget.next(RULES, NOW);
	const met = thrown(() => budget.next(RULES, NOW + 59_500));
	expect(met.message).toBe(
		"This webhook delivery's downloads reached Max Download Time per Run (60 s); this event's files were not downloaded",
	);
	expect(met.description).toContain('Options → Max Download Time per Run (Seconds)');
});

it("a file stopped by the run's deadline is the run's time bound", () => {
	const budget = new FileBudget(BOUNDS, 'execution');
	budget.next(RULES, NOW);
	const asked = budget.next(RULES, NOW + 45_000);
	const late = new FileRefused('The attachment x took longer than Timeout', 'Raise Timeout');
	expect(budget.failure(late, asked, RULES, NOW + 44_000)).toBe(late);
	expect((budget.failure(late, asked, RULES, NOW + 60_000) as Error).message).toContain(
		'Max Download Time per Run (60 s)',
	);
});

it('counts the time from the first file asked for', () => {
	const budget = new FileBudget(BOUNDS, 'webhook delivery');
	expect(budget.next(RULES, NOW + 500_000).timeoutMs).toBe(30_000);
	expect(budget.next(RULES, NOW + 550_000).timeoutMs).toBe(10_000);
});

it("counts only the time spent downloading: the work between files is not the run's", () => {
	const budget = new FileBudget(BOUNDS, 'execution');
	budget.next(RULES, NOW);
	budget.took(MB, NOW + 20_000);
	// An item's own calls, minutes long, between two files.
	expect(budget.next(RULES, NOW + 500_000).timeoutMs).toBe(30_000);
	budget.took(MB, NOW + 530_000);
	expect(budget.next(RULES, NOW + 900_000).timeoutMs).toBe(10_000);
	const late = new FileRefused('The attachment x took longer than Timeout', 'Raise Timeout');
	const asked = { ...RULES, timeoutMs: 10_000 };
	expect((budget.failure(late, asked, RULES, NOW + 910_000) as Error).message).toContain(
		'Max Download Time per Run (60 s)',
	);
});

it('counts the time a failed file took, until it failed', () => {
	const budget = new FileBudget(BOUNDS, 'execution');
	const asked = budget.next(RULES, NOW);
	const gone = new FileRefused('The attachment x answered 404', 'Check the URL');
	expect(budget.failure(gone, asked, RULES, NOW + 25_000)).toBe(gone);
	expect(budget.next(RULES, NOW + 400_000).timeoutMs).toBe(30_000);
	expect(budget.next(RULES, NOW + 430_000).timeoutMs).toBe(5_000);
});

it("a poll's own deadline, when sooner, keeps its own words", () => {
	const budget = new FileBudget(BOUNDS, 'poll', NOW + 5_000);
	expect(budget.next(RULES, NOW).timeoutMs).toBe(5_000);
	expect(thrown(() => budget.next(RULES, NOW + 4_500)).message).toBe(
		"The poll's time ran out before this event's files were downloaded",
	);
});
