/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Issue 27, class 4: secrets are masked in every encoding and every field, before anything is cut. Run
 * by the real n8n engine against the sandbox's Support Board mode: what the credentials hold (the Admin
 * Token, the Webhook Secret), the settings the product types as passwords, a channel's own token
 * (Telegram keeps its bot's in a conversation's `extra_3`), raw or percent-encoded, never reach an
 * action's items, a trigger's items, a poll's items or a message; nor do the secrets of a URL quoted in
 * an error, however it is written. `[redacted]` is never shown percent-encoded.
 */
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import { SupportChatPollTrigger } from '../../nodes/SupportChat/SupportChatPollTrigger.node';
import { SupportChatTrigger } from '../../nodes/SupportChat/SupportChatTrigger.node';
import { EVENT_CLAIMS } from '../../nodes/SupportChat/shared/claims';
import { DELIVERY_REGISTRY } from '../../nodes/SupportChat/trigger/dedupe';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { callPoll, callWebhook, runNode } from '../helpers/engine';
import { hookHost } from '../helpers/hooks';
import { ACTION_TYPE, byId, TRIGGER_TYPE } from '../helpers/supportChat';

const TOKEN = 'sb-admin-token-secrets-4e1d';
const WEBHOOK_SECRET = 'whs-Credentials-Secret-93kQ';
const SMTP_PASSWORD = 'smtp-Pass-word-55aZ';
const PUSHER_SECRET = 'pusher-Secret-value-17';
/** A bot token's shape (`<bot id>:AA…`, 35 characters after the colon), made up. */
const BOT_TOKEN = '7412369850:AAFq-telegramBotSecretPart_0123456xyz';
const BOT_SECRET_PART = BOT_TOKEN.split(':')[1];
const META_TOKEN = 'EAAGm0PX4ZCpsBAMetaPageTokenZBZAqZCZAZD12345';
const ENCODED_REDACTED = /%5Bredacted%5D/i;

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({
		api: 'support-board',
		token: TOKEN,
		seed: { users: 4, conversations: 3 },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => {
	sandbox.reset();
	EVENT_CLAIMS.clear();
	DELIVERY_REGISTRY.clear();
});

const credentials = (extra: IDataObject = {}) => ({
	types: [new SupportChatApi()],
	data: {
		supportChatApi: {
			api: 'supportBoard',
			baseUrl: sandbox.supportBoard!.installUrl,
			apiToken: TOKEN,
			webhookSecret: WEBHOOK_SECRET,
			...extra,
		},
	},
});

async function run(parameters: INodeParameters, extra: IDataObject = {}) {
	const result = await runNode({
		node: { name: 'Support Chat', type: ACTION_TYPE, parameters, onError: 'continueRegularOutput' },
		nodeTypes: { [ACTION_TYPE]: new SupportChat() },
		credentials: credentials(extra),
	});
	return JSON.stringify(result.output('Support Chat'));
}

/** A Web API call to the sandbox as an admin would make it, outside the node. */
async function board(fn: string, args: IDataObject = {}): Promise<unknown> {
	const answer = await fetch(sandbox.supportBoard!.apiUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ ...args, function: fn, token: TOKEN }),
	});
	return ((await answer.json()) as IDataObject).response;
}

/** The store's record of a conversation by its product id (`"2"` → `c_0002`). */
const storedConversation = (id: string) =>
	sandbox.state.conversations.find((c) => Number(c.id.slice(2)) === Number(id))!;

function expectNone(text: string, secrets: string[]) {
	for (const secret of secrets) expect(text).not.toContain(secret);
	expect(text).not.toMatch(ENCODED_REDACTED);
}

