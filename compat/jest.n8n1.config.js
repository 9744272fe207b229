/**
 * The engine-level tests (test/engine) and the package-loading test again, under n8n 1.x: n8n-core,
 * n8n-workflow and the @n8n packages the harness imports resolve to the copies installed in
 * compat/n8n1 (run-n8n1.sh installs them), for the tests, the harness and our sources alike, since
 * moduleNameMapper applies to every module. Types stay those of the 2.x build; only what runs is 1.x.
 */
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const n8n1 = path.join(__dirname, 'n8n1', 'node_modules');

module.exports = {
	rootDir: root,
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	// The engine-level tests, and the packed package loaded by n8n-core's own package loader.
	testMatch: ['<rootDir>/test/engine/**/*.test.ts', '<rootDir>/test/package/load.test.ts'],
	// SSRF protection arrived in n8n 2.x: under 1.x there is no refusal for the node to explain.
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/engine/ssrf.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
	},
	moduleNameMapper: {
		// n8n 1.x has no SsrfProtectionConfig, which the harness configures: see shims/n8n-config.js.
		'^@n8n/config$': '<rootDir>/compat/shims/n8n-config.js',
		'^(n8n-core|n8n-workflow|@n8n/di|@n8n/config)(/.*)?$': `${n8n1}/$1$2`,
	},
	setupFilesAfterEnv: ['<rootDir>/compat/n8n1.setup.js'],
	testTimeout: 30000,
};
