// @ts-check
'use strict';

const { POSTGRES, REDIS } = require('./constants');

/*
 * PostgreSQL and Redis are reached with n8n's own clients (pg, ioredis) loaded from its install, so the
 * repository needs no database client of its own.
 */

/** @typedef {import('./install').N8nInstall} N8nInstall */

/** @param {string} name */
function identifier(name) {
	if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe database name ${name}`);
	return `"${name}"`;
}

/**
 * @param {N8nInstall} install
 * @param {string} sql
 * @returns {Promise<Array<Record<string, unknown>>>}
 */
async function adminQuery(install, sql) {
	const { Client } = install.require('pg');
	const client = new Client({ ...POSTGRES, database: 'postgres', connectionTimeoutMillis: 5_000 });
	await client.connect();
	try {
		return (await client.query(sql)).rows;
	} finally {
		await client.end();
	}
}

/** @param {N8nInstall} install @param {string} name */
async function createDatabase(install, name) {
	await adminQuery(install, `CREATE DATABASE ${identifier(name)}`);
}

/**
 * A query on a run's own database (what n8n stored), with `$1`… parameters.
 * @param {N8nInstall} install
 * @param {string} database
 * @param {string} sql
 * @param {unknown[]} [params]
 * @returns {Promise<Array<Record<string, unknown>>>}
 */
async function databaseQuery(install, database, sql, params = []) {
	const { Client } = install.require('pg');
	const client = new Client({ ...POSTGRES, database, connectionTimeoutMillis: 5_000 });
	await client.connect();
	try {
		return (await client.query(sql, params)).rows;
	} finally {
		await client.end();
	}
}

/** @param {N8nInstall} install @param {string} name */
async function dropDatabase(install, name) {
	await adminQuery(install, `DROP DATABASE IF EXISTS ${identifier(name)} WITH (FORCE)`);
}

/**
 * Drops the databases of earlier runs that were kept for a look (a failed run keeps its database) and
 * are older than `maxAgeMs`. Names are `<prefix><Date.now() in base 36, 8 digits><random>`.
 * @param {N8nInstall} install
 * @param {string} prefix
 * @param {number} maxAgeMs
 * @returns {Promise<string[]>} the databases dropped
 */
async function dropStaleDatabases(install, prefix, maxAgeMs) {
	const rows = await adminQuery(install, 'SELECT datname FROM pg_database');
	const stale = rows
		.map((row) => String(row.datname))
		.filter((name) => name.startsWith(prefix))
		.filter((name) => {
			const createdAt = parseInt(name.slice(prefix.length, prefix.length + 8), 36);
			return Number.isFinite(createdAt) && Date.now() - createdAt > maxAgeMs;
		});
	for (const name of stale) await dropDatabase(install, name);
	return stale;
}

/**
 * Deletes the Redis keys of one run (bull's queue, the cache, pub/sub leftovers): all start with `prefix:`.
 * @param {N8nInstall} install
 * @param {string} prefix
 * @returns {Promise<number>} keys deleted
 */
async function deleteRedisKeys(install, prefix) {
	const ioredis = install.require('ioredis');
	const Redis = ioredis.default ?? ioredis;
	const redis = new Redis({ ...REDIS, maxRetriesPerRequest: 2, connectTimeout: 5_000 });
	let deleted = 0;
	try {
		let cursor = '0';
		do {
			const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
			cursor = next;
			if (keys.length > 0) deleted += await redis.del(...keys);
		} while (cursor !== '0');
		await redis.quit();
	} catch (error) {
		redis.disconnect();
		throw error;
	}
	return deleted;
}

module.exports = {
	createDatabase,
	databaseQuery,
	dropDatabase,
	dropStaleDatabases,
	deleteRedisKeys,
};
