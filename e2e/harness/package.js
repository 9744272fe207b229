// @ts-check
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { REPO_ROOT } = require('./constants');
const { cleanEnv } = require('./processes');

/**
 * @typedef {object} PackedPackage
 * @property {string} name
 * @property {string} version
 * @property {string} tarball The `npm pack` tarball.
 * @property {string[]} files Paths inside the tarball (what a user receives).
 */

/**
 * `npm pack` of a package folder (default: this repository): exactly the files a user's n8n receives.
 * No script runs, so the package must have been built (`npm run build`) beforehand.
 * @param {string} destination folder for the tarball
 * @param {string} [packageDir]
 * @returns {PackedPackage}
 */
function packPackage(destination, packageDir = REPO_ROOT) {
	fs.mkdirSync(destination, { recursive: true });
	const output = execFileSync(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', destination, packageDir],
		{
			cwd: destination,
			env: cleanEnv(),
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	/** @type {Array<{ name: string, version: string, filename: string, files: Array<{ path: string }> }>} */
	const [info] = JSON.parse(output);
	const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	const shipped = new Set(info.files.map((file) => file.path));
	/** @type {string[]} */
	const declared = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	const missing = declared.filter((file) => !shipped.has(file));
	if (declared.length === 0 || missing.length > 0) {
		throw new Error(
			`${info.name} does not ship what its "n8n" block declares (missing: ${missing.join(', ') || 'the block'}); ` +
				'run `npm run build` first',
		);
	}
	return {
		name: info.name,
		version: info.version,
		tarball: path.join(destination, info.filename),
		files: [...shipped].sort(),
	};
}

/**
 * Installs a packed community package into an n8n user folder the way n8n's own installer does
 * (CommunityPackagesService.downloadPackage in n8n 2.41): the tarball extracted into
 * `.n8n/nodes/node_modules/<name>`, dev/peer/optional dependencies dropped from its package.json,
 * runtime dependencies installed without scripts, and the package recorded in `.n8n/nodes/package.json`.
 * @param {PackedPackage} packed
 * @param {string} userFolder the N8N_USER_FOLDER
 * @returns {string} the package's folder
 */
function installPackage(packed, userFolder) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const packageDir = path.join(nodesDir, 'node_modules', packed.name);
	fs.mkdirSync(packageDir, { recursive: true });
	execFileSync('tar', ['-xzf', packed.tarball, '-C', packageDir, '--strip-components=1']);

	const packageJsonPath = path.join(packageDir, 'package.json');
	const manifest = JSON.parse(fs.readFileSync(packageJsonPath, 'utf8'));
	delete manifest.devDependencies;
	delete manifest.peerDependencies;
	delete manifest.optionalDependencies;
	fs.writeFileSync(packageJsonPath, JSON.stringify(manifest, null, 2));
	if (Object.keys(manifest.dependencies ?? {}).length > 0) {
		execFileSync(
			'npm',
			[
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
			],
			{ cwd: packageDir, env: cleanEnv(), stdio: 'ignore' },
		);
	}

	const nodesPackageJson = path.join(nodesDir, 'package.json');
	const installed = fs.existsSync(nodesPackageJson)
		? JSON.parse(fs.readFileSync(nodesPackageJson, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	installed.dependencies = { ...installed.dependencies, [packed.name]: packed.version };
	fs.writeFileSync(nodesPackageJson, JSON.stringify(installed, null, 2));
	return packageDir;
}

module.exports = { packPackage, installPackage };
