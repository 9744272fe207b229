/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * "A Support Board" for engine tests: the sandbox's Support Board mode, or the real product's test bed
 * (Support Board 3.8.7 on this machine, /work/shared/supportboard/README.md) when
 * SUPPORT_CHAT_TESTBED names its state file (`/tmp/sb/run/env.json`, written by its setup.sh).
 *
 * The same calls drive both: the Web API (`POST {install}/include/api.php`, `function`, the admin `token`)
 * for what an admin or the node does, and for what a visitor does, the sandbox's visitor levers or, on the
 * test bed, the product's ajax endpoint called the way its chat widget calls it (`include/ajax.php`,
 * `function=ajax_calls`, a jQuery.param form with the visitor's `login-cookie`), so that the product fires
 * the webhooks it fires for a real visitor (`new-conversation-created`, `message-sent`, …).
 *
 * The test bed is shared and never emptied: a test must not assume it starts empty, nor any id; it reads
 * back what it made (ids are only known to grow). `reset()` empties the sandbox and does nothing there.
 * Nothing here reads the test bed's files when SUPPORT_CHAT_TESTBED is unset.
 */
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';

/** The state file of the real product's test bed; unset: the sandbox. */
export const TESTBED_ENV = process.env.SUPPORT_CHAT_TESTBED ?? '';
export const onTestbed = TESTBED_ENV !== '';

export interface BoardCredentials {
	api: 'supportBoard';
	baseUrl: string;
	apiToken: string;
}

export interface VisitorStarted {
	userId: string;
	conversationId: string;
	messageId: string;
}

export interface Board {
	readonly target: 'sandbox' | 'testbed';
	/** What the node's credentials hold (`supportChatApi`). */
	readonly credentials: BoardCredentials;
	/** The install's Web API endpoint. */
	readonly apiUrl: string;
	/** The admin who owns the token, and the bot (`get-bot-id`). */
	readonly staff: { adminId: string; botId: string };
	/** The sandbox, when that is the target (its request log, faults, webhook levers); null on the test bed. */
	readonly sandbox: Sandbox | null;
	/** A Web API call; resolves to the answer's `response`, throws a BoardCallError on any other answer. */
	call(fn: string, args?: Record<string, unknown>): Promise<unknown>;
	/** The same call, answered as it came: HTTP status and the parsed body (the raw text when not JSON). */
	callRaw(fn: string, args?: Record<string, unknown>): Promise<{ status: number; body: unknown }>;
	/** `add-user` (type `user`): the new user's id. */
	addUser(first: string, last: string, email: string): Promise<string>;
	/** A visitor opens the chat and writes (with an e-mail: as the user who has it, else a new `user`; without: a new `visitor`). */
	visitorStarts(opts: {
		email?: string;
		firstName?: string;
		lastName?: string;
		message: string;
	}): Promise<VisitorStarted>;
	/** The visitor `userId` writes in their conversation, from the widget: the new message's id. */
	visitorSays(userId: string, conversationId: string, text: string): Promise<string>;
	/** The admin answers through the Web API (`send-message` as the token's owner): the new message's id. */
	agentReplies(conversationId: string, text: string): Promise<string>;
	/** `update-conversation-agent` (default: the admin); the product posts an empty message with a payload event. */
	assign(conversationId: string, agentId?: string): Promise<void>;
	/** `update-conversation-status` 3 (archived). */
	archive(conversationId: string): Promise<void>;
	/**
	 * A customer writes in through a channel app: on the test bed, the product's own app through its
	 * inbound script (the test bed's `<channel>-inbound.mjs`); on the sandbox, its lever imitating the app.
	 */
	customerWrites(
		channel: ChannelApp,
		opts: { text?: string; name?: string; files?: InboundFile[] },
	): Promise<CustomerWrote>;
	/** The product's webhook deliveries: `mark()` where the log stands, `since(mark)` what came after. */
	readonly webhooks: { key: string; mark(): number; since(mark: number): ProductDelivery[] };
	/** What the channel's stand-in received for `recipient` (test bed: its vendor log; sandbox: its channel log). */
	sentTo(channel: ChannelApp, recipient: string): ChannelRequest[];
	/** Sandbox: back to its start-up seed. Test bed: nothing (it is shared and never emptied). */
	reset(): Promise<void>;
	/** Sandbox: waits for its webhook deliveries. Test bed: nothing (the product posts them before it answers). */
	settled(): Promise<void>;
	close(): Promise<void>;
}

