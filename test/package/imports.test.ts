/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * What the files of nodes/ and credentials/ import from each other.
 *
 * No import circles (STYLE habit 20): files that import each other in a circle mean a cut in the wrong
 * place. Type-only imports count too: they vanish from the compiled JavaScript, but a type circle ties
 * the files' meanings together all the same (the client and its wires, the operations and the table that
 * lists them were such circles).
 *
 * No value exported for tests only (issue 21, item 4): a value a file exports is imported by another
 * product file, or it is one of n8n's entry points, or it is a documented exception below. A test
 * reaches a module through what the nodes use, and asserts what a user would notice.
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

/**
 * Values exported though no other product file imports them, each with the reason a test needs it. Remove
 * an entry when its test no longer reads the value.
 */
const TEST_ONLY_EXPORTS: Record<string, Record<string, string>> = {
	'nodes/SupportChat/shared/eventFacts.ts': {
		EVENT_ROWS:
			'the one-row test derives every list from the table plus a made-up row; the product reads the table only through what is derived from it',
		deriveEventFacts:
			'the one-row test derives every list from the table plus a made-up row, through the same function the module derives its own with, to show that a new event needs nothing but its row',
	},
	'nodes/SupportChat/shared/secrets.ts': {
		SECRET_FIELDS:
			'the test checks that the quick test before the walk (holdsSecretField) lets every name of the table through; no public path lists the names, and a copy in the test would miss a name added to the table',
	},
	'nodes/SupportChat/transport/success.ts': {
		failureInBody:
			"the rule's own table (the flags and status words by which a 2xx body says it failed) is read directly, as it was while the rule sat in errors.ts; through readSuccess every row would need a whole answer",
	},
	'nodes/SupportChat/files/addresses.ts': {
		ipv6Bytes:
			"the parser's own table: the forms an IPv6 address may be written in (compressed, with an IPv4 tail, too many groups) are read to their bytes, which every range check then judges; a wrong byte could pass the range tests by chance",
	},
	'nodes/SupportChat/trigger/delivery.ts': {
		entryDeliveryId:
			"the delivery ID's own table (where each payload style puts it, a batch entry's included) is read directly, as it was while the ID had a file of its own; through readDelivery every row would need a whole verified delivery",
	},
	'nodes/SupportChat/trigger/detect.ts': {
		hasClosedStatus:
			'every closed status word in every naming style is read directly, as it was while the rule had a file of its own; through detection a word that fails would show only as another event',
	},
	'nodes/SupportChat/trigger/triggerSettings.ts': {
		VERIFICATION_SCHEMES:
			"the property tests draw a scheme from the list itself, so a scheme added to it is drawn too; the editor's options are the description's literals",
	},
	'nodes/SupportChat/shared/vocabulary/envelopes.ts': {
		WEBHOOK_ENVELOPES:
			"the vocabulary's test reads every list of it row by row, so a key added to the list has its row (CONTRIBUTING › How to add a payload style); the product reads the list only through unwrapEventData, beside it",
	},
	'nodes/SupportChat/transport/pagination/collector.ts': {
		Seen: 'what a list has served is read directly, as it was while it had a file of its own: which records and pages count as served before (ids as numbers or digits, whole content for records without one) is its own table; through the collector every row would need a scripted list',
	},
	'nodes/SupportChat/trigger/productWebhook.ts': {
		withKey:
			'the key of the webhook entry is blanked and put back in place, on a copy, whatever else the entry holds: read directly, as it was while the earlier entry had a file of its own; through Set Up Webhook each shape would need a sealed round trip',
	},
	'nodes/SupportChat/apis/rest/wire.ts': {
		refusedInput:
			'which input the REST paths refuse before any request is read directly from its table, as it was while the refusals had a file of their own; through the wire every row would need a call and a client',
	},
	'nodes/SupportChat/files/runs.ts': {
		downloadAttachments:
			"the bounds of one item's files (Max Attachments counted before the first request, the names, the run's share) are read directly, as they were while attaching had a file of its own; through a run's door every case would need an engine run",
		withEventFiles:
			"an event's files attached to its item, and the error it carries when they cannot be, read directly, as while attaching had a file of its own",
	},
	'nodes/SupportChat/poll/poll.ts': {
		readState:
			'the static data written by 0.5.2 must still be read (issue 28): the state is read directly from the shapes each version wrote, as it was while it had a file of its own',
		writeState: 'the round trip of the state through static data, as above',
		inOrder: 'the order in which found events are served, as above',
	},
	'nodes/SupportChat/apis/supportBoard/conversationLife.ts': {
		STATUS_CODES:
			"the Support Board test holds the Status options the node's description offers equal to the product codes the wire knows; a code without an option cannot be found by running Update Status, since the values outside the table are endless",
	},
};

