// @ts-check
'use strict';

const os = require('node:os');
const path = require('node:path');

/** The n8n release the end-to-end suite runs against. 2.41.3 does not install from the registry here. */
const N8N_VERSION = '2.41.1';

/** n8n 2.x requires Node >= 24; the repository's own tooling stays on Node 20. */
const NODE_VERSION = '24.21.0';

/**
 * The n8n release lines the suite can run, each installed into a cache folder of its own.
 * - 2.x: the default, n8n 2.41.1 under Node 24 from Node's platform package.
 * - 1.x: the last 1.x release, under the Node that runs the suite (n8n 1.123 wants >= 20.19, <= 24.x).
 * `node: undefined` means the system's Node; `cacheEnv` names the variable that overrides the folder.
 * @typedef {'2.x' | '1.x'} N8nLine
 * @type {Record<N8nLine, { n8n: string, node: string | undefined, cacheEnv: string }>}
 */
const N8N_LINES = {
	'2.x': { n8n: N8N_VERSION, node: NODE_VERSION, cacheEnv: 'SUPPORT_CHAT_E2E_CACHE' },
	'1.x': { n8n: '1.123.81', node: undefined, cacheEnv: 'SUPPORT_CHAT_E2E_CACHE_N8N1' },
};

const PACKAGE_NAME = 'n8n-nodes-support-chat';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Loopback only: the suite never listens on, nor calls, anything else. */
const HOST = '127.0.0.1';

/**
 * Where a line's n8n (and its Node) is installed: outside the package's node_modules, reused between runs.
 * @param {N8nLine} [line]
 */
function cacheDir(line = '2.x') {
	const { n8n, cacheEnv } = N8N_LINES[line];
	return process.env[cacheEnv] || path.join(os.homedir(), '.cache', PACKAGE_NAME, `n8n-${n8n}`);
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

module.exports = {
	N8N_VERSION,
	NODE_VERSION,
	N8N_LINES,
	PACKAGE_NAME,
	REPO_ROOT,
	HOST,
	cacheDir,
	POSTGRES,
	REDIS,
};
