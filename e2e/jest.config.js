/**
 * End-to-end suite: a real n8n (installed once into ~/.cache, see harness/install.js) with the built
 * package installed as a community package. Slow by nature: one file at a time, long timeouts.
 * Run: npx jest -c e2e/jest.config.js
 */
module.exports = {
	rootDir: '..',
	roots: ['<rootDir>/e2e/tests'],
	testMatch: ['**/*.e2e.test.ts'],
	testEnvironment: '<rootDir>/e2e/environment.js',
	globalSetup: '<rootDir>/e2e/global-setup.js',
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	// Each file starts its own n8n (about 600 MB and a core while it starts): never two at once.
	maxWorkers: 1,
	testTimeout: 5 * 60_000,
	slowTestThreshold: 60,
};
