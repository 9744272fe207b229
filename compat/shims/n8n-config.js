/**
 * `@n8n/config` of n8n 1.x, plus the one class the engine harness (test/helpers/engine.ts) and
 * harness.test.ts import that 1.x does not have: `SsrfProtectionConfig`. SSRF protection for HTTP
 * helpers arrived in n8n 2.x; under 1.x every address is reachable, so allowing the loopback sandbox or
 * switching the protection on has nothing to act on. The stand-in only gives those settings a place
 * to be written; n8n-core 1.x never reads it.
 */
const path = require('node:path');

const { Service } = require(path.join(__dirname, '..', 'n8n1', 'node_modules', '@n8n', 'di'));
// The absolute path skips moduleNameMapper, which would send '@n8n/config' back to this file.
const config = require(path.join(__dirname, '..', 'n8n1', 'node_modules', '@n8n', 'config'));

if ('SsrfProtectionConfig' in config) {
	module.exports = config;
} else {
	class SsrfProtectionConfig {
		enabled = false;
		allowedIpRanges = [];
		blockedIpRanges = [];
		allowedHostnames = [];
	}
	Service()(SsrfProtectionConfig);
	module.exports = { ...config, SsrfProtectionConfig };
}
