/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * npm run walks: the paths of issue 28, measured as the product files whose code runs (and the lines
 * of product code that run), with the product's file count and its casts.
 *
 * Each path runs in a child process of its own, inside n8n's real engine (test/helpers/engine.ts)
 * against the sandbox, under V8's precise coverage (node:inspector, call counts, block detail):
 *  1. every module is loaded and the path runs once to warm up (lazily loaded modules, n8n's own
 *     first-time work), then the coverage is taken and thrown away, which resets V8's counters;
 *  2. the path runs again (its preparation, such as a poll's first poll, is taken and thrown away too),
 *     and the coverage taken after it counts.
 * A file counts when a function in it other than the module's own top level ran: code that ran only
 * at module loading is left out. Lines count the lines of the .ts source (through the source maps
 * compiled beside the .js, else the .js lines) holding code whose innermost block ran, outside top
 * levels. Files are nodes/** and credentials/** of the compiled tree, named by their .ts paths.
 *
 * Usage: npm run walks [-- --json] [-- --files] (--files lists each path's files, with the lines and
 * the functions that ran in each).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { Session } from 'node:inspector';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Profiler } from 'node:inspector';
import type { IDataObject, INode, INodeType } from 'n8n-workflow';

/** The compiled tree's root (.tmp/tools) and the repository's. */
const TREE = path.resolve(__dirname, '..');
const REPO = path.resolve(TREE, '../..');

interface PathRun {
	/** The path's name as issue 28 writes it. */
	name: string;
	files: string[];
	lines: number;
	/** Per file, the lines run and the functions that ran (by name, `(anonymous)` for the unnamed). */
	perFile: Record<string, { lines: number; functions: string[] }>;
	/** What the measured run did, to check that it walked the path it names. */
	check: string;
}

// ---------------------------------------------------------------- coverage

const session = new Session();
const post = <T>(method: string, params?: object) =>
	new Promise<T>((resolve, reject) =>
		session.post(method, params ?? {}, (error, result) =>
			error ? reject(error) : resolve(result as T),
		),
	);

async function startCoverage(): Promise<void> {
	session.connect();
	await post('Profiler.enable');
	await post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
}

const takeCoverage = async () =>
	(await post<Profiler.TakePreciseCoverageReturnType>('Profiler.takePreciseCoverage')).result;

/** The product file a script is, as its .ts path, or undefined. */
function productFile(url: string): string | undefined {
	if (!url.startsWith('file:')) return undefined;
	const rel = path.relative(TREE, fileURLToPath(url)).split(path.sep).join('/');
	if (!/^(nodes|credentials)\/.*\.js$/.test(rel)) return undefined;
	return rel.replace(/\.js$/, '.ts');
}

/** The .ts lines a script's run code stands on: outside its top level, where the innermost block ran. */
function linesRun(file: string, script: Profiler.ScriptCoverage): Set<number> {
	const jsPath = path.join(TREE, file.replace(/\.ts$/, '.js'));
	const text = readFileSync(jsPath, 'utf8');
	const counts = new Uint32Array(text.length);
	// Functions come in source order and each one's ranges outer first: painting them in order leaves
	// each character the count of the innermost range around it. The top level (offset 0) is not painted.
	const functions = script.functions
		.filter((fn) => !isTopLevel(fn))
		.sort((a, b) => a.ranges[0].startOffset - b.ranges[0].startOffset);
	for (const fn of functions)
		for (const range of fn.ranges)
			counts.fill(range.count, range.startOffset, Math.min(range.endOffset, text.length));
	const map = existsSync(`${jsPath}.map`)
		? new SourceMap(JSON.parse(readFileSync(`${jsPath}.map`, 'utf8')))
		: undefined;
	const lines = new Set<number>();
	let offset = 0;
	text.split('\n').forEach((line, index) => {
		for (let column = 0; column < line.length; column++) {
			if (/\s/.test(line[column]) || counts[offset + column] === 0) continue;
			if (!map) {
				lines.add(index);
				break;
			}
			const entry = map.findEntry(index, column) as { originalLine?: number };
			if (typeof entry.originalLine === 'number') lines.add(entry.originalLine);
		}
		offset += line.length + 1;
	});
	return lines;
}

const isTopLevel = (fn: Profiler.FunctionCoverage) =>
	fn.functionName === '' && fn.ranges[0].startOffset === 0;

function measured(
	coverage: Profiler.ScriptCoverage[],
): Pick<PathRun, 'files' | 'lines' | 'perFile'> {
	const files: string[] = [];
	const perFile: PathRun['perFile'] = {};
	let lines = 0;
	for (const script of coverage) {
		const file = productFile(script.url);
		if (file === undefined) continue;
		const ran = script.functions.filter((fn) => !isTopLevel(fn) && fn.ranges[0].count > 0);
		if (ran.length === 0) continue;
		files.push(file);
		const count = linesRun(file, script).size;
		lines += count;
		perFile[file] = {
			lines: count,
			functions: [...new Set(ran.map((fn) => fn.functionName || '(anonymous)'))].sort(),
		};
	}
	return { files: files.sort(), lines, perFile };
}

// ---------------------------------------------------------------- the paths

/** One path: `prepare` runs before the counted part and is not counted; `walk` is counted. */
interface Walk {
	name: string;
	setUp(): Promise<void>;
	prepare(round: number): Promise<void>;
	walk(round: number): Promise<string>;
	tearDown(): Promise<void>;
}

function walks(): Record<string, () => Walk> {
	// Loaded here, after the coverage started, so that every product function is counted from its start.
	const { startSandbox } = require('../sandbox') as typeof import('../sandbox');
	const { openBoard } = require('../test/helpers/board') as typeof import('../test/helpers/board');
	const engine = require('../test/helpers/engine') as typeof import('../test/helpers/engine');
	const { SupportChatApi } =
		require('../credentials/SupportChatApi.credentials') as typeof import('../credentials/SupportChatApi.credentials');
	const { SupportChat } =
		require('../nodes/SupportChat/SupportChat.node') as typeof import('../nodes/SupportChat/SupportChat.node');
	const { SupportChatTrigger } =
		require('../nodes/SupportChat/SupportChatTrigger.node') as typeof import('../nodes/SupportChat/SupportChatTrigger.node');
	const { SupportChatPollTrigger } =
		require('../nodes/SupportChat/SupportChatPollTrigger.node') as typeof import('../nodes/SupportChat/SupportChatPollTrigger.node');
	const ACTION = 'n8n-nodes-support-chat.supportChat';
	const TRIGGER = 'n8n-nodes-support-chat.supportChatTrigger';
	const POLL = 'n8n-nodes-support-chat.supportChatPollTrigger';
	const KEY = 'walks-webhook-key-7c1d';
	// The node and credential types are made once, as n8n makes them when it loads the package: their
	// constructors are loading, not any path's work.
	const credentialType = new SupportChatApi();
	const action = new SupportChat();
	const credentialsOf = (data: IDataObject) => ({
		types: [credentialType],
		data: { supportChatApi: data },
	});
	type Board = Awaited<ReturnType<typeof openBoard>>;
	let board: Board;

	return {
		delivery: () => {
			const trigger = new SupportChatTrigger();
			const node: INode = {
				id: '9c0e7a00-0000-4000-8000-000000000001',
				name: 'Support Chat Trigger',
				type: TRIGGER,
				typeVersion: 1,
				position: [0, 0],
				webhookId: '9c0e7a00-0000-4000-8000-0000000000aa',
				parameters: { events: ['messageCreated'], verification: 'bodyField', keyField: 'key' },
				credentials: { supportChatApi: { id: 'sb', name: 'Support Board' } },
			};
			return {
				name: "A Support Board delivery of a visitor's message → the trigger's item (Download Attachments off)",
				async setUp() {
					board = await openBoard({ seed: { users: 4, conversations: 2 } });
				},
				async prepare() {},
				async walk(round) {
					// A message-sent delivery as Support Board 3.8.7 posts it (test/engine/trigger.supportBoard.test.ts).
					const result = await engine.callWebhook({
						node,
						nodeType: trigger,
						credentials: credentialsOf({ ...board.credentials, webhookSecret: KEY }),
						request: {
							headers: { 'content-type': 'application/json' },
							body: JSON.stringify({
								function: 'message-sent',
								key: KEY,
								data: {
									user_id: 6,
									message_id: 100 + round,
									message: 'Hello, I need help',
									attachments: [],
									conversation_user_id: '6',
									conversation_id: String(4 + round),
									conversation_status_code: 2,
									conversation_source: '',
								},
								'sender-url': 'https://shop.example.test/help',
							}),
						},
						workflowId: `walks-${round}`,
					});
					const items = result.response.workflowData?.[0] ?? [];
					return `HTTP ${result.status}, ${items.length} item(s): ${items.map((i) => i.json.event).join(', ')}`;
				},
				tearDown: async () => await board.close(),
			};
		},
		send: () => {
			let conversationId = '';
			return {
				name: 'Message → Send on Support Board, plain web chat (no channel)',
				async setUp() {
					board = await openBoard({ seed: { users: 4, conversations: 2 } });
					const started = await board.visitorStarts({
						email: 'vera@example.com',
						firstName: 'Vera',
						message: 'Hello from the web chat',
					});
					conversationId = started.conversationId;
				},
				async prepare() {
					board.sandbox?.clearLog();
				},
				async walk() {
					const run = await engine.runNode({
						node: {
							name: 'Support Chat',
							type: ACTION,
							parameters: {
								resource: 'message',
								operation: 'send',
								messageType: 'agent',
								conversationId: { __rl: true, mode: 'id', value: conversationId },
								message: 'An answer from n8n',
							},
						},
						nodeTypes: { [ACTION]: action },
						credentials: credentialsOf({ ...board.credentials }),
					});
					if (run.status !== 'success') throw new Error(JSON.stringify(run.error()));
					const calls = board.sandbox?.requests.map((r) => r.function).join(', ');
					return `${run.output('Support Chat').length} item(s); Web API calls: ${calls}`;
				},
				tearDown: async () => await board.close(),
			};
		},
		users: () => {
			let sandbox: Awaited<ReturnType<typeof startSandbox>>;
			const TOKEN = 'walks-rest-token-2b8e';
			return {
				name: 'REST User → Get Many, Return All (2 pages)',
				async setUp() {
					sandbox = await startSandbox({
						token: TOKEN,
						pagination: 'page',
						pageSize: 10,
						seed: { users: 15, conversations: 0 },
					});
				},
				async prepare() {
					sandbox.clearLog();
				},
				async walk() {
					const run = await engine.runNode({
						node: {
							name: 'Support Chat',
							type: ACTION,
							parameters: {
								resource: 'user',
								operation: 'getAll',
								returnAll: true,
								options: { pageSize: 10 },
							},
						},
						nodeTypes: { [ACTION]: action },
						credentials: credentialsOf({ baseUrl: sandbox.origin, apiToken: TOKEN }),
					});
					if (run.status !== 'success') throw new Error(JSON.stringify(run.error()));
					const calls = sandbox.requests.map((r) => `${r.method} ${r.path}`).join(', ');
					return `${run.output('Support Chat').length} item(s); requests: ${calls}`;
				},
				tearDown: async () => await sandbox.close(),
			};
		},
		poll: () => {
			const trigger = new SupportChatPollTrigger() as INodeType;
			let staticData: IDataObject = {};
			let visitor = { userId: '', conversationId: '' };
			const poll = async (workflowId: string) => {
				const result = await engine.callPoll({
					node: { type: POLL, parameters: { events: ['messageCreated'], options: {} } },
					nodeType: trigger,
					credentials: credentialsOf({ ...board.credentials }),
					staticData,
					workflowId,
				});
				if (result.error) throw result.error;
				staticData = result.staticData;
				return result.items ?? [];
			};
			return {
				name: 'One Support Board poll, one new message',
				async setUp() {
					board = await openBoard({ seed: { users: 4, conversations: 2 } });
					visitor = await board.visitorStarts({
						email: 'vera@example.com',
						firstName: 'Vera',
						message: 'Opened before publishing',
					});
				},
				async prepare(round) {
					// A workflow of its own each round: its first poll sets its marks, then the visitor writes.
					staticData = {};
					await poll(`walks-poll-${round}`);
					await board.visitorSays(visitor.userId, visitor.conversationId, `New words ${round}`);
				},
				async walk(round) {
					const items = await poll(`walks-poll-${round}`);
					return `${items.length} item(s): ${items.map((i) => i.json.event).join(', ')}`;
				},
				tearDown: async () => await board.close(),
			};
		},
	};
}

const PATHS = ['delivery', 'send', 'users', 'poll'];

/** In the child: the path named, warmed up, then counted. Prints one JSON line. */
async function child(key: string): Promise<void> {
	await startCoverage();
	const walk = walks()[key]();
	await walk.setUp();
	await walk.prepare(0);
	await walk.walk(0);
	await walk.prepare(1);
	await takeCoverage();
	const check = await walk.walk(1);
	const { files, lines, perFile } = measured(await takeCoverage());
	await walk.tearDown();
	const result: PathRun = { name: walk.name, files, lines, perFile, check };
	process.stdout.write(`${JSON.stringify(result)}\n`);
}

// ---------------------------------------------------------------- files and casts

function productFiles(): string[] {
	const out: string[] = [];
	const visit = (dir: string) => {
		for (const entry of readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
			const rel = `${dir}/${entry.name}`;
			if (entry.isDirectory()) visit(rel);
			else if (entry.name.endsWith('.ts')) out.push(rel);
		}
	};
	visit('nodes');
	visit('credentials');
	return out.sort();
}

interface Casts {
	/** `x as T`, `as const` aside. */
	as: number;
	/** Of those, the second `as` of `x as unknown as T`. */
	doubleAs: number;
	/** `<T>x`. */
	angle: number;
	/** `x!`. */
	nonNull: number;
	/** `as const`, not counted among the casts. */
	asConst: number;
}

function countCasts(files: string[]): Casts {
	const ts = require('typescript') as typeof import('typescript');
	const casts: Casts = { as: 0, doubleAs: 0, angle: 0, nonNull: 0, asConst: 0 };
	for (const file of files) {
		const source = ts.createSourceFile(
			file,
			readFileSync(path.join(REPO, file), 'utf8'),
			ts.ScriptTarget.Latest,
			true,
		);
		const visit = (node: import('typescript').Node) => {
			if (ts.isAsExpression(node)) {
				const type = node.type;
				if (
					ts.isTypeReferenceNode(type) &&
					ts.isIdentifier(type.typeName) &&
					type.typeName.text === 'const'
				)
					casts.asConst++;
				else {
					casts.as++;
					if (ts.isAsExpression(node.expression)) casts.doubleAs++;
				}
			} else if (ts.isTypeAssertionExpression(node)) casts.angle++;
			else if (ts.isNonNullExpression(node)) casts.nonNull++;
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return casts;
}

// ---------------------------------------------------------------- the table

function main(): void {
	const json = process.argv.includes('--json');
	const list = process.argv.includes('--files');
	const runs: PathRun[] = PATHS.map((key) => {
		const out = execFileSync(process.execPath, [__filename, '--path', key], {
			encoding: 'utf8',
			env: { ...process.env, N8N_LOG_LEVEL: 'silent' },
			maxBuffer: 1 << 24,
		});
		return JSON.parse(out.trim().split('\n').pop() ?? '') as PathRun;
	});
	const files = productFiles();
	const casts = countCasts(files);
	if (json) {
		console.log(JSON.stringify({ paths: runs, productFiles: files.length, casts }, null, 2));
		return;
	}
	const width = Math.max(...runs.map((run) => run.name.length));
	console.log(`${'Path'.padEnd(width)}  Files run  Lines run`);
	for (const run of runs)
		console.log(
			`${run.name.padEnd(width)}  ${String(run.files.length).padStart(9)}  ${String(run.lines).padStart(9)}`,
		);
	console.log(`\nProduct files (nodes/**/*.ts, credentials/**/*.ts): ${files.length}`);
	console.log(
		`Casts other than \`as const\`: ${casts.as + casts.angle + casts.nonNull} (\`as T\` ${casts.as}, of them ${casts.doubleAs} the second \`as\` of a double cast; \`<T>x\` ${casts.angle}; non-null \`!\` ${casts.nonNull}); \`as const\` ${casts.asConst}`,
	);
	console.log('\nWhat each measured run did:');
	for (const run of runs) console.log(`  ${run.name}: ${run.check}`);
	if (list)
		for (const run of runs) {
			console.log(`\n${run.name}:`);
			for (const file of run.files) {
				const { lines, functions } = run.perFile[file];
				console.log(`  ${file}  ${lines} lines: ${functions.join(', ')}`);
			}
		}
}

const pathAt = process.argv.indexOf('--path');
if (pathAt >= 0)
	child(process.argv[pathAt + 1]).catch((error) => {
		console.error(error);
		process.exit(1);
	});
else main();
