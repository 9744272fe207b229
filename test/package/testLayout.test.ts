/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The unit tests mirror the code (issue 21, item 7): a module's unit tests are one file at the same path
 * under test/unit/ as the module under nodes/SupportChat/ (or credentials/), so that a module's tests are
 * found without a search and a test file cannot outlive the module it names. Files under test/unit/ that
 * are not tests are helpers of the tests beside them. Tests across modules live in test/engine/,
 * test/examples/, test/sandbox/ and test/package/.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const UNIT = path.join(ROOT, 'test', 'unit');

function filesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory()
			? filesUnder(full)
			: [path.relative(UNIT, full).split(path.sep).join('/')];
	});
}

/** The module a unit test file names: `transport/retry.test.ts` → `nodes/SupportChat/transport/retry.ts`. */
function moduleOf(testFile: string): string {
	const stem = testFile.replace(/(\.property)?\.test\.ts$/, '');
	return stem.startsWith('credentials/') ? `${stem}.ts` : `nodes/SupportChat/${stem}.ts`;
}

const files = filesUnder(UNIT);
const tests = files.filter((file) => file.endsWith('.test.ts'));

describe('test/unit mirrors the code', () => {
	it('has unit tests to check', () => {
		expect(tests.length).toBeGreaterThan(20);
	});

	it('every unit test file sits at the path of a module that exists', () => {
		expect(tests.filter((file) => !existsSync(path.join(ROOT, moduleOf(file))))).toEqual([]);
	});

	it("a property test file sits beside its module's test file", () => {
		const property = tests.filter((file) => file.endsWith('.property.test.ts'));
		expect(
			property.filter((file) => !tests.includes(file.replace(/\.property\.test\.ts$/, '.test.ts'))),
		).toEqual([]);
	});

	it('every other file under test/unit is a TypeScript helper, not a test under another name', () => {
		const others = files.filter((file) => !file.endsWith('.test.ts'));
		expect(others.filter((file) => !file.endsWith('.ts') || /\.(spec|test)\./.test(file))).toEqual(
			[],
		);
	});

	it('finds a test file that names no module', () => {
		expect(moduleOf('trigger/payload.test.ts')).toBe('nodes/SupportChat/trigger/payload.ts');
		expect(existsSync(path.join(ROOT, moduleOf('trigger/payload.test.ts')))).toBe(false);
		expect(moduleOf('credentials/SupportChatApi.credentials.test.ts')).toBe(
			'credentials/SupportChatApi.credentials.ts',
		);
		expect(moduleOf('transport/pagination/readPage.property.test.ts')).toBe(
			'nodes/SupportChat/transport/pagination/readPage.ts',
		);
	});
});
