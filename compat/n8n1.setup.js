/**
 * Runs before each test file under compat/jest.n8n1.config.js.
 */
const { Container } = require('@n8n/di');
const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager');

// The mapping must hold for the tests, the harness and our sources alike; fail loudly if it does not.
for (const name of ['n8n-core', 'n8n-workflow']) {
	const { version } = require(`${name}/package.json`);
	if (!version.startsWith('1.'))
		throw new Error(`${name} ${version} resolved where n8n 1.x was expected`);
}

// n8n-core 1.x starts SSHClientsManager's one-minute cleanup interval without `unref()` (2.x unrefs
// it), so after the first node execution jest would never exit. Stop it as n8n does on shutdown.
afterAll(() => {
	Container.get(SSHClientsManager).onShutdown();
});
