// @ts-check
'use strict';

/*
 * Usage: node watchdog.js <ownerPid> <command> [args...]
 *
 * Runs the command as its child inside the process group the harness created for it, and ends the
 * group when the owner (the test process) is gone: a test runner killed by a signal runs no clean-up of
 * its own, and the n8n processes it started live in groups of their own, out of the terminal's reach.
 * A signal sent to the group reaches the command directly; the watchdog only stays to pass on its exit.
 */

const { spawn } = require('node:child_process');
const os = require('node:os');

const [ownerPid, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: 'inherit' });

for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP']))
	process.on(signal, () => {});

/** @param {NodeJS.Signals} signal */
const signalGroup = (signal) => {
	try {
		process.kill(-process.pid, signal);
	} catch {
		// The group is gone.
	}
};

let orphaned = false;
const timer = setInterval(() => {
	try {
		process.kill(Number(ownerPid), 0);
	} catch {
		if (orphaned) return;
		orphaned = true;
		signalGroup('SIGTERM');
		setTimeout(() => signalGroup('SIGKILL'), 15_000);
	}
}, 1_000);

child.on('error', (error) => {
	process.stderr.write(`watchdog: cannot start ${command}: ${error.message}\n`);
	process.exit(127);
});
child.on('exit', (code, signal) => {
	clearInterval(timer);
	process.exit(code ?? 128 + (signal ? os.constants.signals[signal] : 0));
});
