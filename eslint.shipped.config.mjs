// The second lint pass of `npm run lint`, over what the package ships (nodes/, credentials/, package.json),
// run with --no-inline-config as n8n's package scanner runs: an `eslint-disable` comment silences
// `n8n-node lint`, never this pass. It starts from the node CLI's default config (eslint.config.mjs must stay
// exactly that default in strict mode) and adds the checks the default cannot express:
// - the codex files (*.node.json) under @n8n/community-nodes, as the scanner reads them;
// - eslint-plugin-regexp: every pattern in node code may meet text from the service or a webhook sender,
//   so none may backtrack super-linearly, whether anchored (no-super-linear-backtracking) or scanned along
//   the input (no-super-linear-move, which also catches an unanchored search restarting at every position).
// The default config already has the scanner's `no-console` for every .ts file.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { config } from '@n8n/node-cli/eslint';
import tsParser from '@typescript-eslint/parser';
import regexpPlugin from 'eslint-plugin-regexp';

const regexpRecommended = regexpPlugin.configs['flat/recommended'];

export default [
	...config,
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['nodes/**/*.json', 'credentials/**/*.json'],
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
	},
	{
		...regexpRecommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		rules: {
			...regexpRecommended.rules,
			'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
			'regexp/no-super-linear-move': ['error', { ignoreSticky: false, ignorePartial: false }],
		},
	},
];