/** The channel apps the test bed runs (its README: WhatsApp, Telegram, Messenger, which serves Instagram too). */
export type ChannelApp = 'whatsapp' | 'telegram' | 'messenger' | 'instagram';

/** A file a customer sends: Telegram's `photo` or `document`, Messenger's `image` or `file`. */
export interface InboundFile {
	kind: 'photo' | 'document' | 'image' | 'file';
	name: string;
	mime: string;
	bytes: Buffer;
}

export interface CustomerWrote {
	/** The customer's ID on the channel, where replies go: phone digits, Telegram chat ID, PSID. */
	recipient: string;
	userId: string;
	conversationId: string;
	messageId: string;
	/** The files as the product stored them on the message: name and URL. */
	attachments: Array<[string, string]>;
}

/** A webhook delivery the product sent, as it came: headers by lower-case name, the raw body. */
export interface ProductDelivery {
	headers: Record<string, string>;
	body: string;
}

/** One request to a channel for a customer, as its stand-in saw it. */
export interface ChannelRequest {
	/** `sendMessage`, `sendPhoto`, `messages` (WhatsApp), `me/messages` (Messenger)… or the sandbox's function. */
	method: string;
	/** The text or caption, as sent (Telegram's MarkdownV2 escapes included). */
	text: string;
	/** The file's URL, when the request carries one. */
	file: string | undefined;
	refused: boolean;
}

export interface BoardOptions {
	/** The sandbox's seed; the test bed has whatever it has. */
	seed?: { users?: number; conversations?: number };
	/** The sandbox's admin token (default: a fixed test token). */
	token?: string;
	/** The sandbox's delay before every Web API answer (its `supportBoard.latencyMs`); the test bed has its own. */
	latencyMs?: number;
}

export class BoardCallError extends Error {
	constructor(
		readonly fn: string,
		readonly status: number,
		readonly body: unknown,
	) {
		super(
			`Support Board ${fn}: HTTP ${status} ${typeof body === 'string' ? body.slice(0, 300) : JSON.stringify(body)?.slice(0, 300)}`,
		);
		this.name = 'BoardCallError';
	}
}

const SANDBOX_TOKEN = 'board-admin-token-5e1f';
const SANDBOX_WEBHOOK_KEY = 'board-webhook-key-3c9d';

/** Where the test bed's scripts are (its README), for the inbound scripts of its channel apps. */
const TESTBED_SCRIPTS = process.env.SUPPORT_CHAT_TESTBED_SCRIPTS ?? '/work/shared/supportboard';

/** The sandbox's app of a channel (Messenger's serves Instagram). */
const appOf = (channel: ChannelApp) => (channel === 'instagram' ? 'messenger' : channel);

