#!/usr/bin/env node
// Records in package-lock.json the platform bindings that the registry mirror of our build machines
// does not serve. @n8n/node-cli's lint needs unrs-resolver, whose optional dependencies name one
// binding package per platform; the mirror serves only some Linux ones and answers 404 for the rest,
// so `npm install` leaves them out of the lock, and `npm ci` then refuses the lock as out of sync
// ("Missing: @unrs/resolver-binding-… from lock file"). The entries added here carry the os, cpu and
// libc their names state, so npm skips them on every other platform and fetches the right one there.
// Once recorded, `npm install` keeps them. Run `node scripts/complete-lock.js` when `npm ci` reports
// such a binding missing (after a dependency update brings a new one, or a lock rebuilt from scratch).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const LOCK = path.resolve(__dirname, '..', 'package-lock.json');
/** `@unrs/resolver-binding-<os>-<cpu>[-<abi>]`: what each part of the name says about the platform. */
const BINDING =
	/^@unrs\/resolver-binding-(android|darwin|freebsd|linux|openharmony|win32)-(arm64|arm|x64|ia32|loong64|ppc64|riscv64|s390x)(?:-(gnu|gnueabihf|musl|musleabihf|eabi|msvc))?$/;

const lock = JSON.parse(fs.readFileSync(LOCK, 'utf8'));
let added = 0;
for (const [where, entry] of Object.entries(lock.packages)) {
	for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
		const match = BINDING.exec(name);
		const at = `${where === '' ? '' : `${where}/`}node_modules/${name}`;
		if (!match || lock.packages[at] || lock.packages[`node_modules/${name}`]) continue;
		const [, os, cpu, abi] = match;
		const libc =
			abi === undefined || os !== 'linux' ? undefined : abi.startsWith('musl') ? 'musl' : 'glibc';
		lock.packages[at] = {
			version,
			cpu: [cpu],
			dev: entry.dev === true ? true : undefined,
			...(libc ? { libc: [libc] } : {}),
			license: entry.license,
			optional: true,
			os: [os],
		};
		added++;
	}
}
// npm keeps the packages sorted by path.
lock.packages = Object.fromEntries(
	Object.entries(lock.packages).sort(([a], [b]) =>
		a === '' ? -1 : b === '' ? 1 : a.localeCompare(b),
	),
);
fs.writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lock: ${added} binding entr${added === 1 ? 'y' : 'ies'} added`);