describe('Web API → Call a Function get-settings', () => {
	it("masks the credentials' Webhook Secret by value, and every setting the product types as a password", async () => {
		await board('save-settings', {
			setting: 'webhooks',
			settings: {
				webhooks: [
					{
						'webhooks-active': [true, 'checkbox'],
						// The secret again where no type says so: masked by value.
						'webhooks-url': [`https://hooks.example.test/in?k=${WEBHOOK_SECRET}`, 'text'],
						'webhooks-key': [WEBHOOK_SECRET, 'password'],
						'webhooks-allowed': ['message-sent', 'text'],
					},
					'multi-input',
				],
				'email-server': [
					{
						'email-server-host': ['smtp.example.test', 'text'],
						'email-server-password': [SMTP_PASSWORD, 'password'],
					},
					'multi-input',
				],
				pusher: [{ 'pusher-secret': [PUSHER_SECRET, 'password'] }, 'multi-input'],
				'bot-name': ['Helper', 'text'],
			},
		});
		const output = await run({
			resource: 'webApi',
			operation: 'call',
			functionName: 'get-settings',
			functionArguments: '{}',
		});
		expectNone(output, [WEBHOOK_SECRET, SMTP_PASSWORD, PUSHER_SECRET]);
		const [item] = JSON.parse(output) as Array<{ json: IDataObject }>;
		// The row keeps its shape: a user sees which settings are set, not their values.
		expect(item.json).toMatchObject({
			'email-server': [
				{
					'email-server-host': ['smtp.example.test', 'text'],
					'email-server-password': ['[redacted]', 'password'],
				},
				'multi-input',
			],
			'bot-name': ['Helper', 'text'],
		});
	});
});

describe("the credentials' secrets are masked however the product escapes them", () => {
	// A Webhook Secret a person chose, with characters encoders disagree on.
	const CHOSEN = 'whs:Chosen/Secret!(7)';
	const SPELT = {
		// PHP's urlencode, as http_build_query writes a query: `!`, `(`, `)` encoded too.
		php: 'whs%3AChosen%2FSecret%21%287%29',
		lower: 'whs%3aChosen%2fSecret!(7)',
		twice: 'whs%253AChosen%252FSecret!(7)',
	};

	it('Call a Function get-settings: a URL holding it percent-encoded the PHP way, in lower case, twice', async () => {
		const url = `https://hooks.example.test/in?a=${SPELT.php}&b=${SPELT.lower}&c=${SPELT.twice}`;
		await board('save-settings', {
			setting: 'webhooks',
			settings: { 'backup-url': [url, 'text'] },
		});
		const output = await run(
			{
				resource: 'webApi',
				operation: 'call',
				functionName: 'get-settings',
				functionArguments: '{}',
			},
			{ webhookSecret: CHOSEN },
		);
		expectNone(output, [CHOSEN, ...Object.values(SPELT), 'Chosen']);
		expect(output).toContain('in?a=[redacted]&b=[redacted]&c=[redacted]');
	});
});