/** A customer's ID on the channel, new each time: phone digits, a Telegram user ID, a page-scoped ID. */
function newRecipient(channel: ChannelApp): string {
	const digits = (n: number): string =>
		n > 8
			? `${digits(8)}${String(randomInt(10 ** (n - 8))).padStart(n - 8, '0')}`
			: String(randomInt(10 ** (n - 1), 10 ** n));
	if (channel === 'whatsapp') return `1555${digits(7)}`;
	if (channel === 'telegram') return `7${digits(8)}`;
	return `${channel === 'instagram' ? '31' : '24'}${digits(15)}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** An id as the product writes it (a number or a numeric string) as a string. */
function idOf(value: unknown, what: string): string {
	if (
		(typeof value === 'number' && Number.isSafeInteger(value)) ||
		(typeof value === 'string' && /^\d+$/.test(value))
	)
		return String(value);
	throw new Error(`Support Board: ${what} is not an id: ${JSON.stringify(value)}`);
}

/** Web API calls against an install's api.php. */
function webApi(apiUrl: string, token: string) {
	const callRaw = async (fn: string, args: Record<string, unknown> = {}) => {
		const res = await fetch(apiUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ function: fn, token, ...args }),
		});
		const text = await res.text();
		let body: unknown = text;
		try {
			body = JSON.parse(text) as unknown;
		} catch {
			// not JSON (a PHP fatal error's empty 500, an HTML page): kept as text
		}
		return { status: res.status, body };
	};
	const call = async (fn: string, args: Record<string, unknown> = {}) => {
		const { status, body } = await callRaw(fn, args);
		if (status !== 200 || !isRecord(body) || body.success !== true)
			throw new BoardCallError(fn, status, body);
		return body.response;
	};
	return { callRaw, call };
}

/** jQuery.param as the widget's $.ajax sends a form: a[b]=, a[]= for lists of scalars, null as empty. */
export function jqParam(data: Record<string, unknown>): string {
	const out: string[] = [];
	const add = (key: string, value: unknown) =>
		out.push(
			`${encodeURIComponent(key)}=${encodeURIComponent(value === null || value === undefined ? '' : String(value))}`,
		);
	const build = (prefix: string, value: unknown): void => {
		if (Array.isArray(value))
			value.forEach((v, i) =>
				build(`${prefix}[${typeof v === 'object' && v !== null ? i : ''}]`, v),
			);
		else if (isRecord(value))
			for (const [name, v] of Object.entries(value)) build(`${prefix}[${name}]`, v);
		else add(prefix, value);
	};
	for (const [name, value] of Object.entries(data)) build(name, value);
	return out.join('&').replace(/%20/g, '+');
}

/**
 * Opens the board SUPPORT_CHAT_TESTBED selects: a new sandbox in Support Board mode, or the running test bed.
 */
export async function openBoard(options: BoardOptions = {}): Promise<Board> {
	return onTestbed ? await openTestbed(TESTBED_ENV) : await openSandboxBoard(options);
}

async function openSandboxBoard(options: BoardOptions): Promise<Board> {
	const token = options.token ?? SANDBOX_TOKEN;
	const sandbox = await startSandbox({
		api: 'support-board',
		token,
		seed: { users: 0, conversations: 0, ...options.seed },
		supportBoard: { latencyMs: options.latencyMs },
	});
	const mode = sandbox.supportBoard;
	if (!mode) throw new Error('the sandbox did not start in Support Board mode');
	const api = webApi(mode.apiUrl, token);
	const adminId = () => String(Number(mode.data.admin.id.slice(2)));
	const botId = idOf(await api.call('get-bot-id'), 'get-bot-id');

	const board: Board = {
		target: 'sandbox',
		credentials: { api: 'supportBoard', baseUrl: mode.installUrl, apiToken: token },
		apiUrl: mode.apiUrl,
		// The staff get the ids after the seed, again after a reset: read them when asked.
		get staff() {
			return {
				adminId: adminId(),
				botId: String(Number(mode.data.staff?.bot.id.slice(2) ?? botId)),
			};
		},
		sandbox,
		call: api.call,
		callRaw: api.callRaw,
		async addUser(first, last, email) {
			return idOf(
				await api.call('add-user', { first_name: first, last_name: last, email }),
				'add-user',
			);
		},
		async visitorStarts({ email, firstName, lastName, message }) {
			const started = await mode.visitor.start({
				message,
				email,
				first_name: firstName,
				last_name: lastName,
			});
			return {
				userId: idOf(started.user.id, 'user id'),
				conversationId: idOf(started.conversation.id, 'conversation id'),
				messageId: idOf(started.message.id, 'message id'),
			};
		},
		async visitorSays(userId, conversationId, text) {
			const owner = await conversationUser(api.call, conversationId);
			if (owner !== userId)
				throw new Error(`conversation ${conversationId} is user ${owner}'s, not user ${userId}'s`);
			const sent = await mode.visitor.say(conversationId, text);
			return idOf(sent.id, 'message id');
		},
		agentReplies: (conversationId, text) => agentReplies(api.call, adminId(), conversationId, text),
		async assign(conversationId, agentId) {
			await assign(api.call, conversationId, agentId ?? adminId());
		},
		archive: (conversationId) => archive(api.call, conversationId),
		async customerWrites(channel, { text, name, files = [] }) {
			const recipient = newRecipient(channel);
			mode.channels.installed.add(channel === 'instagram' ? 'messenger' : channel);
			const folder = `${new URL(mode.installUrl).pathname}/uploads/inbound-${recipient}`;
			const attachments = files.map((f): [string, string] => [
				f.name,
				sandbox.files.put(`${folder}/${f.name}`, { body: f.bytes, contentType: f.mime }),
			]);
			const made = await mode.channels.inbound({
				channel,
				from: recipient,
				name,
				text,
				attachments,
			});
			return {
				recipient,
				userId: made.user.id,
				conversationId: made.conversation.id,
				messageId: made.message.id,
				attachments,
			};
		},
		webhooks: {
			key: SANDBOX_WEBHOOK_KEY,
			mark() {
				// Nobody listens there: the sandbox logs each delivery (status 0) with its body all the same.
				if (!mode.webhooks.active || mode.webhooks.key !== SANDBOX_WEBHOOK_KEY)
					mode.configureWebhooks({
						url: 'http://127.0.0.1:9/webhook/board',
						key: SANDBOX_WEBHOOK_KEY,
						active: true,
					});
				return mode.deliveries.length;
			},
			since: (mark) =>
				mode.deliveries.slice(mark).map((d) => ({ headers: d.headers, body: d.body })),
		},
		sentTo(channel, recipient) {
			return mode.channels.sent
				.filter((s) => s.recipient === recipient && s.app === appOf(channel))
				.flatMap((s): ChannelRequest[] => {
					const files = s.attachments.map((a) => (Array.isArray(a) ? String(a[1]) : ''));
					// Telegram's app sends the text as the caption of its file; the others, one request each.
					if (s.app === 'telegram')
						return [{ method: s.fn, text: s.message, file: files[0], refused: s.refused }];
					return [
						...(s.message === ''
							? []
							: [{ method: s.fn, text: s.message, file: undefined, refused: s.refused }]),
						...files.map((file) => ({ method: s.fn, text: '', file, refused: s.refused })),
					];
				});
		},
		async reset() {
			sandbox.reset();
		},
		settled: () => mode.settled(),
		close: () => sandbox.close(),
	};
	return board;
}

interface TestbedEnv {
	file: string;
	base: string;
	adminId: string;
	adminToken: string;
	webhookKey: string;
	webhookUrl: string;
	captureBase: string;
	captureLog: string;
	vendorLog: string;
}

function readTestbedEnv(file: string): TestbedEnv {
	const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
	if (
		!isRecord(parsed) ||
		typeof parsed.base !== 'string' ||
		typeof parsed.adminToken !== 'string' ||
		parsed.adminToken === ''
	)
		throw new Error(`${file}: no base and adminToken (is it the test bed's env.json?)`);
	const text = (key: string) => (typeof parsed[key] === 'string' ? parsed[key] : '');
	return {
		file,
		base: parsed.base.replace(/\/+$/, ''),
		adminId: idOf(parsed.adminId, 'adminId'),
		adminToken: parsed.adminToken,
		webhookKey: text('webhookKey'),
		webhookUrl: text('webhookUrl'),
		captureBase: text('captureBase'),
		captureLog: text('captureLog'),
		vendorLog: text('vendorLog'),
	};
}

async function openTestbed(file: string): Promise<Board> {
	const env = readTestbedEnv(file);
	const apiUrl = `${env.base}/include/api.php`;
	const api = webApi(apiUrl, env.adminToken);
	const botId = idOf(await api.call('get-bot-id'), 'get-bot-id');
	/** The page the widget runs on: what the product copies into a visitor's webhooks as `sender-url`. */
	const pageUrl = `${env.base}/`;
	/** Each visitor's login cookie, as the widget keeps it. */
	const cookies = new Map<string, string>();

	/** One call through ajax.php, as SBF.ajax batches it; resolves to the call's value (`['success', value]`). */
	async function ajax(call: Record<string, unknown>, userId?: string): Promise<unknown> {
		const auto: Record<string, unknown> = {
			'login-cookie': userId === undefined ? '' : (cookies.get(userId) ?? ''),
		};
		if (userId !== undefined) auto.user_id = userId;
		const res = await fetch(`${env.base}/include/ajax.php`, {
			method: 'POST',
			headers: {
				'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
				'x-requested-with': 'XMLHttpRequest',
				referer: pageUrl,
			},
			body: jqParam({ function: 'ajax_calls', calls: [call], ...auto }),
		});
		const text = await res.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text) as unknown;
		} catch {
			// kept as text for the error
		}
		const answer =
			Array.isArray(parsed) && Array.isArray(parsed[0]) ? (parsed[0] as unknown[]) : parsed;
		if (res.status !== 200 || !Array.isArray(answer) || answer[0] !== 'success')
			throw new BoardCallError(`ajax ${String(call.function)}`, res.status, parsed);
		return answer[1];
	}

	/** add-user-and-login / login answer [user, cookie]: keeps the cookie, answers the user's id. */
	const loggedIn = (answer: unknown, what: string): string => {
		if (!Array.isArray(answer) || !isRecord(answer[0]) || typeof answer[1] !== 'string')
			throw new Error(`${what}: unexpected answer ${JSON.stringify(answer)}`);
		const userId = idOf(answer[0].id, `${what} user id`);
		cookies.set(userId, answer[1]);
		return userId;
	};

	/** The widget of an existing user: logs in with the user's id and token (the product's login by token). */
	async function loginAs(userId: string): Promise<void> {
		if (cookies.has(userId)) return;
		const user = await api.call('get-user', { user_id: userId });
		if (!isRecord(user) || typeof user.token !== 'string')
			throw new Error(`get-user ${userId}: no such user`);
		loggedIn(
			await ajax({
				function: 'login',
				email: '',
				password: '',
				user_id: userId,
				user_token: user.token,
			}),
			'login',
		);
	}

	/** The widget's send-message for the visitor: status 2 (waiting for an agent), as main.js sends it. */
	async function visitorMessage(
		userId: string,
		conversationId: string,
		text: string,
	): Promise<string> {
		const sent = await ajax(
			{
				function: 'send-message',
				user_id: userId,
				conversation_id: conversationId,
				message: text,
				attachments: [],
				conversation_status_code: 2,
				queue: false,
				payload: false,
				recipient_id: false,
			},
			userId,
		);
		if (!isRecord(sent)) throw new Error(`send-message: unexpected answer ${JSON.stringify(sent)}`);
		return idOf(sent.id, 'message id');
	}

	return {
		target: 'testbed',
		credentials: { api: 'supportBoard', baseUrl: env.base, apiToken: env.adminToken },
		apiUrl,
		staff: { adminId: env.adminId, botId },
		sandbox: null,
		call: api.call,
		callRaw: api.callRaw,
		async addUser(first, last, email) {
			return idOf(
				await api.call('add-user', { first_name: first, last_name: last, email }),
				'add-user',
			);
		},
		async visitorStarts({ email, firstName, lastName, message }) {
			let userId: string | undefined;
			if (email) {
				// A known e-mail continues as that user (the sandbox does the same); the widget would log them in.
				const known = await api.callRaw('get-user-by', { by: 'email', value: email });
				if (
					isRecord(known.body) &&
					known.body.success === true &&
					isRecord(known.body.response) &&
					known.body.response.id !== undefined
				) {
					userId = idOf(known.body.response.id, 'get-user-by id');
					await loginAs(userId);
				}
			}
			if (userId === undefined) {
				const settings: Record<string, unknown> = { user_type: email ? 'user' : 'visitor' };
				if (email) settings.email = email;
				if (firstName)
					Object.assign(settings, { first_name: firstName, last_name: lastName ?? '' });
				userId = loggedIn(
					await ajax({ function: 'add-user-and-login', settings, settings_extra: {} }),
					'add-user-and-login',
				);
			}
			// SBChat.newConversation, then sendMessage: the product fires new-conversation-created, then message-sent.
			const created = await ajax(
				{
					function: 'new-conversation',
					status_code: 2,
					title: '',
					department: '',
					agent_id: '',
					tags: '',
					source: '',
				},
				userId,
			);
			if (!isRecord(created) || !isRecord(created.details))
				throw new Error(`new-conversation: unexpected answer ${JSON.stringify(created)}`);
			const conversationId = idOf(created.details.id, 'conversation id');
			const messageId = await visitorMessage(userId, conversationId, message);
			return { userId, conversationId, messageId };
		},
		async visitorSays(userId, conversationId, text) {
			await loginAs(userId);
			return await visitorMessage(userId, conversationId, text);
		},
		agentReplies: (conversationId, text) =>
			agentReplies(api.call, env.adminId, conversationId, text),
		async assign(conversationId, agentId) {
			await assign(api.call, conversationId, agentId ?? env.adminId);
		},
		archive: (conversationId) => archive(api.call, conversationId),
		customerWrites: (channel, opts) => testbedInbound(env, channel, opts),
		webhooks: {
			key: env.webhookKey,
			mark: () => captured(env).length,
			since: (mark) => captured(env).slice(mark),
		},
		sentTo: (channel, recipient) => standInLog(env, channel, recipient),
		async reset() {},
		async settled() {},
		async close() {},
	};
}

