/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
import fc from 'fast-check';

import { MAX_NAME_LENGTH, normaliseEventName } from '../../../nodes/SupportChat/trigger/aliases';

describe('normaliseEventName', () => {
	test.each([
		['conversation.created', ['conversation', 'create']],
		['conversation_created', ['conversation', 'create']],
		['CONVERSATION_CREATED', ['conversation', 'create']],
		['new-conversation', ['new', 'conversation']],
		['New Conversation', ['new', 'conversation']],
		['NewConversation', ['new', 'conversation']],
		['newConversation', ['new', 'conversation']],
		['conversations.create', ['conversation', 'create']],
		['message-sent', ['message', 'send']],
		['message:send', ['message', 'send']],
		['conversation-status-updated', ['conversation', 'update']],
		['new-email-address', ['new', 'email']],
		['LeadCapture', ['lead', 'capture']],
		['user.tagged', ['user', 'tag', 'apply']],
		['submitted', ['submit']],
		['chat_stopped', ['chat', 'stop']],
		['on.message.created.event', ['message', 'create']],
		['v2.message.created', ['message', 'create']],
		['', []],
		['...', []],
	])('%s → %j', (name, words) => {
		expect(normaliseEventName(name)).toEqual(words);
	});
});

describe('class 3: untrusted text is cut before anything that is not linear (issue 8)', () => {
	test('names up to the limit are read as before', () => {
		const name = `message.created.${'x'.repeat(MAX_NAME_LENGTH - 'message.created.'.length)}`;
		expect(name).toHaveLength(MAX_NAME_LENGTH);
		expect(normaliseEventName(name)).toEqual([
			'message',
			'create',
			'x'.repeat(MAX_NAME_LENGTH - 16),
		]);
	});

	/** The splitting rules as they were written with regular expressions, for short names only. */
	function splitByRegex(name: string): string[] {
		const spaced = name
			.replace(/([\da-z])([A-Z])/g, '$1 $2')
			// eslint-disable-next-line regexp/no-super-linear-move -- the old rule, run here on short text only
			.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
			.toLowerCase();
		return spaced.split(/[^\da-z]+/).filter((word) => word !== '');
	}

	test('the one-pass splitter splits as the regular expressions did', () => {
		const alphabet = fc.constantFrom(...'aAbBzZ09._- XyHTMLParserv2'.split(''));
		fc.assert(
			fc.property(
				fc.array(alphabet, { maxLength: 40 }).map((chars) => chars.join('')),
				(name) => {
					// The old rules' words, joined by spaces, are split back into exactly those words (lower-case
					// letters and digits split only at the spaces), so both sides differ only in the splitting.
					expect(normaliseEventName(name)).toEqual(
						normaliseEventName(splitByRegex(name).join(' ')),
					);
				},
			),
			{ numRuns: 3000 },
		);
		expect(normaliseEventName('HTMLParserCreated')).toEqual(['html', 'parser', 'create']);
		expect(normaliseEventName('ABCMessageSent')).toEqual(['abc', 'message', 'send']);
	});
});