describe('Web API → Call a Function that reads one setting by its id', () => {
	// The answer is the bare value: no key names it, only the argument does.
	const saveSmtp = () =>
		board('save-settings', {
			setting: 'email-server',
			settings: {
				'email-server': [
					{
						'email-server-host': ['smtp.example.test', 'text'],
						'email-server-password': [SMTP_PASSWORD, 'password'],
					},
					'multi-input',
				],
			},
		});

	it('get-multi-setting of a password setting answers it masked', async () => {
		await saveSmtp();
		const output = await run({
			resource: 'webApi',
			operation: 'call',
			functionName: 'get-multi-setting',
			functionArguments: JSON.stringify({ id: 'email-server', sub_id: 'email-server-password' }),
		});
		expectNone(output, [SMTP_PASSWORD]);
		expect(JSON.parse(output)).toEqual([
			{ json: { response: '[redacted]' }, pairedItem: { item: 0 } },
		]);
	});

	it.each([
		// apps/dialogflow: [access token, expiry]; apps/zalo: "refresh|access|expiry"; the apps' licence keys.
		[
			'google-token',
			['ya29.GoogleAccessTokenValue-0123456789', 1767225600],
			'ya29.GoogleAccessTokenValue',
		],
		['zalo-token', 'ZaloRefreshTok0123456789|ZaloAccessTok0123456789|1767225600', 'ZaloAccessTok'],
		['app-keys', { dialogflow: 'AppLicenceKey-0123456789abc' }, 'AppLicenceKey'],
	])(
		'get-external-setting %s, which holds a secret, answers it masked',
		async (name, value, secret) => {
			await board('save-external-setting', { name, value });
			const output = await run({
				resource: 'webApi',
				operation: 'call',
				functionName: 'get-external-setting',
				functionArguments: JSON.stringify({ setting: name }),
			});
			expectNone(output, [secret]);
		},
	);

	it('get-multi-setting of another setting answers it as it is', async () => {
		await saveSmtp();
		const output = await run({
			resource: 'webApi',
			operation: 'call',
			functionName: 'get-multi-setting',
			functionArguments: JSON.stringify({ id: 'email-server', sub_id: 'email-server-host' }),
		});
		expect(output).toContain('"response":"smtp.example.test"');
	});

	it("get-settings: the apps' secrets the product types as text: Google's refresh token, X's access token, WeChat's token", async () => {
		const secrets = {
			'google-refresh-token': '1//0gRefreshTokenOfGoogle-abcdefghijkl',
			'twitter-access-token': '1234567890-TwitterAccessTokenValue0099',
			'wechat-token': 'WeChatServerToken4412',
		};
		await board('save-settings', {
			setting: 'google',
			settings: {
				google: [
					{
						'google-client-id': ['client-id.apps.example', 'text'],
						'google-refresh-token': [secrets['google-refresh-token'], 'text'],
					},
					'multi-input',
				],
				twitter: [
					{ 'twitter-access-token': [secrets['twitter-access-token'], 'text'] },
					'multi-input',
				],
				wechat: [{ 'wechat-token': [secrets['wechat-token'], 'text'] }, 'multi-input'],
			},
		});
		const output = await run({
			resource: 'webApi',
			operation: 'call',
			functionName: 'get-settings',
			functionArguments: '{}',
		});
		expectNone(output, Object.values(secrets));
		expect(output).toContain('"google-client-id":["client-id.apps.example","text"]');
	});

	it('get-setting of a multi-input masks its password fields', async () => {
		await saveSmtp();
		const output = await run({
			resource: 'webApi',
			operation: 'call',
			functionName: 'get-setting',
			functionArguments: JSON.stringify({ setting: 'email-server' }),
		});
		expectNone(output, [SMTP_PASSWORD]);
		expect(output).toContain('"email-server-host":"smtp.example.test"');
	});
});

