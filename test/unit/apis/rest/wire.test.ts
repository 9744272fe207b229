import type { Calls } from '../../../../nodes/SupportChat/transport/calls';
import { refusedInput } from '../../../../nodes/SupportChat/apis/rest/wire';

const send = (more: Partial<Calls['sendMessage']>): Calls['sendMessage'] => ({
	conversationId: '1',
	message: 'Hi',
	type: 'agent',
	extra: {},
	files: [],
	attachmentUrls: [],
	deliver: true,
	...more,
});

describe('refusedInput: what the REST paths have no field for', () => {
	it.each([
		['no attachment', send({}), undefined],
		['Deliver to Channel, which REST ignores', send({ deliver: false }), undefined],
		[
			'a file from binary data',
			send({ files: [{ name: 'a.txt', mimeType: 'text/plain', bytes: Buffer.from('a') }] }),
			/no request to upload a file, nor a field for attachments/,
		],
		[
			'an attachment URL',
			send({ attachmentUrls: [{ name: 'a.pdf', url: 'https://example.com/a.pdf' }] }),
			/no field for a message's attachments.*Extra Body Fields/,
		],
	])('%s', (_name, args, expected) => {
		const refused = refusedInput('sendMessage', args);
		if (expected === undefined) expect(refused).toBeUndefined();
		else expect(refused).toMatch(expected);
	});

	it('leaves every other call alone', () => {
		expect(refusedInput('getUser', { id: '1' })).toBeUndefined();
	});
});
