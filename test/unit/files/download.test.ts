import { downloadFile } from '../../../nodes/SupportChat/files/download';
import type { FileSource } from '../../../nodes/SupportChat/files/download';

const MASKED = 'home-token-0123456789abcdef';

/** The Base URL's origin, whose request fails with an error quoting a secret past the 200th character. */
const source = (fail: 'send' | 'read'): FileSource => ({
	baseUrl: 'https://chat.example.com/script/include/api.php',
	allowHttp: false,
	mask: (text) => text.split(MASKED).join('[redacted]'),
	sendWithCredentials: async () => {
		const message = `${'x'.repeat(190)} ${MASKED} after`;
		if (fail === 'send') throw new Error(message);
		const body = {
			on(event: string, listener: (error: Error) => void) {
				if (event === 'error') queueMicrotask(() => listener(new Error(message)));
			},
			off: () => undefined,
			destroy: () => undefined,
		};
		return { statusCode: 200, headers: {}, body };
	},
});

const rules = { maxBytes: 1024, timeoutMs: 10_000, otherHosts: false };
const helpers = { httpRequest: async () => ({}) };

it.each(['send', 'read'] as const)(
	'a failure on the Base URL quotes its error masked, then cut: no part of a secret across the cut (%s)',
	async (fail) => {
		const error = await downloadFile(
			helpers,
			source(fail),
			'https://chat.example.com/script/uploads/a.png',
			rules,
		).catch((caught: Error) => caught);
		expect(error).toBeInstanceOf(Error);
		const { message } = error as Error;
		for (let i = 0; i + 6 <= MASKED.length; i++)
			expect(message).not.toContain(MASKED.slice(i, i + 6));
	},
);