describe("a channel's token is masked by its shape wherever it appears", () => {
	it('Conversation → Get on a Telegram conversation: extra_3 holds the bot token', async () => {
		const stored = storedConversation('2');
		Object.assign(stored, { source: 'tg', extra: '5550001', extra_3: BOT_TOKEN });
		const output = await run({
			resource: 'conversation',
			operation: 'get',
			conversationId: byId('2'),
		});
		expect(output).toContain('"extra_3":"[redacted]"');
		expect(output).toContain('"extra":"5550001"');
		expectNone(output, [BOT_SECRET_PART]);
	});

	it('Conversation → Get on a LINE conversation: extra_2 holds the channel access token, which has no shape', async () => {
		// apps/line/post.php: sb_new_conversation(…, 'ln', line_id, token): a base64 token, no prefix.
		const lineToken = 'kQ7vLineChannelAccessToken/6yZ+abcDEF0123456789ghiJKLmnoPQRstu=';
		const stored = storedConversation('2');
		Object.assign(stored, { source: 'ln', extra: 'U4af4980629', extra_2: lineToken });
		const output = await run({
			resource: 'conversation',
			operation: 'get',
			conversationId: byId('2'),
		});
		expect(output).toContain('"extra_2":"[redacted]"');
		expect(output).toContain('"extra":"U4af4980629"');
		expectNone(output, [lineToken, 'LineChannelAccessToken']);
	});

	it('percent-encoded tokens in a message are masked, and the output says [redacted]', async () => {
		const text = [
			`photo: https://api.telegram.org/file/bot${BOT_TOKEN.replace(':', '%3A')}/photos/file_1.jpg`,
			`from=https%3A%2F%2Fgraph.facebook.com%2Fme%3Faccess_token%3D${META_TOKEN}%26x%3D1`,
			`at 12:30 order 1234567:please-call-me-back-tomorrow-morning`,
		].join(' ');
		await board('send-message', { user_id: '1', conversation_id: '2', message: text });
		const output = await run({
			resource: 'conversation',
			operation: 'get',
			conversationId: byId('2'),
		});
		expectNone(output, [BOT_SECRET_PART, META_TOKEN.slice(3)]);
		expect(output).toContain('file/bot[redacted]/photos');
		expect(output).toContain('access_token%3D[redacted]%26x%3D1');
		// A message that merely looks like a token is left as written.
		expect(output).toContain('order 1234567:please-call-me-back-tomorrow-morning');
	});

	it('a Support Board webhook delivery carrying it: the trigger item shows none', async () => {
		const node: INode = {
			id: '5ec7e700-0000-4000-8000-000000000001',
			name: 'Support Chat Trigger',
			type: TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			webhookId: '5ec7e700-0000-4000-8000-0000000000aa',
			parameters: { events: ['*'], verification: 'bodyField', keyField: 'key' },
			credentials: { supportChatApi: { id: 'sb1', name: 'Support Board' } },
		};
		const body = {
			function: 'new-conversation-created',
			key: WEBHOOK_SECRET,
			data: {
				messages: [],
				details: {
					user_id: '6',
					id: '4',
					source: 'tg',
					extra: '5550001',
					extra_3: BOT_TOKEN,
					title: `see bot${BOT_TOKEN.replace(':', '%3A')}`,
				},
			},
			'sender-url': 'https://shop.example.test/help',
		};
		const result = await callWebhook({
			node,
			nodeType: new SupportChatTrigger(),
			credentials: credentials(),
			request: { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
			workflowId: 'wf-secrets',
		});
		const items = result.response.workflowData?.[0] ?? [];
		expect(items).toHaveLength(1);
		expectNone(JSON.stringify(items), [BOT_SECRET_PART, WEBHOOK_SECRET]);
	});

	it("the trigger's items hold no secret of the credentials: the Admin Token as well as the Webhook Secret", async () => {
		const result = await callWebhook({
			node: {
				id: '5ec7e700-0000-4000-8000-000000000002',
				name: 'Support Chat Trigger',
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				webhookId: '5ec7e700-0000-4000-8000-0000000000ab',
				parameters: { events: ['*'], verification: 'bodyField', keyField: 'key' },
				credentials: { supportChatApi: { id: 'sb1', name: 'Support Board' } },
			},
			nodeType: new SupportChatTrigger(),
			credentials: credentials(),
			request: {
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					function: 'message-sent',
					key: WEBHOOK_SECRET,
					data: {
						user_id: '6',
						message_id: 17,
						message: `pasted: ${TOKEN} and ${encodeURIComponent(WEBHOOK_SECRET)}`,
						conversation_id: '4',
					},
				}),
			},
			workflowId: 'wf-secrets-none',
		});
		const items = result.response.workflowData?.[0] ?? [];
		expect(items).toHaveLength(1);
		expectNone(JSON.stringify(items), [WEBHOOK_SECRET, TOKEN]);
	});

	it('a poll item carrying it shows none', async () => {
		const parameters = { events: ['conversationCreated', 'messageCreated'], options: {} };
		const poll = async (staticData?: IDataObject) => {
			const result = await callPoll({
				node: { type: 'n8n-nodes-support-chat.supportChatPollTrigger', parameters },
				nodeType: new SupportChatPollTrigger(),
				credentials: credentials(),
				staticData,
			});
			if (result.error) throw result.error;
			return result;
		};
		const first = await poll();
		const started = await sandbox.supportBoard!.visitor.start({
			email: 'tg.visitor@example.com',
			first_name: 'Tele',
			last_name: 'Gram',
			message: `My bot is ${BOT_TOKEN} and bot${BOT_TOKEN.replace(':', '%3A')}`,
		});
		Object.assign(storedConversation(String(started.conversation.id)), {
			source: 'tg',
			extra_3: BOT_TOKEN,
		});
		const second = await poll(first.staticData);
		expect(second.items?.length).toBeGreaterThan(0);
		expectNone(JSON.stringify(second.items), [BOT_SECRET_PART]);
	});
});

