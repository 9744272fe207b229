/** Unit and engine-level tests. The end-to-end suite against a real n8n has its own config in e2e/. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 30000,
	// Coverage of the shipped code, so a refactor cannot quietly lower it. Branches measured at 89.3% on
	// 0.2.0 and 90.2% with the guard tests; each threshold sits about a point below, because retry and timing
	// paths may take a different branch from one run to the next.
	collectCoverage: true,
	collectCoverageFrom: ['nodes/**/*.ts', 'credentials/**/*.ts'],
	coverageReporters: ['text-summary'],
	coverageThreshold: { global: { branches: 89, statements: 96, functions: 97, lines: 98 } },
};
