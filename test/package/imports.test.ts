/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * No import circles in nodes/ and credentials/ (STYLE habit 20): files that import each other in a
 * circle mean a cut in the wrong place. Type-only imports count too: they vanish from the compiled
 * JavaScript, but a type circle ties the files' meanings together all the same (the client and its
 * wires, the operations and the table that lists them were such circles).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Circles left to the webhook trigger's own refactoring (issue 21, outside this change): each entry is
 * one circle's files, sorted. Remove an entry when its circle is gone.
 */

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

function resolve(from: string, specifier: string): string | undefined {
	const base = path.resolve(path.dirname(from), specifier);
	return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** Each file's relative imports and re-exports, type-only ones included. */
function importGraph(files: string[]): Map<string, string[]> {
	const graph = new Map<string, string[]>();
	for (const file of files) {
		const source = ts.createSourceFile(
			file,
			readFileSync(file, 'utf8'),
			ts.ScriptTarget.Latest,
			true,
		);
		const targets = source.statements
			.filter(
				(s): s is ts.ImportDeclaration | ts.ExportDeclaration =>
					ts.isImportDeclaration(s) || ts.isExportDeclaration(s),
			)
			.map((s) => s.moduleSpecifier)
			.filter(
				(m): m is ts.StringLiteral =>
					m !== undefined && ts.isStringLiteral(m) && m.text.startsWith('.'),
			)
			.map((m) => resolve(file, m.text))
			.filter((target): target is string => target !== undefined);
		graph.set(file, [...new Set(targets)]);
	}
	return graph;
}

/** The groups of files that reach each other (Tarjan's strongly connected components of two or more, or a file importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const found: string[][] = [];
	const visit = (file: string) => {
		index.set(file, counter);
		low.set(file, counter++);
		stack.push(file);
		for (const target of graph.get(file) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(file, Math.min(low.get(file)!, low.get(target)!));
			} else if (stack.includes(target))
				low.set(file, Math.min(low.get(file)!, index.get(target)!));
		}
		if (low.get(file) !== index.get(file)) return;
		const group: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			group.push(member);
		} while (member !== file);
		if (group.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(group);
	};
	for (const file of graph.keys()) if (!index.has(file)) visit(file);
	return found;
}

const files = [
	...sourceFiles(path.join(ROOT, 'nodes')),
	...sourceFiles(path.join(ROOT, 'credentials')),
];
const graph = importGraph(files);
const named = (group: string[]) =>
	group
		.map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
		.sort()
		.join(' ');

it('reads the imports of the product files', () => {
	expect(files.length).toBeGreaterThan(50);
	expect([...graph.values()].flat().length).toBeGreaterThan(files.length);
});

it('finds a circle when there is one', () => {
	const a = path.join(ROOT, 'a.ts');
	const b = path.join(ROOT, 'b.ts');
	expect(
		circles(
			new Map([
				[a, [b]],
				[b, [a]],
			]),
		).map(named),
	).toEqual(['a.ts b.ts']);
});

it('no files of nodes/ or credentials/ import each other in a circle', () => {
	expect(circles(graph).map(named)).toEqual([]);
});