describe('URLs quoted in errors are masked however they are written', () => {
	it.each([
		['userinfo without a scheme', 'alice:s3cret-pw@hooks.example.com/in', ['s3cret-pw']],
		['a space in it', 'https://alice:s3cret pw@hooks.example.com/in', ['s3cret']],
		[
			"Slack's secret path",
			'https://hooks.slack.com/services/T0SECRET1/B0SECRET2/Xy9SlackSecretPart42abc',
			['T0SECRET1', 'B0SECRET2', 'Xy9SlackSecretPart42abc'],
		],
		[
			"Zapier's",
			'https://hooks.zapier.com/hooks/catch/8812345/zq7secret/',
			['8812345', 'zq7secret'],
		],
		[
			"Make's",
			'https://hook.eu1.make.com/k3yforthemakescenario0123456789ab',
			['k3yforthemakescenario'],
		],
	])(
		"self-set-up's refusal quoting another consumer's webhook URL: %s",
		async (_label, url, secrets) => {
			await board('save-settings', {
				setting: 'webhooks',
				settings: {
					webhooks: [
						{
							'webhooks-active': [true, 'checkbox'],
							'webhooks-url': [url, 'text'],
							'webhooks-key': ['other-consumer-key-1', 'password'],
							'webhooks-allowed': ['message-sent', 'text'],
						},
						'multi-input',
					],
				},
			});
			const hooks = hookHost({
				node: {
					type: TRIGGER_TYPE,
					parameters: { events: ['*'], verification: 'bodyField', setUpWebhook: true },
					credentials: { supportChatApi: { id: 'sb1', name: 'Support Board' } },
				},
				nodeType: new SupportChatTrigger(),
				credentials: credentials(),
				webhookBaseUrl: 'https://n8n.example.test/webhook',
			});
			const refused = (await hooks.publish().catch((error: Error) => error)) as Error;
			expect(refused.message).toMatch(/already sends its webhooks to another URL/);
			// Its scheme and host only: enough to know whose it is.
			expect(refused.message).toMatch(/another URL \(https?:\/\/hooks?\.[.\da-z]+\/…\)/);
			expectNone(refused.message, secrets);
		},
	);

	it("Call a Function: the product's refusal quoting URLs with their credentials", async () => {
		sandbox.fault({
			path: 'get-user',
			kind: 'success-false',
			message: `Curl failed for alice:s3cret-pw@hooks.example.com/in then https://hooks.slack.com/services/T0SECRET1/B0SECRET2/Xy9SlackSecretPart42abc?token=${TOKEN}x`,
		});
		const output = await run({
			resource: 'webApi',
			operation: 'call',
			functionName: 'get-user',
			functionArguments: '{"user_id": 1}',
		});
		expect(output).toContain(
			'Curl failed for http://hooks.example.com/… then https://hooks.slack.com/…',
		);
		expectNone(output, ['s3cret-pw', 'T0SECRET1', 'B0SECRET2', 'Xy9SlackSecretPart42abc', TOKEN]);
	});

	it("Call a Function: the product's refusal quoting URLs with a port, a bare query, escaped by json_encode or percent-encoded", async () => {
		sandbox.fault({
			path: 'get-user',
			kind: 'success-false',
			message: [
				'Curl failed for hooks.example.com:8443/in/PortPathSecret1',
				'and n8n.internal?token=BareQuerySecret2',
				'and https:\\/\\/hooks.slack.com\\/services\\/T0\\/JsonEscapedSecret3',
				'from next=https%3A%2F%2Fhooks.zapier.com%2Fhooks%2Fcatch%2FPercentSecret4',
			].join(' '),
		});
		const output = await run({
			resource: 'webApi',
			operation: 'call',
			functionName: 'get-user',
			functionArguments: '{"user_id": 1}',
		});
		expect(output).toContain('http://hooks.example.com:8443/…');
		expect(output).toContain('next=https://hooks.zapier.com/…');
		expectNone(output, [
			'PortPathSecret1',
			'BareQuerySecret2',
			'JsonEscapedSecret3',
			'PercentSecret4',
		]);
	});
});
