/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * The published tarball, unpacked, loads the way n8n loads an installed community package: through
 * n8n-core's own `PackageDirectoryLoader`, which reads the `n8n` block of package.json, instantiates
 * each class, resolves its icons and reads its codex file. Runs under n8n 2.x here and under n8n 1.x
 * through compat/jest.n8n1.config.js.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { PackageDirectoryLoader } from 'n8n-core';
import type { INodeTypeDescription, Themed } from 'n8n-workflow';

import { packAndUnpack } from './pack';

let unpacked: ReturnType<typeof packAndUnpack>;
let loader: PackageDirectoryLoader;

beforeAll(async () => {
	unpacked = packAndUnpack();
	loader = new PackageDirectoryLoader(unpacked.dir);
	await loader.loadAll();
});

afterAll(() => {
	unpacked?.remove();
});

/** n8n serves `icons/<package>/<path>` from the package directory: the file must be there. */
function expectIconFiles(iconUrl: Themed<string> | undefined): void {
	expect(iconUrl).toEqual({ light: expect.any(String), dark: expect.any(String) });
	const { light, dark } = iconUrl as { light: string; dark: string };
	for (const url of [light, dark]) {
		const prefix = `icons/${loader.packageName}/`;
		expect(url.startsWith(prefix)).toBe(true);
		expect(existsSync(path.join(unpacked.dir, url.slice(prefix.length)))).toBe(true);
	}
}

it('registers the nodes and the credential type under the package name', () => {
	expect(loader.packageName).toBe('n8n-nodes-support-chat');
	expect(Object.keys(loader.nodeTypes).sort()).toEqual([
		'supportChat',
		'supportChatPollTrigger',
		'supportChatTrigger',
	]);
	expect(Object.keys(loader.credentialTypes)).toEqual(['supportChatApi']);
	expect(loader.known.credentials.supportChatApi.supportedNodes).toEqual(
		expect.arrayContaining(['supportChat', 'supportChatPollTrigger', 'supportChatTrigger']),
	);
});

it('resolves every icon to a file in the package and reads every codex file', () => {
	for (const description of loader.types.nodes as INodeTypeDescription[]) {
		expectIconFiles(description.iconUrl);
		expect(description.codex).toMatchObject({
			categories: ['Communication'],
			// n8n-core's loader copies `alias` from a community package's codex file; the node panel searches it.
			alias: ['Support Board', 'board.support', 'live chat', 'helpdesk', 'customer support'],
			resources: { primaryDocumentation: [{ url: expect.stringMatching(/^https:\/\//) }] },
		});
	}
	for (const credential of loader.types.credentials) expectIconFiles(credential.iconUrl);
});
