// @ts-check
'use strict';

const os = require('node:os');
const path = require('node:path');

/** The n8n release the end-to-end suite runs against. 2.41.3 does not install from the registry here. */
const N8N_VERSION = '2.41.1';

/** n8n 2.x requires Node >= 24; the repository's own tooling stays on Node 20. */
const NODE_VERSION = '24.21.0';

const PACKAGE_NAME = 'n8n-nodes-support-chat';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Loopback only: the suite never listens on, nor calls, anything else. */
const HOST = '127.0.0.1';

/** Where n8n and its Node are installed: outside the package's node_modules, reused between runs. */
function cacheDir() {
	return (
		process.env.SUPPORT_CHAT_E2E_CACHE ||
		path.join(os.homedir(), '.cache', PACKAGE_NAME, `n8n-${N8N_VERSION}`)
	);
}

const POSTGRES = {
	host: process.env.SUPPORT_CHAT_E2E_PG_HOST || HOST,
	port: Number(process.env.SUPPORT_CHAT_E2E_PG_PORT || 5432),
	user: process.env.SUPPORT_CHAT_E2E_PG_USER || 'postgres',
	password: process.env.SUPPORT_CHAT_E2E_PG_PASSWORD || '',
};

const REDIS = {
	host: process.env.SUPPORT_CHAT_E2E_REDIS_HOST || HOST,
	port: Number(process.env.SUPPORT_CHAT_E2E_REDIS_PORT || 6379),
};

module.exports = { N8N_VERSION, NODE_VERSION, PACKAGE_NAME, REPO_ROOT, HOST, cacheDir, POSTGRES, REDIS };