/** The n8n entry points: the classes of the files package.json names, which n8n loads by their file. */
function entryPoints(): Set<string> {
	const { n8n } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	return new Set(
		[...n8n.nodes, ...n8n.credentials].map((built) =>
			built.replace(/^dist\//, '').replace(/\.js$/, '.ts'),
		),
	);
}

type Sources = Map<string, ts.SourceFile>;

const hasExport = (node: ts.Node) =>
	ts.canHaveModifiers(node) &&
	(ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** Each file's exported values (consts, functions, classes, enums, value re-exports), types left out. */
function exportedValues(sources: Sources): Map<string, string[]> {
	const exported = new Map<string, string[]>();
	for (const [file, source] of sources) {
		const names: string[] = [];
		for (const statement of source.statements) {
			if (ts.isVariableStatement(statement) && hasExport(statement)) {
				for (const declaration of statement.declarationList.declarations) {
					if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
				}
			} else if (
				(ts.isFunctionDeclaration(statement) ||
					ts.isClassDeclaration(statement) ||
					ts.isEnumDeclaration(statement)) &&
				hasExport(statement)
			) {
				if (statement.name !== undefined) names.push(statement.name.text);
			} else if (
				ts.isExportDeclaration(statement) &&
				!statement.isTypeOnly &&
				statement.exportClause !== undefined &&
				ts.isNamedExports(statement.exportClause)
			) {
				names.push(
					...statement.exportClause.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text),
				);
			}
		}
		exported.set(file, names);
	}
	return exported;
}

/**
 * Which exported names other files use, by file: named imports and re-exports (type-only ones too: the
 * export is what lets them compile), and through a namespace import (`import * as ns`) `ns.name`, a
 * spread `...ns` (every export), or ns as an entry of a table (`{ getAll, get }`): the names every
 * module of that table exports, since whoever reads the table can read no others. Any other use of a
 * namespace counts as using all it exports.
 */
function usedNames(sources: Sources): Map<string, Set<string>> {
	const exported = exportedValues(sources);
	const used = new Map([...sources.keys()].map((file) => [file, new Set<string>()]));
	const resolveIn = (from: string, specifier: string) => {
		const base = path.resolve(path.dirname(from), specifier);
		return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => sources.has(candidate));
	};
	const useAll = (target: string) =>
		exported.get(target)?.forEach((name) => used.get(target)!.add(name));
	for (const [file, source] of sources) {
		const namespaces = new Map<string, string>();
		for (const statement of source.statements) {
			if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) continue;
			const specifier = statement.moduleSpecifier;
			if (
				specifier === undefined ||
				!ts.isStringLiteral(specifier) ||
				!specifier.text.startsWith('.')
			)
				continue;
			const target = resolveIn(file, specifier.text);
			if (target === undefined) continue;
			const bindings = ts.isImportDeclaration(statement)
				? statement.importClause?.namedBindings
				: statement.exportClause;
			if (bindings === undefined) useAll(target);
			else if (ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, target);
			else if (ts.isNamespaceExport(bindings)) useAll(target);
			else
				for (const element of bindings.elements)
					used.get(target)!.add((element.propertyName ?? element.name).text);
		}
		const tables = new Map<ts.ObjectLiteralExpression, string[]>();
		const visit = (node: ts.Node): void => {
			const target = ts.isIdentifier(node) ? namespaces.get(node.text) : undefined;
			const parent = node.parent;
			if (target !== undefined && !ts.isNamespaceImport(parent)) {
				if (ts.isPropertyAccessExpression(parent) && parent.expression === node)
					used.get(target)!.add(parent.name.text);
				else if (
					(ts.isPropertyAccessExpression(parent) || ts.isPropertyAssignment(parent)) &&
					parent.name === node
				) {
					// a property's own name, not the namespace
				} else if (
					(ts.isShorthandPropertyAssignment(parent) ||
						(ts.isPropertyAssignment(parent) && parent.initializer === node)) &&
					ts.isObjectLiteralExpression(parent.parent)
				) {
					tables.set(parent.parent, [...(tables.get(parent.parent) ?? []), target]);
				} else useAll(target);
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
		for (const members of tables.values()) {
			const [first, ...others] = members.map((member) => exported.get(member) ?? []);
			const common = first.filter((name) => others.every((names) => names.includes(name)));
			for (const member of members) common.forEach((name) => used.get(member)!.add(name));
		}
	}
	return used;
}

/** `file NAME` for every exported value no other file uses. */
function unusedExports(sources: Sources): string[] {
	const used = usedNames(sources);
	return [...exportedValues(sources)].flatMap(([file, names]) =>
		names.filter((name) => !used.get(file)!.has(name)).map((name) => `${named([file])} ${name}`),
	);
}

const parse = (file: string, text: string) =>
	ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
const product: Sources = new Map(
	files.map((file) => [file, parse(file, readFileSync(file, 'utf8'))]),
);

describe('no value exported for tests only', () => {
	const entries = entryPoints();
	const exceptions = Object.entries(TEST_ONLY_EXPORTS).flatMap(([file, names]) =>
		Object.keys(names).map((name) => `${file} ${name}`),
	);
	const unused = unusedExports(product);

	it('reads the exports of the product files and the entry points package.json names', () => {
		expect([...exportedValues(product).values()].flat().length).toBeGreaterThan(200);
		expect(entries.size).toBe(4);
		for (const entry of entries) expect(files.map((file) => named([file]))).toContain(entry);
	});

	it('finds a value no other file uses, through a table of modules or not', () => {
		const at = (name: string) => path.join(ROOT, name);
		const sources: Sources = new Map([
			[
				at('a.ts'),
				parse(
					at('a.ts'),
					'export const run = 1; export const description = 2; export const OPTIONS = 3;',
				),
			],
			[at('b.ts'), parse(at('b.ts'), 'export const run = 1; export const description = 2;')],
			[
				at('c.ts'),
				parse(
					at('c.ts'),
					'export function used() {} export function unused() {} export const spread = 1;',
				),
			],
			[at('d.ts'), parse(at('d.ts'), 'export const spreadToo = 1;')],
			[
				at('index.ts'),
				parse(
					at('index.ts'),
					"import * as a from './a'; import * as b from './b'; import { used } from './c'; import * as d from './d';\nexport const table = { a, bee: b }; export const all = { ...d }; used();",
				),
			],
		]);
		expect(unusedExports(sources)).toEqual([
			'a.ts OPTIONS',
			'c.ts unused',
			'c.ts spread',
			'index.ts table',
			'index.ts all',
		]);
	});

	it('every value nodes/ and credentials/ export is used by another of their files, but the entry points and the exceptions', () => {
		expect(
			unused.filter((entry) => !entries.has(entry.split(' ')[0]) && !exceptions.includes(entry)),
		).toEqual([]);
	});

	it('every exception is still exported, and still used by tests only', () => {
		expect(exceptions.filter((entry) => !unused.includes(entry))).toEqual([]);
	});
});

/**
 * Layers run one way (issue 28, item 1; STYLE habit 22): nodes → features → APIs → transport → shared.
 * A file imports files of its own layer or of a lower one; a fact two layers need lives in the lower.
 * Features may import each other: the circle test above keeps them from reaching back.
 */
const LAYERS: [prefix: string, rank: number][] = [
	['nodes/SupportChat/shared/', 0],
	['nodes/SupportChat/transport/', 1],
	['nodes/SupportChat/apis/', 2],
	['nodes/SupportChat/actions/', 3],
	['nodes/SupportChat/descriptions/', 3],
	['nodes/SupportChat/methods/', 3],
	['nodes/SupportChat/trigger/', 3],
	['nodes/SupportChat/poll/', 3],
	['nodes/SupportChat/files/', 3],
	['credentials/', 4],
];

/** The layer of a file: the node files at the top, then the folders above; undefined for any other. */
function rankOf(file: string): number | undefined {
	if (/^nodes\/SupportChat\/[^/]+\.node\.ts$/.test(file)) return 4;
	return LAYERS.find(([prefix]) => file.startsWith(prefix))?.[1];
}

/**
 * The one arrow allowed to run up: the credentials' header helper, which the credential test (in the
 * transport) calls to send the header n8n's authentication would send.
 */
const UPWARD_EXCEPTIONS = new Set([
	'nodes/SupportChat/methods/credentialTest.ts → credentials/SupportChatApi.credentials.ts',
]);

/** `from → to` for every import into a higher layer (or from or into a file of no layer). */
function upwardArrows(graph: Map<string, string[]>): string[] {
	return [...graph].flatMap(([file, targets]) => {
		const from = named([file]);
		return targets
			.map((target) => named([target]))
			.filter((to) => {
				const [rankFrom, rankTo] = [rankOf(from), rankOf(to)];
				return rankFrom === undefined || rankTo === undefined || rankTo > rankFrom;
			})
			.map((to) => `${from} → ${to}`)
			.filter((arrow) => !UPWARD_EXCEPTIONS.has(arrow));
	});
}

describe('layers run one way', () => {
	it('every file of nodes/ and credentials/ has a layer', () => {
		expect(files.map((file) => named([file])).filter((file) => rankOf(file) === undefined)).toEqual(
			[],
		);
	});

	it('finds an import into a higher layer, and lets one layer import itself and those below', () => {
		const at = (name: string) => path.join(ROOT, name);
		expect(
			upwardArrows(
				new Map([
					[
						at('nodes/SupportChat/transport/request.ts'),
						[
							at('nodes/SupportChat/poll/types.ts'),
							at('nodes/SupportChat/shared/json.ts'),
							at('nodes/SupportChat/transport/retry.ts'),
						],
					],
					[
						at('nodes/SupportChat/poll/poll.ts'),
						[at('nodes/SupportChat/trigger/claims.ts'), at('nodes/SupportChat/apis/index.ts')],
					],
					[at('nodes/SupportChat/apis/index.ts'), [at('nodes/SupportChat/SupportChat.node.ts')]],
				]),
			),
		).toEqual([
			'nodes/SupportChat/transport/request.ts → nodes/SupportChat/poll/types.ts',
			'nodes/SupportChat/apis/index.ts → nodes/SupportChat/SupportChat.node.ts',
		]);
	});

	it('no file imports from a higher layer, the credentials’ header helper aside', () => {
		expect(upwardArrows(graph)).toEqual([]);
	});

	it('the exception is still an import', () => {
		expect(
			[...UPWARD_EXCEPTIONS].filter(
				(arrow) =>
					!graph
						.get(path.join(ROOT, arrow.split(' → ')[0]))
						?.includes(path.join(ROOT, arrow.split(' → ')[1])),
			),
		).toEqual([]);
	});
});