type Call = (fn: string, args?: Record<string, unknown>) => Promise<unknown>;

async function conversationUser(call: Call, conversationId: string): Promise<string> {
	const answer = await call('get-conversation', { conversation_id: conversationId });
	if (!isRecord(answer) || !isRecord(answer.details))
		throw new Error(`no conversation ${conversationId}`);
	return idOf(answer.details.user_id, 'conversation user id');
}

async function agentReplies(
	call: Call,
	adminId: string,
	conversationId: string,
	text: string,
): Promise<string> {
	const sent = await call('send-message', {
		user_id: adminId,
		conversation_id: conversationId,
		message: text,
	});
	if (!isRecord(sent)) throw new Error(`send-message: unexpected answer ${JSON.stringify(sent)}`);
	return idOf(sent.id, 'message id');
}

async function assign(call: Call, conversationId: string, agentId: string): Promise<void> {
	const done = await call('update-conversation-agent', {
		conversation_id: conversationId,
		agent_id: agentId,
	});
	if (done !== true) throw new Error(`update-conversation-agent answered ${JSON.stringify(done)}`);
}

async function archive(call: Call, conversationId: string): Promise<void> {
	const done = await call('update-conversation-status', {
		conversation_id: conversationId,
		status_code: 3,
	});
	if (done !== true) throw new Error(`update-conversation-status answered ${JSON.stringify(done)}`);
}

