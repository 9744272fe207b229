// n8n's two rule sets: eslint-plugin-n8n-nodes-base (the long-standing community/nodes/credentials
// rules) and @n8n/eslint-plugin-community-nodes (what n8n's package scanner runs).
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';
import regexpPlugin from 'eslint-plugin-regexp';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const base = { plugins: { 'n8n-nodes-base': n8nNodesBase } };

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'e2e/**', 'sandbox/**', 'scripts/**', '*.js', '*.mjs'] },
	{
		files: ['**/*.ts', '**/*.json'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module', extraFileExtensions: ['.json'] } },
	},
	{ ...n8nCommunityNodesPlugin.configs.recommended, files: ['**/*.ts', '**/*.json'] },
	// The package scanner (@n8n/scan-community-package) adds this rule to the recommended set.
	{ files: ['**/*.ts', '**/*.json'], rules: { 'no-console': 'error' } },
	// Every pattern in node code may meet text from the service or a webhook sender: none may backtrack
	// super-linearly, whether anchored (no-super-linear-backtracking) or scanned along the input
	// (no-super-linear-move, which also catches an unanchored search restarting at every position).
	{
		...regexpPlugin.configs['flat/recommended'],
		files: ['**/*.ts'],
		rules: {
			...regexpPlugin.configs['flat/recommended'].rules,
			'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
			'regexp/no-super-linear-move': ['error', { ignoreSticky: false, ignorePartial: false }],
		},
	},
	{ ...base, files: ['package.json'], rules: n8nNodesBase.configs.community.rules },
	{
		...base,
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// "Only applicable to nodes in the main repository" (the rule's own docs): a community package
			// links its own documentation by URL, which @n8n/community-nodes/credential-documentation-url checks.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		...base,
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Both rules predate NodeConnectionTypes and want the string 'main'; n8n's node starter turns them off,
			// and @n8n/community-nodes/node-connection-type-literal checks the connection types instead.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
];
