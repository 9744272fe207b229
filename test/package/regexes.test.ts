/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Every regular expression in the shipped code may meet text from the service or a webhook sender, so
 * none may take super-linear time (issue 8, class 3). The lint (eslint-plugin-regexp) judges patterns by
 * their shape; this test asks recheck, a ReDoS checker that proves complexity or finds an attack
 * string, about every regular expression literal in nodes/ and credentials/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { check } from 'recheck';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
	});
}

interface Found {
	where: string;
	source: string;
	flags: string;
}

/** Regular expression literals, and whether the code builds any pattern at run time instead. */
function patternsIn(file: string): { literals: Found[]; constructed: string[] } {
	const text = readFileSync(file, 'utf8');
	const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
	const literals: Found[] = [];
	const constructed: string[] = [];
	const where = (node: ts.Node) =>
		`${path.relative(ROOT, file)}:${sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
	const visit = (node: ts.Node) => {
		if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
			const literal = node.getText();
			const slash = literal.lastIndexOf('/');
			literals.push({
				where: where(node),
				source: literal.slice(1, slash),
				flags: literal.slice(slash + 1),
			});
		}
		if (
			(ts.isNewExpression(node) || ts.isCallExpression(node)) &&
			node.expression.getText() === 'RegExp'
		) {
			constructed.push(where(node));
		}
		ts.forEachChild(node, visit);
	};
	visit(sourceFile);
	return { literals, constructed };
}

const files = [
	...sourceFiles(path.join(ROOT, 'nodes')),
	...sourceFiles(path.join(ROOT, 'credentials')),
];
const found = files.map(patternsIn);
const literals = found.flatMap((entry) => entry.literals);

it('node code builds no pattern at run time, so every pattern is one this test checks', () => {
	expect(found.flatMap((entry) => entry.constructed)).toEqual([]);
	expect(literals.length).toBeGreaterThan(20);
});

it.each(literals.map((entry) => [entry.where, entry] as const))(
	'%s runs in linear time',
	async (_where, entry) => {
		// recheck answers "unknown" when its timeout passes first: 8 s for the bot token's shape on a
		// machine at a load of 4, past 20 s at 13. The bound is for a verdict, not on the pattern's speed.
		const diagnostics = await check(entry.source, entry.flags, { timeout: 90_000 });
		expect({ pattern: `/${entry.source}/${entry.flags}`, status: diagnostics.status }).toEqual({
			pattern: `/${entry.source}/${entry.flags}`,
			status: 'safe',
		});
	},
	120_000,
);