/** Runs the test bed's inbound script of the channel (its exported function) in a node of its own: they are ES modules. */
const INBOUND_RUNNER = `
const [dir, envFile, channel, json] = process.argv.slice(1);
const { loadEnv } = await import(dir + '/sbclient.mjs');
const options = JSON.parse(json);
for (const kind of ['photo', 'document', 'image', 'file'])
	if (options[kind]) options[kind] = { ...options[kind], bytes: Buffer.from(options[kind].bytes, 'base64') };
const env = loadEnv(envFile);
let out;
if (channel === 'whatsapp') out = await (await import(dir + '/whatsapp-inbound.mjs')).whatsappInbound(env, options);
else if (channel === 'telegram') out = await (await import(dir + '/telegram-inbound.mjs')).telegramInbound(env, options);
else out = await (await import(dir + '/messenger-inbound.mjs')).messengerInbound(env, { ...options, instagram: channel === 'instagram' });
process.stdout.write(JSON.stringify(out));
`;

async function testbedInbound(
	env: TestbedEnv,
	channel: ChannelApp,
	{ text, name, files = [] }: { text?: string; name?: string; files?: InboundFile[] },
): Promise<CustomerWrote> {
	const recipient = newRecipient(channel);
	const options: Record<string, unknown> = { text, name };
	options[channel === 'whatsapp' || channel === 'telegram' ? 'from' : 'psid'] = recipient;
	for (const f of files)
		options[f.kind] = { name: f.name, mime: f.mime, bytes: f.bytes.toString('base64') };
	const { stdout } = await promisify(execFile)(
		process.execPath,
		[
			'--input-type=module',
			'-e',
			INBOUND_RUNNER,
			TESTBED_SCRIPTS,
			env.file,
			channel,
			JSON.stringify(options),
		],
		{ maxBuffer: 16 * 1024 * 1024 },
	);
	const out = JSON.parse(stdout) as {
		error?: string;
		user?: { id: string };
		conversation?: { id: string };
		message?: { id: string; attachments?: Array<{ name: string; url: string }> };
	};
	if (out.error || !out.user || !out.conversation || !out.message)
		throw new Error(`${channel} inbound: ${stdout.slice(0, 500)}`);
	return {
		recipient,
		userId: out.user.id,
		conversationId: out.conversation.id,
		messageId: out.message.id,
		attachments: (out.message.attachments ?? []).map((a): [string, string] => [a.name, a.url]),
	};
}

