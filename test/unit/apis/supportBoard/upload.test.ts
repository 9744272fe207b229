import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { uploadFiles } from '../../../../nodes/SupportChat/apis/supportBoard/upload';
import type { RequestSpec } from '../../../../nodes/SupportChat/transport/types';
import type { WirePort } from '../../../../nodes/SupportChat/transport/wire';
import { SecretMask } from '../../../../nodes/SupportChat/shared/secrets';

const node = {
	name: 'Support Chat',
	type: 't',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
/** The credentials' value the port holds; nothing of it may reach the upload. */
const MASKED = ['upload', 'test', 'value', '42'].join('-');
const file = { name: 'a "b".txt', mimeType: 'text/plain', bytes: Buffer.from('hello\r\n--x') };

/** A port whose request answers `body`, or throws `thrown`; what was sent is kept. */
function port(answer: { body?: unknown; thrown?: Error }) {
	const sent: RequestSpec[] = [];
	const p: WirePort = {
		token: MASKED,
		mask: new SecretMask([MASKED]),
		request: async (spec) => {
			sent.push(spec);
			if (answer.thrown) throw answer.thrown;
			return { status: 200, headers: {}, body: answer.body, url: '' };
		},
		resolveUrl: () => 'https://sb.example.com/supportboard/include/api.php',
		refuse: (message) => new NodeOperationError(node, message),
		error: (status, message, extra) =>
			new NodeApiError(
				node,
				{},
				{ message, description: extra.description, httpCode: String(status) },
			),
	};
	return { p, sent };
}

describe("uploadFiles: the product's upload.php", () => {
	it('posts one multipart field "file" to upload.php beside api.php, without the token', async () => {
		const { p, sent } = port({ body: ['success', 'https://sb.example.com/uploads/1_a.txt'] });
		// THE file name rule (shared/fileNames): the header, the message and errors name the file alike.
		expect(await uploadFiles(p, [file])).toEqual([
			['a _b_.txt', 'https://sb.example.com/uploads/1_a.txt'],
		]);
		const [spec] = sent;
		expect(spec.url).toBe('https://sb.example.com/supportboard/include/upload.php');
		expect(spec.method).toBe('POST');
		expect(spec.body).toBeUndefined();
		const text = spec.upload!.bytes.toString();
		const boundary = /boundary=(.+)$/.exec(spec.upload!.contentType)![1];
		expect(text).toBe(
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a _b_.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--x\r\n--${boundary}--\r\n`,
		);
		expect(text).not.toContain(MASKED);
	});

	it.each([
		[
			['success', 'extension_error'],
			'Support Board does not take files like "a _b_.txt" (its type)',
		],
		[['error', 'Error into upload.php file.'], 'Support Board did not take the file "a _b_.txt"'],
		['<html>cloud</html>', 'Support Board did not take the file "a _b_.txt"'],
		[['success', 'javascript:alert(1)'], 'Support Board did not take the file "a _b_.txt"'],
	])('%j is no file address', async (body, message) => {
		const { p } = port({ body });
		await expect(uploadFiles(p, [file])).rejects.toMatchObject({
			message,
			description: expect.stringContaining('Attachment URLs work instead'),
		});
	});

	it.each([
		['a NUL', 'shell.css\u0000.png', 'shell.css_.png'],
		['a right-to-left override', 'report\u202Efdp.css', 'report_fdp.css'],
		['a line separator and a zero width', 'a\u2028b\u200Bc.txt', 'a_b_c.txt'],
		['a path', '../../etc/passwd.txt', 'passwd.txt'],
		['nothing left', '..', 'file'],
	])('%s: the header carries the name cleaned, %j → %j', async (_, name, clean) => {
		const { p, sent } = port({ body: ['success', 'https://sb.example.com/uploads/1_a.txt'] });
		expect(await uploadFiles(p, [{ ...file, name }])).toEqual([
			[clean, 'https://sb.example.com/uploads/1_a.txt'],
		]);
		expect(sent[0].upload!.bytes.toString()).toContain(`filename="${clean}"\r\n`);
	});

	it('a refused request (cloud, a blocked upload.php) says attachment URLs work instead', async () => {
		const { p } = port({
			thrown: new NodeApiError(
				node,
				{},
				{ message: 'The service answered upload.php with 404', httpCode: '404' },
			),
		});
		await expect(uploadFiles(p, [file])).rejects.toMatchObject({
			message:
				'Support Board refused the upload of "a _b_.txt": The service answered upload.php with 404',
			description: expect.stringContaining('Attachment URLs work instead'),
		});
	});
});
