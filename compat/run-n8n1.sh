#!/usr/bin/env bash
# Runs the engine-level tests and the package-loading test under n8n 1.x (compat/jest.n8n1.config.js).
# The first run installs compat/n8n1 from its lockfile; a marker written after a successful install
# lets later runs skip it, and a changed package.json or lockfile there triggers a clean reinstall.
# Arguments go to jest, e.g. `bash compat/run-n8n1.sh test/engine/trigger.test.ts`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ! -x node_modules/.bin/jest ]]; then
	echo "Install the package's own dependencies first: npm ci" >&2
	exit 1
fi

dir=compat/n8n1
marker="$dir/node_modules/.installed"
stamp=$(node -e '
	const { createHash } = require("node:crypto");
	const { readFileSync } = require("node:fs");
	const hash = createHash("sha256");
	for (const file of process.argv.slice(1)) hash.update(readFileSync(file));
	console.log(hash.digest("hex"));
' "$dir/package.json" "$dir/package-lock.json")

if [[ ! -f "$marker" || "$(cat "$marker")" != "$stamp" ]]; then
	rm -rf "$dir/node_modules"
	# The repository's .npmrc does not reach this directory. Scripts stay off: n8n-core 1.x brings native
	# extras (isolated-vm, ssh2's cpu-features) that the tests never load.
	(cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund)
	echo "$stamp" > "$marker"
fi

# The package-loading test packs dist/, so build it as npm test does.
npm run build
node_modules/.bin/jest -c compat/jest.n8n1.config.js "$@"
