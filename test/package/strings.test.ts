/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Every sentence the nodes show is checked against what the editor shows: an option a text names under
 * "Options → …" exists under that name in the node's Options, and the retry rule is one text, said by
 * the description and docs/errors-and-limits.md alike.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { RETRY_RULE } from '../../nodes/SupportChat/transport/retry';
import { NODES as nodes, unknownOptions } from '../helpers/options';

const ROOT = path.join(__dirname, '..', '..');

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((entry) => {
		const full = path.join(dir, entry);
		return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
	});
}

/** The code lines of the shipped sources, comments left out: what can reach a user. */
const codeLines = [
	...sources(path.join(ROOT, 'nodes')),
	...sources(path.join(ROOT, 'credentials')),
].flatMap((file) =>
	readFileSync(file, 'utf8')
		.split('\n')
		.map((line, index) => ({ where: `${path.relative(ROOT, file)}:${index + 1}`, line }))
		.filter(({ line }) => !/^\s*(?:\/\/|\/?\*)/.test(line)),
);

/** Every text of the descriptions: descriptions, notices, hints, placeholders, option descriptions. */
function texts(properties: readonly unknown[]): string[] {
	return properties.flatMap((property) => {
		if (typeof property !== 'object' || property === null) return [];
		const entry = property as Record<string, unknown>;
		const own = ['displayName', 'description', 'hint', 'placeholder', 'action']
			.map((key) => entry[key])
			.filter((v): v is string => typeof v === 'string');
		const nested = ['options', 'values'].flatMap((key) =>
			Array.isArray(entry[key]) ? texts(entry[key] as unknown[]) : [],
		);
		return [...own, ...nested];
	});
}

it('names option paths only as the editor shows them: Options → <an option of the Options collection>', () => {
	const named = [
		...codeLines.map(({ where, line }) => ({ where, text: line })),
		...nodes.flatMap((node) =>
			texts(node.description.properties).map((text) => ({ where: node.description.name, text })),
		),
	];
	const unknown = named.flatMap(({ where, text }) =>
		unknownOptions(text).map((name) => `${where}: ${name}`),
	);
	expect(unknown).toEqual([]);
	// The editor shows Options as one flat collection: no nested path, and no README a user of n8n does not have.
	const stale = named
		.filter(({ text }) => /Options > |README ›/.test(text))
		.map(({ where }) => where);
	expect(stale).toEqual([]);
});

it('says the retry rule in one text: the Max Attempts option and docs/errors-and-limits.md', () => {
	const maxAttempts = nodes[0].description.properties
		.flatMap((property) =>
			property.name === 'options' ? ((property.options ?? []) as INodeProperties[]) : [],
		)
		.find((option) => option.name === 'maxAttempts');
	expect(maxAttempts?.description).toContain(RETRY_RULE);
	expect(readFileSync(path.join(ROOT, 'docs', 'errors-and-limits.md'), 'utf8')).toContain(
		RETRY_RULE,
	);
});
