// @ts-check
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const { HOST } = require('./constants');

/**
 * @typedef {object} ManagedProcess
 * @property {string} name main, worker1…, webhook
 * @property {number} pid The group's leader and id: watchdog.js, whose child is the command.
 * @property {import('node:child_process').ChildProcess} child
 * @property {string} logFile
 * @property {Promise<number | string | null>} exited
 * @property {() => boolean} isRunning
 * @property {() => number | string | null} exitStatus Exit code, signal name or spawn error once exited; null while running.
 */

/**
 * Environment for a child: drops the `npm_*` variables a parent `npm run` exports (npm_config_ignore_scripts
 * and the like would change how a nested npm behaves), NODE_OPTIONS, jest's JEST_* and NODE_ENV (n8n
 * under NODE_ENV=test refuses to load nodes and exits without a word), and any N8N_* of the caller's
 * shell (each instance sets its own).
 * @param {Record<string, string | undefined>} [extra] undefined removes a variable
 * @returns {NodeJS.ProcessEnv}
 */
function cleanEnv(extra = {}) {
	/** @type {NodeJS.ProcessEnv} */
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^(npm_|N8N_|JEST_)/i.test(key) || key === 'NODE_OPTIONS' || key === 'NODE_ENV') continue;
		env[key] = value;
	}
	for (const [key, value] of Object.entries(extra)) {
		if (value === undefined) delete env[key];
		else env[key] = value;
	}
	return env;
}

/** Process groups started here and not yet stopped. */
const live = new Set();

/** @param {import('node:child_process').ChildProcess} child @param {NodeJS.Signals} signal */
function killGroup(child, signal) {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// ESRCH: the group is gone.
	}
}

// A run that exits without stopping its instances (an uncaught error, jest's forced exit) must not leave
// n8n processes behind. A run killed by a signal runs no handler: watchdog.js covers that case.
process.on('exit', () => {
	for (const child of live) killGroup(child, 'SIGKILL');
});

const WATCHDOG = path.join(__dirname, 'watchdog.js');

/**
 * Spawns `command` in a new process group, under watchdog.js, which ends the group if this process dies.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} options
 * @param {number} fd log file for stdout and stderr
 */
function spawnGroup(command, args, options, fd) {
	const child = spawn(process.execPath, [WATCHDOG, String(process.pid), command, ...args], {
		...options,
		stdio: ['ignore', fd, fd],
		detached: true,
	});
	live.add(child);
	return child;
}

/**
 * Runs a command to completion in its own process group, output appended to `logFile`; rejects with
 * the log's tail on a non-zero exit or a timeout.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions & { logFile: string, timeoutMs?: number }} options
 */
async function run(command, args, options) {
	const { logFile, timeoutMs = 30 * 60_000, ...spawnOptions } = options;
	const line = `${command} ${args.join(' ')}`;
	const fd = fs.openSync(logFile, 'a');
	fs.writeSync(fd, `\n$ ${line}\n`);
	try {
		const child = spawnGroup(command, args, spawnOptions, fd);
		const code = await new Promise((resolve, reject) => {
			const timer = setTimeout(() => {
				killGroup(child, 'SIGKILL');
				reject(new Error(`${line} timed out after ${timeoutMs} ms\n${tail(logFile)}`));
			}, timeoutMs);
			child.on('error', (error) => {
				clearTimeout(timer);
				live.delete(child);
				reject(error);
			});
			child.on('exit', (exitCode, signal) => {
				clearTimeout(timer);
				live.delete(child);
				resolve(exitCode ?? signal);
			});
		});
		if (code !== 0) throw new Error(`${line} exited with ${code}\n${tail(logFile)}`);
	} finally {
		fs.closeSync(fd);
	}
}

/**
 * Starts a long-running process in its own process group (so that stopping it also stops the task
 * runners n8n spawns), stdout and stderr appended to `logFile`.
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions & { logFile: string }} options
 * @returns {ManagedProcess}
 */
function startProcess(name, command, args, options) {
	const { logFile, ...spawnOptions } = options;
	const fd = fs.openSync(logFile, 'a');
	const child = spawnGroup(command, args, spawnOptions, fd);
	fs.closeSync(fd);
	let running = true;
	/** @type {number | string | null} */
	let exitStatus = null;
	/** @type {Promise<number | string | null>} */
	const exited = new Promise((resolve) => {
		child.on('exit', (code, signal) => {
			running = false;
			exitStatus = code ?? signal;
			resolve(exitStatus);
		});
		child.on('error', (error) => {
			running = false;
			exitStatus = error.message;
			resolve(exitStatus);
		});
	});
	return {
		name,
		pid: child.pid ?? -1,
		child,
		logFile,
		exited,
		isRunning: () => running,
		exitStatus: () => exitStatus,
	};
}

/**
 * SIGTERM to the process's group, SIGKILL after `graceMs`; then SIGKILL to what is left of the group
 * (a task runner may outlive its parent). Only ever groups started by this module.
 * @param {ManagedProcess} proc
 * @param {number} [graceMs]
 */
async function stopProcess(proc, graceMs = 15_000) {
	if (proc.isRunning()) {
		killGroup(proc.child, 'SIGTERM');
		const timer = setTimeout(() => killGroup(proc.child, 'SIGKILL'), graceMs);
		await proc.exited;
		clearTimeout(timer);
	}
	killGroup(proc.child, 'SIGKILL');
	live.delete(proc.child);
}

/**
 * The last lines of a log file, for failure messages.
 * @param {string} file
 * @param {number} [lines]
 */
function tail(file, lines = 60) {
	let text;
	try {
		text = fs.readFileSync(file, 'utf8');
	} catch {
		return `(no log at ${file})`;
	}
	const all = text.trimEnd().split('\n');
	return `--- last ${Math.min(lines, all.length)} lines of ${file} ---\n${all.slice(-lines).join('\n')}`;
}

/** @returns {Promise<number>} a port that was free a moment ago on the loopback address */
async function freePort() {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, HOST, () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/**
 * Distinct free ports (the kernel may hand out a just-closed port again).
 * @param {number} count
 */
async function freePorts(count) {
	const ports = new Set();
	while (ports.size < count) ports.add(await freePort());
	return [...ports];
}

/** @param {number} ms */
const sleep = async (ms) => await new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `url` until it answers 200; fails early when `proc` exits, and on timeout, with the log's tail.
 * @param {string} url
 * @param {ManagedProcess} proc
 * @param {number} timeoutMs
 * @returns {Promise<number>} milliseconds waited
 */
async function waitForHttpOk(url, proc, timeoutMs) {
	const start = Date.now();
	while (Date.now() - start < timeoutMs) {
		if (!proc.isRunning()) {
			throw new Error(
				`${proc.name} exited (${proc.exitStatus()}) before ${url} was ready\n${tail(proc.logFile)}`,
			);
		}
		try {
			const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
			await response.arrayBuffer();
			if (response.status === 200) return Date.now() - start;
		} catch {
			// Not listening yet.
		}
		await sleep(200);
	}
	throw new Error(`${proc.name}: ${url} not ready after ${timeoutMs} ms\n${tail(proc.logFile)}`);
}

module.exports = {
	cleanEnv,
	run,
	startProcess,
	stopProcess,
	tail,
	freePort,
	freePorts,
	sleep,
	waitForHttpOk,
};
