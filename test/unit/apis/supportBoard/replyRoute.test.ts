import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { CHANNELS } from '../../../../nodes/SupportChat/apis/supportBoard/channels';
import type { Route } from '../../../../nodes/SupportChat/apis/supportBoard/replyRoute';
import { deliver, routeOf } from '../../../../nodes/SupportChat/apis/supportBoard/replyRoute';
import type { WirePort } from '../../../../nodes/SupportChat/transport/wire';
import { SecretMask } from '../../../../nodes/SupportChat/shared/secrets';

const node = {
	name: 'Support Chat',
	type: 't',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const ADMIN = ['admin', 'token', 'for', 'tests'].join('-');

/** A port whose every call the product answers with `response` inside its envelope. */
function port(response: unknown): WirePort {
	return {
		token: ADMIN,
		mask: new SecretMask([ADMIN]),
		request: async () => ({
			status: 200,
			headers: {},
			body: { success: true, response },
			url: '',
		}),
		resolveUrl: () => 'https://sb.example.com/include/api.php',
		refuse: (message) => new NodeOperationError(node, message),
		error: (status, message, extra) =>
			new NodeApiError(
				node,
				{},
				{ message, description: extra.description, httpCode: String(status) },
			),
	};
}

function route(source: string): Route {
	const channel = CHANNELS.get(source)!;
	return { channel: { ...channel, fn: channel.fn! }, recipient: '+15550001111', extra: 'E' };
}

const out = { message: 'Hi', attachments: [], messageId: '7', conversationId: '9', extra: 'E' };

/** A time as the product writes it (UTC, `Y-m-d H:i:s`), `hoursAgo` before now. */
const productTime = (hoursAgo: number) =>
	new Date(Date.now() - hoursAgo * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

/** The customer (user 3) wrote `hoursAgo` hours ago. */
const wrote = (hoursAgo: number) => [
	{ id: '1', user_id: '3', message: 'Hello', creation_time: productTime(hoursAgo) },
];

async function failure(source: string, response: unknown): Promise<NodeApiError> {
	try {
		await deliver(port(response), route(source), out);
	} catch (error) {
		return error as NodeApiError;
	}
	throw new Error('delivered');
}

/**
 * The channels' tokens are the product's, not the node's: masking by value cannot know them. Where a
 * channel quotes one back (Graph's "Malformed access token …", a Bot API or Graph URL in an error
 * text), the node masks it by its shape before the text reaches the error.
 */
describe("deliver: a channel's token quoted back does not reach the error", () => {
	it.each([
		[
			'wa',
			{ error: { message: 'Malformed access token EAATestbedWhatsAppCloudToken' } },
			'EAATestbedWhatsAppCloudToken',
		],
		[
			'fb',
			[
				'Failed to connect to graph.facebook.com/me/messages?access_token=EAAGpageTokenXYZ1234567890abcdef&x=1',
			],
			'EAAGpageToken',
		],
		[
			'tg',
			{
				ok: false,
				description:
					'Unauthorized: https://api.telegram.org/bot123456789:AAHk-ZlongBotTokenValue_0123456789ab/sendMessage',
			},
			'AAHk-ZlongBotTokenValue',
		],
		['wa', { error: { message: `Invalid token ${ADMIN}` } }, ADMIN],
	])('%s', async (source, response, secret) => {
		const error = await failure(source, response);
		expect(error.message).toMatch(/^The message is stored in Support Board \(message ID 7\)/);
		expect(error.message).toContain('[redacted]');
		expect(error.message).not.toContain(secret);
		expect(String(error.description)).not.toContain(secret);
	});

	it('a text without a token is quoted as it came', async () => {
		const error = await failure('wa', {
			error: { message: '(#131030) Recipient phone number not in allowed list' },
		});
		expect(error.message).toBe(
			'The message is stored in Support Board (message ID 7) but was NOT delivered to WhatsApp: WhatsApp refused it: (#131030) Recipient phone number not in allowed list',
		);
	});
});

describe('deliver: what is sent to the channel', () => {
	it("WhatsApp's recipient is the phone without its +, as the admin area sends it", async () => {
		const sent: unknown[] = [];
		const p = port({ messages: [{ id: 'wamid.1' }] });
		const request = p.request.bind(p);
		p.request = async (spec) => {
			sent.push(spec.body);
			return await request(spec);
		};
		expect(await deliver(p, route('wa'), out)).toEqual({
			channel: 'WhatsApp',
			status: 'delivered',
			channelMessageId: 'wamid.1',
		});
		expect(sent[0]).toMatchObject({
			function: 'whatsapp-send-message',
			to: '15550001111',
			phone_id: 'E',
			message_id: '7',
		});
	});
});

describe('deliver: a 200 without the envelope', () => {
	/** A port whose request throws what the client throws for a 2xx that is a failure, its body kept. */
	function failing(body: string, message: string): WirePort {
		const p = port(null);
		p.request = async () => {
			const error = new NodeApiError(node, {}, { message, httpCode: '200' });
			error.context.responseBody = body;
			throw error;
		};
		return p;
	}

	it("the product's SBError is a refusal before any send", async () => {
		const p = failing(
			'{"status":"error","response":"psid-not-found","message":"User with PSID 1 not found."}',
			'The service reported a failure for messenger-send-message: User with PSID 1 not found.',
		);
		await expect(deliver(p, route('fb'), out)).rejects.toThrow(
			'The message is stored in Support Board (message ID 7) but was NOT delivered to Messenger: The service reported a failure for messenger-send-message: User with PSID 1 not found.',
		);
	});

	it('PHP text printed in place of JSON may come after the send: not known', async () => {
		const p = failing(
			'<b>Notice</b>: Undefined index: waid in functions.php',
			'The service answered whatsapp-send-message with an HTML page instead of JSON',
		);
		await expect(deliver(p, route('wa'), out)).rejects.toThrow(
			'The message is stored in Support Board (message ID 7), but whether WhatsApp received it is not known: The service answered whatsapp-send-message with an HTML page instead of JSON',
		);
	});
});

describe('deliver: a refusal before the function ran', () => {
	it.each([
		['404', 'function-not-found'],
		['400', 'missing-argument'],
		['429', 'rate limited'],
	])('HTTP %s is a delivery that did not happen', async (httpCode, message) => {
		const p = port(null);
		p.request = async () => {
			throw new NodeApiError(node, {}, { message, httpCode });
		};
		await expect(deliver(p, route('tg'), out)).rejects.toThrow(
			`The message is stored in Support Board (message ID 7) but was NOT delivered to Telegram: ${message}`,
		);
	});

	it.each([['502'], ['504'], [undefined]])(
		'HTTP %s (a gateway, or no answer) may come after the send: not known',
		async (httpCode) => {
			const p = port(null);
			p.request = async () => {
				throw new NodeApiError(node, {}, { message: 'no answer', httpCode });
			};
			await expect(deliver(p, route('tg'), out)).rejects.toThrow(
				'The message is stored in Support Board (message ID 7), but whether Telegram received it is not known: no answer',
			);
		},
	);

	it('HTTP 500 after the store is PHP dying inside the function, maybe after sending: not known', async () => {
		// The app answered before the store (routeOf), so this 500 is no missing app.
		const p = port(null);
		p.request = async () => {
			throw new NodeApiError(node, {}, { message: 'empty', httpCode: '500' });
		};
		const error = await deliver(p, route('tg'), out).catch((e: NodeApiError) => e);
		expect(error.message).toBe(
			'The message is stored in Support Board (message ID 7), but whether Telegram received it is not known: Support Board answered telegram-send-message with HTTP 500, as it does when PHP stops inside the function, which may have sent it first',
		);
		expect(error.message).not.toContain('NOT delivered');
	});
});

describe('routeOf: where a reply goes, read before anything is stored', () => {
	/** A product answering each function from `answers`. */
	function reading(answers: Record<string, unknown>): WirePort {
		const p = port(null);
		p.request = async (spec) => ({
			status: 200,
			headers: {},
			body: {
				success: true,
				response: answers[String((spec.body as { function: string }).function)],
			},
			url: '',
		});
		return p;
	}

	it("a WhatsApp conversation goes to its user's phone, through the conversation's phone number ID", async () => {
		const p = reading({
			'get-conversation': {
				messages: wrote(1),
				details: { source: 'wa', extra: '1090', user_id: '3' },
			},
			'get-user-extra': ' +15550001111 ',
		});
		expect(await routeOf(p, '9')).toMatchObject({ recipient: '+15550001111', extra: '1090' });
	});

	it.each([
		['wa', { source: 'wa', extra: '1090', user_id: '3' }, 'no phone for its user'],
		['tg', { source: 'tg', extra: '', user_id: '3' }, 'no channel address on the conversation'],
	])('%s without a recipient is refused before the store', async (_source, details, said) => {
		const p = reading({
			'get-conversation': { messages: wrote(1), details },
			'get-user-extra': false,
		});
		await expect(routeOf(p, '9')).rejects.toThrow(said);
	});

	it('asks the channel function with nothing to send whether its app answers', async () => {
		const bodies: unknown[] = [];
		const p = reading({
			'get-conversation': { details: { source: 'tg', extra: 'chat-1', user_id: '3' } },
			'telegram-send-message': false,
		});
		const request = p.request.bind(p);
		p.request = async (spec) => {
			bodies.push(spec.body);
			return await request(spec);
		};
		expect(await routeOf(p, '9')).toMatchObject({ recipient: 'chat-1' });
		expect(bodies.at(-1)).toMatchObject({
			function: 'telegram-send-message',
			chat_id: 'chat-1',
			message: '',
			attachments: '[]',
		});
	});

	it("the product's SBError to that question (Messenger's missing-arguments) shows the app is there", async () => {
		const p = reading({
			'get-conversation': {
				messages: wrote(1),
				details: { source: 'fb', extra: 'page', user_id: '3' },
			},
			'get-user-extra': 'psid-1',
		});
		const request = p.request.bind(p);
		p.request = async (spec) => {
			if ((spec.body as { function: string }).function !== 'messenger-send-message')
				return await request(spec);
			const error = new NodeApiError(node, {}, { message: 'missing-arguments', httpCode: '200' });
			error.context.responseBody = '{"status":"error","response":"missing-arguments"}';
			throw error;
		};
		expect(await routeOf(p, '9')).toMatchObject({ recipient: 'psid-1', extra: 'page' });
	});

	it('an empty 500 to that question is a missing app: refused before the store', async () => {
		const p = reading({
			'get-conversation': { details: { source: 'tg', extra: 'c', user_id: '3' } },
		});
		const request = p.request.bind(p);
		p.request = async (spec) => {
			if ((spec.body as { function: string }).function !== 'telegram-send-message')
				return await request(spec);
			throw new NodeApiError(node, {}, { message: '', httpCode: '500' });
		};
		await expect(routeOf(p, '9')).rejects.toThrow(
			'Conversation 9 is on Telegram, and Support Board answered telegram-send-message with HTTP 500 when asked to send nothing, as it does when its Telegram app is not installed or not enabled: nothing was stored',
		);
	});

	it('a web chat conversation has no route', async () => {
		const p = reading({ 'get-conversation': { details: { source: '', user_id: '3' } } });
		expect(await routeOf(p, '9')).toBeUndefined();
	});
});

/**
 * Telegram's app sends one attachment per call (it dies on a second, after the first reached the
 * customer): the node makes one call per file, the text with the first, and a call that stops says
 * which files reached the customer, which may not have, and which were never sent.
 */
describe('deliver: a channel whose app sends one file per call', () => {
	const files: Array<[string, string]> = [
		['a.png', 'https://f.example/a.png'],
		['b.pdf', 'https://f.example/b.pdf'],
		['c.pdf', 'https://f.example/c.pdf'],
	];

	/** A port answering each call with the next of `answers`: an answer, or an HTTP status thrown. */
	function scripted(answers: Array<unknown | number>) {
		const sent: Array<Record<string, unknown>> = [];
		const p = port(null);
		p.request = async (spec) => {
			sent.push(spec.body as Record<string, unknown>);
			const next = answers[sent.length - 1];
			if (typeof next === 'number')
				throw new NodeApiError(node, {}, { message: 'empty', httpCode: String(next) });
			return { status: 200, headers: {}, body: { success: true, response: next }, url: '' };
		};
		return { p, sent };
	}
	const ok = (id: number) => ({ ok: true, result: { message_id: id } });
	const refused = {
		ok: false,
		error_code: 403,
		description: 'Forbidden: bot was blocked by the user',
	};

	it('each file is a call of its own, the text with the first; only the first names the stored message', async () => {
		const { p, sent } = scripted([ok(11), ok(12), ok(13)]);
		expect(await deliver(p, route('tg'), { ...out, attachments: files })).toEqual({
			channel: 'Telegram',
			status: 'delivered',
			channelMessageId: '11',
		});
		expect(sent.map((b) => [b.message, b.attachments, b.message_id])).toEqual([
			['Hi', JSON.stringify([files[0]]), '7'],
			['', JSON.stringify([files[1]]), ''],
			['', JSON.stringify([files[2]]), ''],
		]);
	});

	it('refused at the second: the first reached the customer, the rest did not', async () => {
		const { p, sent } = scripted([ok(11), refused]);
		const error = await deliver(p, route('tg'), { ...out, attachments: files }).catch(
			(e: NodeApiError) => e,
		);
		expect(error.message).toBe(
			'The message is stored in Support Board (message ID 7); Telegram received the text with "a.png", but NOT "b.pdf" and "c.pdf": Telegram refused it: Forbidden: bot was blocked by the user',
		);
		expect(sent).toHaveLength(2);
	});

	it('an empty 500 at the first: not known, and the others never sent', async () => {
		const { p, sent } = scripted([500]);
		const error = await deliver(p, route('tg'), {
			...out,
			message: '',
			attachments: files.slice(0, 2),
		}).catch((e: NodeApiError) => e);
		expect(error.message).toBe(
			'The message is stored in Support Board (message ID 7), but whether Telegram received "a.png" is not known: Support Board answered telegram-send-message with HTTP 500, as it does when PHP stops inside the function, which may have sent it first; "b.pdf" NOT sent',
		);
		expect(sent).toHaveLength(1);
	});

	it('refused at the first: NOT delivered, nothing more sent', async () => {
		const { p, sent } = scripted([refused]);
		await expect(deliver(p, route('tg'), { ...out, attachments: files })).rejects.toThrow(
			'The message is stored in Support Board (message ID 7) but was NOT delivered to Telegram: Telegram refused it: Forbidden: bot was blocked by the user',
		);
		expect(sent).toHaveLength(1);
	});

	it('WhatsApp and Messenger send every file in one call, as their apps do', async () => {
		const { p, sent } = scripted([{ messages: [{ id: 'wamid.1' }] }]);
		await deliver(p, route('wa'), { ...out, attachments: files });
		expect(sent).toHaveLength(1);
		expect(sent[0].attachments).toBe(JSON.stringify(files));
	});
});

describe('routeOf: a reply window closed is refused from the conversation read, before anything else', () => {
	/** Each function the node calls, and the product's answer to get-conversation. */
	function reading(conversation: unknown): { port: WirePort; called: string[] } {
		const called: string[] = [];
		const p = port(null);
		p.request = async (spec) => {
			const name = String((spec.body as { function: string }).function);
			called.push(name);
			return {
				status: 200,
				headers: {},
				body: { success: true, response: name === 'get-conversation' ? conversation : 'x' },
				url: '',
			};
		};
		return { port: p, called };
	}

	it.each([
		['wa', 'WhatsApp', "WhatsApp's 24-hour customer service window"],
		['fb', 'Messenger', "Messenger's 24-hour standard messaging window"],
		['ig', 'Instagram', "Instagram's 24-hour standard messaging window"],
	])('%s: the customer wrote 25 hours ago', async (source, name, window) => {
		const messages = wrote(25);
		const { port: p, called } = reading({
			messages: [
				...messages,
				{ id: '2', user_id: '1', message: 'Agent', creation_time: productTime(1) },
			],
			details: { source, extra: 'E', user_id: '3' },
		});
		const at = `${messages[0].creation_time.replace(' ', 'T')}.000Z`;
		await expect(routeOf(p, '9')).rejects.toThrow(
			`Conversation 9 is on ${name}, and its customer last wrote at ${at} (UTC), more than 24 hours ago, so ${window} has closed: nothing was stored; `,
		);
		expect(called).toEqual(['get-conversation']);
	});

	it('a WhatsApp conversation its customer never wrote in', async () => {
		const { port: p } = reading({
			messages: [{ id: '2', user_id: '1', message: 'Agent', creation_time: productTime(1) }],
			details: { source: 'wa', extra: 'E', user_id: '3' },
		});
		await expect(routeOf(p, '9')).rejects.toThrow(
			"Conversation 9 is on WhatsApp, and its customer has never written in it, so WhatsApp's 24-hour customer service window is not open: nothing was stored; send a WhatsApp template (Message → Send Template) instead",
		);
	});

	it('a time the product would not write leaves the judgement to the channel', async () => {
		const { port: p, called } = reading({
			messages: [{ id: '1', user_id: '3', message: 'Hi', creation_time: 'yesterday' }],
			details: { source: 'wa', extra: 'E', user_id: '3' },
		});
		expect(await routeOf(p, '9')).toMatchObject({ recipient: 'x', window: undefined });
		expect(called).toEqual(['get-conversation', 'get-user-extra', 'whatsapp-send-message']);
	});

	it('Telegram has no window: an old conversation is sent to as before', async () => {
		const { port: p } = reading({
			messages: wrote(200),
			details: { source: 'tg', extra: 'chat', user_id: '3' },
		});
		expect(await routeOf(p, '9')).toMatchObject({ recipient: 'chat', window: undefined });
	});
});

describe('deliver: the channel says its window has closed, after the store', () => {
	const closedRoute = (source: string): Route => ({
		...route(source),
		window: {
			channel: CHANNELS.get(source)!.name,
			hours: 24,
			lastCustomerMessageAt: '2026-11-27T10:00:00.000Z',
			endsAt: '2026-11-28T10:00:00.000Z',
			open: true,
		},
	});

	it('WhatsApp 131047: in words, with the stored ID and when the customer last wrote', async () => {
		const error = await deliver(
			port({ error: { message: '(#131047) Re-engagement message', code: 131047 } }),
			closedRoute('wa'),
			out,
		).catch((e: NodeApiError) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).message).toBe(
			"The message is stored in Support Board (message ID 7) but was NOT delivered to WhatsApp: WhatsApp's 24-hour customer service window has closed (the customer last wrote at 2026-11-27T10:00:00.000Z (UTC)): send a WhatsApp template (Message → Send Template) instead. WhatsApp refused it: (#131047) Re-engagement message",
		);
	});

	it('Messenger code 10, subcode 2018278; another code 10 is worded as before', async () => {
		const refused = (subcode: number) => [
			{ error: { message: '(#10) Outside', code: 10, error_subcode: subcode } },
		];
		const window = await deliver(port(refused(2018278)), closedRoute('fb'), out).catch(
			(e: NodeApiError) => e,
		);
		expect((window as NodeApiError).message).toMatch(
			/NOT delivered to Messenger: Messenger's 24-hour standard messaging window has closed \(the customer last wrote at 2026-11-27T10:00:00\.000Z \(UTC\)\): Support Board's Messenger app .*\. Messenger refused it: \(#10\) Outside$/,
		);
		const other = await deliver(port(refused(2018065)), closedRoute('fb'), out).catch(
			(e: NodeApiError) => e,
		);
		expect((other as NodeApiError).message).toMatch(/Messenger refused it: \(#10\) Outside$/);
	});
});
