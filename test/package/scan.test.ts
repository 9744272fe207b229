/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * n8n's package scanner, run before publishing instead of after: its ESLint pass (scanner.mjs) over
 * the source and over the tarball npm would publish, with its `no-console` rule and inline
 * `eslint-disable` comments ignored, as the scanner ignores them.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { packAndUnpack, ROOT } from './pack';

interface ScanResult {
	files: number;
	messages: Array<{
		file: string;
		line: number;
		ruleId: string | null;
		severity: number;
		message: string;
	}>;
}

function scan(directory: string, leg: 'source' | 'tarball'): ScanResult {
	// eslint-plugin-n8n-nodes-base reads file names differently when NODE_ENV is 'test', as jest sets it.
	const { NODE_ENV: _jest, ...env } = process.env;
	const output = execFileSync(
		process.execPath,
		[path.join(__dirname, 'scanner.mjs'), directory, leg],
		{
			encoding: 'utf8',
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	return JSON.parse(output) as ScanResult;
}

it('finds nothing in the source: package.json, nodes/ and credentials/', () => {
	const result = scan(ROOT, 'source');
	expect(result.files).toBeGreaterThan(2);
	expect(result.messages).toEqual([]);
});

it('finds nothing in the published tarball: its compiled JavaScript and package.json', () => {
	const unpacked = packAndUnpack();
	try {
		const result = scan(unpacked.dir, 'tarball');
		expect(result.files).toBeGreaterThan(2);
		expect(result.messages).toEqual([]);
	} finally {
		unpacked.remove();
	}
});
