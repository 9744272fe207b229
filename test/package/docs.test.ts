/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The README, CHANGELOG.md, CONTRIBUTING.md and the docs/ pages hold together: every relative link
 * leads to a file that exists and, with an #anchor, to a heading of that file (GitHub's anchor rule);
 * every "Options → X" they name is an option the nodes have; the retry rule is said in RETRY_RULE's
 * words; and the README stays a page for users, whose test command is the one CI runs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { RETRY_RULE } from '../../nodes/SupportChat/transport/retry';
import { unknownOptions } from '../helpers/options';

const ROOT = path.resolve(__dirname, '../..');
const PAGES = [
	'README.md',
	'CHANGELOG.md',
	'CONTRIBUTING.md',
	...readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];
const MAX_README_LINES = 400;

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The page without its fenced code blocks: what is rendered as text, links and headings. */
function prose(text: string): string {
	let fenced = false;
	return text
		.split('\n')
		.filter((line) => {
			if (line.startsWith('```')) fenced = !fenced;
			else if (!fenced) return true;
			return false;
		})
		.join('\n');
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, each space a hyphen. */
function anchorOf(heading: string): string {
	return heading
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors of a page's headings, a repeated one numbered as GitHub does (`events`, `events-1`). */
function anchorsOf(file: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	for (const line of prose(read(file)).split('\n')) {
		const heading = /^#{1,6} (.+)$/.exec(line);
		if (!heading) continue;
		const base = anchorOf(heading[1]);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

/** The relative links and images of a page (code spans and blocks left out), with an external one skipped. */
function relativeLinks(file: string): string[] {
	const text = prose(read(file)).replace(/`[^`\n]*`/g, '');
	return [...text.matchAll(/\]\(([^()\s]+)\)/g)]
		.map((match) => match[1])
		.filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

function brokenLinks(file: string): string[] {
	return relativeLinks(file).flatMap((target) => {
		const [pathPart, anchor] = target.split('#');
		const resolved =
			pathPart === '' ? file : path.normalize(path.join(path.dirname(file), pathPart));
		if (!existsSync(path.join(ROOT, resolved))) return [`${file}: ${target} (no such file)`];
		if (anchor === undefined) return [];
		if (statSync(path.join(ROOT, resolved)).isDirectory() || !resolved.endsWith('.md'))
			return [`${file}: ${target} (an anchor into a file that is not a page)`];
		return anchorsOf(resolved).has(anchor) ? [] : [`${file}: ${target} (no such heading)`];
	});
}

it('finds the pages', () => {
	expect(PAGES).toEqual(
		expect.arrayContaining([
			'docs/errors-and-limits.md',
			'docs/webhook-trigger.md',
			'docs/poll-trigger.md',
		]),
	);
});

it.each(PAGES)(
	'%s: every relative link leads to a file that exists, and every #anchor to one of its headings',
	(file) => {
		expect(brokenLinks(file)).toEqual([]);
	},
);

it.each(PAGES)('%s: every "Options → X" names an option of the nodes', (file) => {
	expect(unknownOptions(read(file))).toEqual([]);
});

it("says the retry rule only in RETRY_RULE's words", () => {
	const statements = PAGES.flatMap((file) =>
		read(file)
			.split('\n')
			.filter((line) => line.includes('A 429 is retried'))
			.map((line) => ({ file, line })),
	);
	expect(statements.length).toBeGreaterThan(0);
	expect(statements.filter(({ line }) => !line.includes(RETRY_RULE))).toEqual([]);
});

it(`keeps the README short (at most ${MAX_README_LINES} lines), its test command the one CI runs`, () => {
	const readme = read('README.md');
	expect(readme.split('\n').length).toBeLessThanOrEqual(MAX_README_LINES);
	expect(readme).toMatch(/^npm ci && npm test\b/m);
	expect(read('.ci/run')).toMatch(/^npm test$/m);
});

/** Every `.ts` file under a folder of the repository. */
function sources(dir: string): string[] {
	return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const file = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return sources(file);
		return entry.name.endsWith('.ts') ? [file] : [];
	});
}

it("docs/support-board.md's table of every function names exactly the functions the code calls", () => {
	// Every call of the product's Web API names its function first: `fn.write(port, 'add-note', …)`,
	// `client.read('get-new-users', …)`; a channel's function stands in its row (`fn: 'whatsapp-send-message'`).
	const called = new Set(
		[...sources('nodes'), ...sources('credentials')].flatMap((file) =>
			[
				...read(file).matchAll(
					/\b(?:(?:fn|client)\.(?:read|write|repeatable|named)\((?:port, )?|fn: )'([a-z][a-z0-9-]*)'/g,
				),
			].map((match) => match[1]),
		),
	);
	const section = read('docs/support-board.md')
		.split('## Every function the nodes call')[1]
		.split('\n## ')[0];
	const documented = new Set(
		[...section.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) =>
			[...row[1].matchAll(/`([a-z][a-z0-9-]*)`/g)].map((match) => match[1]),
		),
	);
	expect(called.size).toBeGreaterThan(20);
	expect([...documented].sort()).toEqual([...called].sort());
});

describe('the anchor rule', () => {
	it.each([
		['Errors, retries and rate limits', 'errors-retries-and-rate-limits'],
		["n8n's newer rules", 'n8ns-newer-rules'],
		['On n8n 1.x', 'on-n8n-1x'],
		['Both triggers, each event once', 'both-triggers-each-event-once'],
		['Where `readme` lives', 'where-readme-lives'],
	])('%s → #%s', (heading, anchor) => {
		expect(anchorOf(heading)).toBe(anchor);
	});
});