/** The product's webhook deliveries the test bed's capture server logged, oldest first. */
function captured(env: TestbedEnv): ProductDelivery[] {
	if (!env.webhookUrl.startsWith(env.captureBase))
		throw new Error(
			`the test bed's webhooks go to ${env.webhookUrl}, not to its capture server (${env.captureBase})`,
		);
	let text = '';
	try {
		text = readFileSync(env.captureLog, 'utf8');
	} catch {
		return []; // nothing captured yet
	}
	return text
		.split('\n')
		.filter(Boolean)
		.map((line) => {
			const entry = JSON.parse(line) as { rawHeaders: string[]; bodyBase64: string };
			const headers: Record<string, string> = {};
			for (let i = 0; i + 1 < entry.rawHeaders.length; i += 2)
				headers[entry.rawHeaders[i].toLowerCase()] = entry.rawHeaders[i + 1];
			return { headers, body: Buffer.from(entry.bodyBase64, 'base64').toString('utf8') };
		});
}

interface VendorEntry {
	method?: string;
	host?: string;
	path?: string;
	status?: number;
	fields?: Record<string, string>;
}

/** Where each channel's stand-in logs a send, and the field naming the customer. */
const STAND_INS: Record<ChannelApp, { host: string; path: RegExp; to: string }> = {
	whatsapp: { host: 'graph.facebook.com', path: /^\/v[\d.]+\/\d+\/(messages)$/, to: 'to' },
	telegram: { host: 'api.telegram.org', path: /^\/bot[^/]+\/(send\w+)$/, to: 'chat_id' },
	messenger: { host: 'graph.facebook.com', path: /^\/(me\/messages)$/, to: 'recipient[id]' },
	instagram: { host: 'graph.facebook.com', path: /^\/(me\/messages)$/, to: 'recipient[id]' },
};

