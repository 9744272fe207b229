/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * What n8n's verification guidelines and its package scanner check in a published package, checked
 * before publishing: the manifest, and the exact contents of the tarball `npm publish` would upload.
 * https://docs.n8n.io/integrations/creating-nodes/deploy/submit-community-nodes/
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { ICredentialType, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { PackageJson } from './pack';
import { packedFiles, ROOT } from './pack';

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;
const nodePaths = manifest.n8n?.nodes ?? [];
const credentialPaths = manifest.n8n?.credentials ?? [];

/** Files below `dir` (relative to the repository, `/`-separated). */
function walk(dir: string): string[] {
	return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = `${dir}/${entry.name}`;
		return entry.isDirectory() ? walk(relative) : [relative];
	});
}

/**
 * What the build makes of the sources and n8n loads: each TypeScript file compiled to `.js`, and the
 * icons and codex files the gulp task copies beside the compiled nodes.
 */
function expectedDistFiles(): string[] {
	return ['nodes', 'credentials'].flatMap(walk).flatMap((file) => {
		if (file.endsWith('.ts') && !file.endsWith('.d.ts'))
			return [`dist/${file.replace(/\.ts$/, '.js')}`];
		if (/\.(svg|png)$/.test(file) || (file.startsWith('nodes/') && file.endsWith('.json')))
			return [`dist/${file}`];
		return [];
	});
}

/** The class a node or credentials file of the package exports, named as n8n expects: after the file. */
function loadClass<T>(file: string): T {
	const className = path.basename(file).split('.')[0];
	const exported = require(path.join(ROOT, file)) as Record<string, new () => T>;
	if (typeof exported[className] !== 'function') {
		throw new Error(`${file} does not export a class named ${className}`);
	}
	return new exported[className]();
}

/** The icon files a description names (`file:` icons, resolved from the file that declares them). */
function iconFiles(
	icon: INodeTypeDescription['icon'] | ICredentialType['icon'],
	declaredIn: string,
): string[] {
	if (icon === undefined) return [];
	const values = typeof icon === 'string' ? [icon] : [icon.light, icon.dark];
	return values
		.filter((value) => value.startsWith('file:'))
		.map((value) => path.posix.join(path.posix.dirname(declaredIn), value.slice('file:'.length)));
}

describe('the tarball npm publishes', () => {
	let files: string[];

	beforeAll(() => {
		files = packedFiles();
	});

	it('holds the manifest, README, license and the compiled nodes, credentials, icons and codex files, nothing else', () => {
		const expected = ['LICENSE', 'README.md', 'package.json', ...expectedDistFiles()].sort();
		expect(files).toEqual(expected);
	});

	it('holds no source maps, declarations, sources, tests, sandbox or tooling', () => {
		const stray = files.filter(
			(file) =>
				/\.(map|d\.ts|ts|tgz)$/.test(file) ||
				/^(sandbox|test|scripts|e2e|compat|examples|node_modules|\.tmp|\.ci|\.github)\//.test(file),
		);
		expect(stray).toEqual([]);
	});

	it('holds every file package.json registers with n8n, with its codex file', () => {
		expect(nodePaths.length).toBeGreaterThan(0);
		expect(credentialPaths.length).toBeGreaterThan(0);
		for (const file of [...nodePaths, ...credentialPaths]) expect(files).toContain(file);
		for (const file of nodePaths) expect(files).toContain(`${file}on`);
	});

	it('holds the icons every node and credential type names', () => {
		const types: Array<[string, INodeTypeDescription['icon'] | ICredentialType['icon']]> = [
			...nodePaths.map((file): [string, INodeTypeDescription['icon']] => [
				file,
				loadClass<INodeType>(file).description.icon,
			]),
			...credentialPaths.map((file): [string, ICredentialType['icon']] => [
				file,
				loadClass<ICredentialType>(file).icon,
			]),
		];
		for (const [file, icon] of types) {
			const icons = iconFiles(icon, file);
			expect(icons).not.toEqual([]);
			for (const iconFile of icons) expect(files).toContain(iconFile);
		}
	});

	it('registers every node and credentials file the build produces', () => {
		const built = files.filter((file) => /\.(node|credentials)\.js$/.test(file));
		expect([...nodePaths, ...credentialPaths].sort()).toEqual(built.sort());
	});
});

describe('package.json', () => {
	it('is named, licensed and tagged as a community node package', () => {
		expect(manifest.name).toMatch(/^(@[a-z0-9-~][a-z0-9-._~]*\/)?n8n-nodes-[a-z0-9-._~]+$/);
		expect(manifest.license).toBe('MIT');
		expect(manifest.keywords).toContain('n8n-community-node-package');
		expect(manifest.n8n?.n8nNodesApiVersion).toBe(1);
	});

	it('names its author and repository', () => {
		expect(manifest.author).toEqual({
			name: expect.any(String),
			email: expect.stringMatching(/@/),
		});
		expect(manifest.repository).toEqual({
			type: 'git',
			url: expect.stringMatching(/^git\+https:\/\/github\.com\//),
		});
	});

	it('ships only dist', () => {
		expect(
			manifest.files?.every((pattern) => pattern === 'dist' || pattern.startsWith('dist/')),
		).toBe(true);
	});

	it('has no runtime dependencies: n8n-workflow is a peer, provided by n8n', () => {
		expect(manifest.dependencies ?? {}).toEqual({});
		expect(manifest.optionalDependencies ?? {}).toEqual({});
		expect(manifest.bundleDependencies ?? manifest.bundledDependencies ?? []).toEqual([]);
		expect(Object.keys(manifest.peerDependencies ?? {})).toEqual(['n8n-workflow']);
	});

	it('runs nothing on install', () => {
		const scripts = Object.keys(manifest.scripts ?? {});
		expect(
			scripts.filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name)),
		).toEqual([]);
	});

	it('comes with the MIT license text', () => {
		expect(readFileSync(path.join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\b/);
	});
});

describe('the built classes', () => {
	it('load from dist and are the node and credential types n8n registers', () => {
		for (const file of [...nodePaths, ...credentialPaths]) {
			expect(existsSync(path.join(ROOT, file))).toBe(true);
		}
		const nodes = nodePaths.map((file) => loadClass<INodeType>(file).description.name);
		const credentials = credentialPaths.map((file) => loadClass<ICredentialType>(file).name);

		expect(nodes.sort()).toEqual(['supportChat', 'supportChatPollTrigger', 'supportChatTrigger']);
		expect(credentials).toEqual(['supportChatApi']);
	});
});
