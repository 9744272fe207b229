/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Modules cut by job: no product file over 400 lines and no function over 50, so that a function can
 * be read at once and a file that grows past one job shows it. The file limit was 250 (issue "Lean and
 * true" §3) until issue 28 raised it: cuts made only to pass it had split one job over several files.
 * A file is cut where its job is, not where its line count is (CONTRIBUTING.md's map holds one line
 * per file's job).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 50;

function productFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return productFiles(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

const files = [
	...productFiles(path.join(ROOT, 'nodes')),
	...productFiles(path.join(ROOT, 'credentials')),
];

function functionsOf(file: string): Array<{ name: string; lines: number }> {
	const source = ts.createSourceFile(
		file,
		readFileSync(file, 'utf8'),
		ts.ScriptTarget.Latest,
		true,
	);
	const found: Array<{ name: string; lines: number }> = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
			const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
			const last = source.getLineAndCharacterOfPosition(node.end).line;
			const line = `${path.relative(ROOT, file)}:${first + 1}`;
			found.push({
				name: node.name ? `${line} ${node.name.getText()}` : line,
				lines: last - first + 1,
			});
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

it('reads the product files', () => {
	expect(files.length).toBeGreaterThan(50);
});

it(`no product file is over ${MAX_FILE_LINES} lines`, () => {
	const long = files
		.map((file) => ({
			file: path.relative(ROOT, file),
			lines: readFileSync(file, 'utf8').split('\n').length - 1,
		}))
		.filter(({ lines }) => lines > MAX_FILE_LINES);
	expect(long).toEqual([]);
});

it(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
	const long = files.flatMap(functionsOf).filter(({ lines }) => lines > MAX_FUNCTION_LINES);
	expect(long).toEqual([]);
});