const TEXT_FIELDS = ['text[body]', 'text', 'caption', 'message[text]'];
const FILE_FIELDS = [
	'photo',
	'document',
	'audio',
	'video',
	'animation',
	'message[attachment][payload][url]',
	'document[link]',
	'image[link]',
	'audio[link]',
	'video[link]',
];

/** What the test bed's stand-in logged as sent to `recipient` on the channel (env.json's vendorLog). */
function standInLog(env: TestbedEnv, channel: ChannelApp, recipient: string): ChannelRequest[] {
	const spec = STAND_INS[channel];
	return readFileSync(env.vendorLog, 'utf8')
		.split('\n')
		.filter((line) => line.includes(recipient))
		.map((line) => JSON.parse(line) as VendorEntry)
		.flatMap((entry): ChannelRequest[] => {
			const match = spec.path.exec(entry.path ?? '');
			const fields = entry.fields ?? {};
			if (entry.method !== 'POST' || entry.host !== spec.host || !match) return [];
			if (fields[spec.to] !== recipient) return [];
			const text = TEXT_FIELDS.map((f) => fields[f]).find((v) => v !== undefined) ?? '';
			const file = FILE_FIELDS.map((f) => fields[f]).find((v) => v !== undefined);
			return [{ method: match[1], text, file, refused: (entry.status ?? 200) >= 400 }];
		});
}
