'use strict';

const { execFileSync } = require('node:child_process');
const path = require('node:path');

const { ensureN8n } = require('./harness');

/**
 * Once per run: build the package (what gets packed and installed into n8n) and make sure n8n is
 * installed in the cache. SUPPORT_CHAT_E2E_BUILD=0 skips the build (CI that has just built).
 */
module.exports = async function globalSetup() {
	const started = Date.now();
	if (process.env.SUPPORT_CHAT_E2E_BUILD !== '0' && !process.env.SUPPORT_CHAT_E2E_PACKAGE_DIR) {
		execFileSync('npm', ['run', 'build'], {
			cwd: path.resolve(__dirname, '..'),
			stdio: ['ignore', 'inherit', 'inherit'],
		});
	}
	await ensureN8n();
	process.stderr.write(
		`[e2e] global set-up done in ${Math.round((Date.now() - started) / 1000)} s\n`,
	);
};
