/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The package as npm publishes it: `npm pack` run in the repository, as `npm publish` would run it
 * (same `files`, same .npmrc). Scripts are ignored, so what is packed is the `dist/` the test run built.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

export interface PackageJson {
	name: string;
	version: string;
	license?: string;
	keywords?: string[];
	author?: { name?: string; email?: string } | string;
	repository?: { type?: string; url?: string } | string;
	main?: string;
	files?: string[];
	scripts?: Record<string, string>;
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	bundleDependencies?: string[] | boolean;
	bundledDependencies?: string[] | boolean;
	peerDependencies?: Record<string, string>;
	n8n?: { n8nNodesApiVersion?: number; nodes?: string[]; credentials?: string[] };
}

function npm(args: string[], cwd: string): string {
	return execFileSync('npm', [...args, '--ignore-scripts'], {
		cwd,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
}

/** The paths the tarball would hold (relative, `/`-separated, sorted), from `npm pack --dry-run`. */
export function packedFiles(): string[] {
	const [result] = JSON.parse(npm(['pack', '--dry-run', '--json'], ROOT)) as Array<{
		files: Array<{ path: string }>;
	}>;
	return result.files.map((file) => file.path).sort();
}

/**
 * Packs the tarball and unpacks it under `.tmp/` (inside the repository, so the unpacked package
 * resolves its peer `n8n-workflow` from the repository's node_modules, as an install in n8n does from
 * n8n's). Returns the package directory; `remove()` deletes it.
 */
export function packAndUnpack(): { dir: string; remove: () => void } {
	const parent = path.join(ROOT, '.tmp');
	mkdirSync(parent, { recursive: true });
	const work = mkdtempSync(path.join(parent, 'package-test-'));
	npm(['pack', '--pack-destination', work], ROOT);
	const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
	if (tarball === undefined) throw new Error(`npm pack wrote no tarball to ${work}`);
	execFileSync('tar', ['-xzf', tarball], { cwd: work });
	return {
		dir: path.join(work, 'package'),
		remove: () => rmSync(work, { recursive: true, force: true }),
	};
}
