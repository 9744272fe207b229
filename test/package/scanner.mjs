/**
 * The ESLint pass of n8n's package scanner (@n8n/scan-community-package 0.32.0, scanner/scanner.mjs:
 * `buildScanConfig`, `analyzePackage`), run locally. The scanner lints twice: the source at the commit
 * the npm provenance names (package.json and nodes/, credentials/ .js/.ts/.json files), and the
 * published tarball (its .js files and package.json). Inline `eslint-disable` comments are ignored.
 *
 * Usage: node test/package/scanner.mjs <directory> source|tarball
 * Prints JSON: { files: <number linted>, messages: [{ file, line, ruleId, severity, message }] }.
 * ESM-only plugins are the reason this is a script and not part of a jest test.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';
import { ESLint } from 'eslint';
import { defineConfig } from 'eslint/config';
import n8nNodesPlugin from 'eslint-plugin-n8n-nodes-base';

const scanConfig = defineConfig(
	n8nCommunityNodesPlugin.configs.recommended,
	{ rules: { 'no-console': 'error' } },
	{ plugins: { 'n8n-nodes-base': n8nNodesPlugin } },
	{ files: ['package.json'], rules: { ...n8nNodesPlugin.configs.community.rules } },
	{
		files: ['**/credentials/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['**/nodes/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{ files: ['**/*.json'], languageOptions: { parser: tsParser } },
	{ files: ['**/*.ts'], languageOptions: { parser: tsParser } },
);

function walk(dir, keep) {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(file, keep);
		return keep(file) ? [file] : [];
	});
}

const [directory, leg] = process.argv.slice(2);
const root = path.resolve(directory);
const files =
	leg === 'source'
		? [
				path.join(root, 'package.json'),
				...['nodes', 'credentials'].flatMap((dir) =>
					walk(path.join(root, dir), (file) => /\.(js|ts|json)$/.test(file)),
				),
			]
		: leg === 'tarball'
			? [path.join(root, 'package.json'), ...walk(root, (file) => file.endsWith('.js'))]
			: undefined;
if (files === undefined) {
	process.stderr.write('Usage: node test/package/scanner.mjs <directory> source|tarball\n');
	process.exit(2);
}

const eslint = new ESLint({
	cwd: root,
	allowInlineConfig: false,
	overrideConfigFile: true,
	overrideConfig: scanConfig,
});
const results = await eslint.lintFiles(files);
const messages = results.flatMap((result) =>
	result.messages.map(({ line, ruleId, severity, message }) => ({
		file: path.relative(root, result.filePath),
		line,
		ruleId,
		severity,
		message,
	})),
);
process.stdout.write(`${JSON.stringify({ files: files.length, messages })}\n`);
