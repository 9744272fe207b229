/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * CONTRIBUTING.md's map of the code cannot drift (issue 28, item 5): every product file
 * (nodes/**\/*.ts, credentials/**\/*.ts) is named in the map, by its path or by its name in its
 * folder's row (the deepest row whose path holds it), and every file the map names exists. The trigger's
 * tree lists the trigger's files exactly. An operation file (`actions/<resource>/<name>.operation.ts`)
 * and a resource's `index.ts` are named by the actions row's rule, "one file per operation".
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const NODE = 'nodes/SupportChat/';

function filesUnder(dir: string): string[] {
	if (!existsSync(path.join(ROOT, dir))) return [];
	return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = `${dir}${entry.name}`;
		return entry.isDirectory() ? filesUnder(`${relative}/`) : [relative];
	});
}

const product = [...filesUnder('nodes/'), ...filesUnder('credentials/')].filter((file) =>
	file.endsWith('.ts'),
);
const repository = ['nodes/', 'credentials/', 'test/', 'sandbox/', 'scripts/', 'e2e/'].flatMap(
	filesUnder,
);

/** The section "Map of the code", up to the next section of the same level. */
function mapSection(): string {
	const text = readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
	const start = text.indexOf('## Map of the code');
	const end = text.indexOf('\n## ', start + 1);
	return text.slice(start, end === -1 ? undefined : end);
}

interface Row {
	folders: string[];
	text: string;
}

/** A path as the map writes it: from the root, or from nodes/SupportChat/. */
const fromRoot = (token: string) =>
	/^(nodes|credentials|test|sandbox|scripts|e2e|compat|examples)\//.test(token)
		? token
		: `${NODE}${token}`;

/** The table's rows: the paths of the first cell (folders end in `/`, a file names its folder), and the rest. */
function rows(section: string): Row[] {
	return section
		.split('\n')
		.filter((line) => line.startsWith('| `'))
		.map((line) => {
			const cells = line.slice(2, line.endsWith(' |') ? -2 : undefined);
			const first = cells.slice(0, cells.indexOf(' | '));
			const rest = cells.slice(first.length + 3);
			const folders = [...first.matchAll(/`([^`]+)`/g)].map(([, token]) => {
				const full = fromRoot(token);
				return full.endsWith('/') ? full : full.slice(0, full.lastIndexOf('/') + 1);
			});
			return { folders, text: `${first} ${rest}` };
		});
}

/** The fenced trees: each line a name, its folder given by its indentation (two spaces a level). */
function trees(section: string): string[] {
	const named: string[] = [];
	for (const [, block] of section.matchAll(/```\n([\s\S]*?)```/g)) {
		const stack: string[] = [];
		for (const line of block.split('\n').filter((entry) => entry.trim() !== '')) {
			const depth = (line.length - line.trimStart().length) / 2;
			const name = line.trim().split(/\s+/)[0];
			stack.length = depth;
			stack.push(name);
			named.push(stack.join(''));
		}
	}
	return named;
}

/** The file names a piece of the map gives in backticks (not patterns such as `<name>/` or `*.node.ts`). */
const namesIn = (text: string) =>
	[...text.matchAll(/`([^`\s]+\.(?:ts|js|json|md|mjs))`/g)]
		.map(([, token]) => token)
		.filter((token) => !/[<*]/.test(token));

const section = mapSection();
const table = rows(section);
const tree = trees(section);

/** The rows a file belongs to: the deepest ones whose folder holds it. */
function rowsOf(file: string): Row[] {
	const holding = table.flatMap((row) =>
		row.folders.filter((folder) => file.startsWith(folder)).map((folder) => ({ row, folder })),
	);
	const depth = Math.max(-1, ...holding.map(({ folder }) => folder.length));
	return holding.filter(({ folder }) => folder.length === depth).map(({ row }) => row);
}

const OPERATION_RULE = /^nodes\/SupportChat\/actions\/[^/]+\/(?:[^/]+\.operation|index)\.ts$/;

function isNamed(file: string): boolean {
	if (OPERATION_RULE.test(file) || tree.includes(file)) return true;
	const base = file.slice(file.lastIndexOf('/') + 1);
	return rowsOf(file).some((row) =>
		namesIn(row.text).some(
			(name) =>
				name === base ||
				fromRoot(name) === file ||
				row.folders.some((folder) => `${folder}${name}` === file),
		),
	);
}

/** Whether a name the map gives is a file: by its path, from its row's folders, or by its name anywhere. */
function exists(name: string, folders: string[]): boolean {
	if (name.includes('/')) {
		return [fromRoot(name), name, ...folders.map((folder) => `${folder}${name}`)].some((file) =>
			repository.includes(file),
		);
	}
	const under = (folder: string) =>
		repository.some((file) => file.startsWith(folder) && file.endsWith(`/${name}`));
	return folders.some(under) || existsSync(path.join(ROOT, name)) || under('');
}

it('reads the map: its rows, the trigger tree and the product files', () => {
	expect(table.length).toBeGreaterThan(10);
	expect(tree).toContain(`${NODE}trigger/handle.ts`);
	expect(product.length).toBeGreaterThan(100);
});

it('names every product file, by its path or by its name in its folder row', () => {
	expect(product.filter((file) => !isNamed(file))).toEqual([]);
});

it('names only files that exist', () => {
	const missing = [
		...tree.filter((file) => !file.endsWith('/') && !repository.includes(file)),
		...table.flatMap((row) => namesIn(row.text).filter((name) => !exists(name, row.folders))),
	];
	expect(missing).toEqual([]);
});

it("lists the trigger's files exactly in its tree", () => {
	const trigger = product.filter(
		(file) => file.startsWith(`${NODE}trigger/`) || file === `${NODE}SupportChatTrigger.node.ts`,
	);
	expect(tree.filter((file) => !file.endsWith('/')).sort()).toEqual(trigger.sort());
});

it('finds a file the map does not name, and a name that is no file', () => {
	expect(isNamed(`${NODE}trigger/unmapped.ts`)).toBe(false);
	expect(exists('noSuchModule.ts', [`${NODE}transport/`])).toBe(false);
});
