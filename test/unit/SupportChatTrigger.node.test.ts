import { createHmac } from 'crypto';
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';

import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { SupportChatTrigger } from '../../nodes/SupportChat/SupportChatTrigger.node';
import { EVENT_CLAIMS } from '../../nodes/SupportChat/shared/claims';
import { callWebhook } from '../helpers/engine';

const TYPE = 'n8n-nodes-support-chat.supportChatTrigger';
const trigger = new SupportChatTrigger();
const { description } = trigger;

function property(name: string): INodeProperties {
	const found = description.properties.find((entry) => entry.name === name);
	if (!found) throw new Error(`no property ${name}`);
	return found;
}

function node(parameters: INodeParameters): INode {
	return {
		id: 'trigger-1',
		name: 'Support Chat Trigger',
		type: TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: 'b6b1d1c2-3a4e-4f5a-9b8c-7d6e5f4a3b2c',
		parameters,
	};
}

describe('SupportChatTrigger description (public interface)', () => {
	test('names, group and webhook', () => {
		expect(description.name).toBe('supportChatTrigger');
		expect(description.displayName).toBe('Support Chat Trigger');
		expect(description.group).toEqual(['trigger']);
		expect(description.inputs).toEqual([]);
		expect(description.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		]);
		expect(description.usableAsTool).toBeUndefined();
	});

	test('events: the canonical values and *', () => {
		const events = property('events');
		expect(events.type).toBe('multiOptions');
		expect(
			events.options?.map((option) => ('value' in option ? option.value : undefined)).sort(),
		).toEqual(
			[
				'*',
				'conversationClosed',
				'conversationCreated',
				'leadCaptured',
				'messageCreated',
				'tagApplied',
				'userCreated',
				// Support Board's own events, by the values workflows save (public API).
				'botMessage',
				'conversationStatusUpdated',
				'dialogflowMessage',
				'emailSent',
				'login',
				'messageDeleted',
				'newConversationReceived',
				'newEmailAddress',
				'newMessagesReceived',
				'richMessage',
				'slackMessageSent',
				'smsSent',
				'userDeleted',
			].sort(),
		);
		const names = Object.fromEntries(
			events.options!.map((option) => ['value' in option ? option.value : '', option.name]),
		);
		expect(names).toMatchObject({
			conversationCreated: 'New Conversation',
			messageCreated: 'New Message',
			conversationClosed: 'Conversation Closed',
			userCreated: 'New User Created',
			tagApplied: 'Tag Applied',
			leadCaptured: 'Lead Captured',
		});
	});

	test('verification values', () => {
		const values = property('verification').options?.map((option) =>
			'value' in option ? option.value : undefined,
		);
		expect(values).toEqual(
			expect.arrayContaining(['none', 'standardWebhooks', 'token', 'hmac', 'bodyField']),
		);
		expect(property('verification').default).toBe('none');
	});

	test('the credential (webhookSecret) is asked for only when a scheme needs it', () => {
		expect(description.credentials).toEqual([
			{
				name: 'supportChatApi',
				required: true,
				displayOptions: { hide: { verification: ['none'] } },
				testedBy: 'supportChatApiTest',
			},
		]);
		expect(new SupportChatApi().properties.map((entry) => entry.name)).toContain('webhookSecret');
	});

	test('options', () => {
		const names = property('options').options?.map((option) => option.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'unknownEvents',
				'dedupeWindowMinutes',
				'ignoreOwnMessages',
				'ignoredSenderIds',
				'includeHeaders',
			]),
		);
	});

	test("the set-up notice: numbered steps in a list, the dashboard path, both URLs, the editor's button", () => {
		const notice = property('setupNotice');
		expect(notice.type).toBe('notice');
		const text = notice.displayName;
		// n8n 2.41's notice keeps only a, ul and li: the steps are list items, numbered in their text.
		expect(text.match(/<\/?[a-z]+/g)?.filter((tag) => !/^<\/?(ul|li)$/.test(tag))).toEqual([]);
		const steps = [...text.matchAll(/<li>(.*?)<\/li>/g)].map((match) => match[1]);
		expect(steps.map((step) => step.split(' ')[0])).toEqual(['1.', '2.', '3.', '4.']);
		expect(text).toContain('Settings → Miscellaneous → Webhooks');
		expect(text).toMatch(/Test URL/);
		expect(text).toMatch(/Production URL/);
		// Support Board takes one URL: a comma list reaches neither URL (its HTTP client refuses it).
		expect(steps[2]).toMatch(
			/^3\. Paste one URL into the webhook URL field: the Test URL while you build .*, the Production URL in its place once it is published\./,
		);
		expect(steps[2]).toContain(
			'"url1, url2" is refused by its HTTP client, so nothing reaches either URL',
		);
		expect(text).not.toMatch(/separated by commas, so you can list/);
		// Each delivery is sent once, without an ID: what is missed is lost, and identical bodies are events.
		expect(text).toContain('no retry and no delivery ID');
		expect(text).toContain('is lost');
		expect(text).toContain('Identical deliveries are separate events, and each starts a run.');
		expect(steps[0]).toContain('click "Execute step" (n8n 1.x: "Listen for test event")');
		expect(steps[0]).toContain('"Listening for test event"');
	});

	test('the subtitle names the selected events as the Events list does, never by value', () => {
		const expression = String(description.subtitle);
		expect(expression).toMatch(/^=\{\{ .* \}\}$/);
		// The expression is plain JavaScript over $parameter: run it as n8n's editor would.
		// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- test code running the node's own subtitle text, as the editor does
		const subtitle = new Function('$parameter', `return ${expression.slice(3, -2)}`) as (
			p: INodeParameters,
		) => string;
		const names = Object.fromEntries(
			property('events').options!.map((option) => [
				'value' in option ? option.value : '',
				option.name,
			]),
		);
		expect(subtitle({ events: ['leadCaptured'] })).toBe('Lead Captured');
		expect(subtitle({ events: ['messageCreated', 'tagApplied'] })).toBe(
			`${names.messageCreated}, ${names.tagApplied}`,
		);
		expect(subtitle({ events: ['*'] })).toBe('Any Event');
		expect(subtitle({ events: ['constructor'] })).toBe('constructor');
		expect(subtitle({})).toBe('');
		for (const [value, name] of Object.entries(names))
			if (value !== '*') expect(subtitle({ events: [value] })).toBe(name);
	});

	test('with Set Up Webhook in Support Board off (the default), the lifecycle methods call nothing', async () => {
		const methods = trigger.webhookMethods.default;
		// Anything but the parameters' defaults and empty static data would throw: no credentials, no request.
		const context = {
			getNodeParameter: (_name: string, fallback: unknown) => fallback,
			getWorkflowStaticData: () => ({}),
			getMode: () => 'trigger',
			getWorkflow: () => ({ id: 'w-hooks', active: true }),
		} as never;
		await expect(methods.checkExists.call(context)).resolves.toBe(true);
		await expect(methods.create.call(context)).resolves.toBe(true);
		await expect(methods.delete.call(context)).resolves.toBe(true);
	});

	test('activating the workflow forgets its poll trigger until that polls again: at the bound, its events run', async () => {
		EVENT_CLAIMS.clear();
		const context = {
			getNodeParameter: (_name: string, fallback: unknown) => fallback,
			getWorkflowStaticData: () => ({}),
			getMode: () => 'trigger',
			getWorkflow: () => ({ id: 'w-hooks', active: true }),
		} as never;
		EVENT_CLAIMS.polls('w-hooks', ['messageCreated']);
		let last = EVENT_CLAIMS.claim('w-hooks', 'messageCreated:0', 'webhook', 0);
		for (let i = 1; last === 'run'; i++)
			last = EVENT_CLAIMS.claim('w-hooks', `messageCreated:${i}`, 'webhook', 0);
		expect(last).toBe('left');
		await trigger.webhookMethods.default.checkExists.call(context);
		expect(EVENT_CLAIMS.claim('w-hooks', 'messageCreated:new', 'webhook', 0)).toBe('run');
		EVENT_CLAIMS.clear();
	});
});

describe("SupportChatTrigger webhook() under n8n-core's WebhookContext", () => {
	const credentials = (webhookSecret: string) => ({
		types: [new SupportChatApi()],
		data: { supportChatApi: { baseUrl: 'http://127.0.0.1:1', apiToken: 't', webhookSecret } },
	});

	test('a selected event starts a run and is answered at once', async () => {
		const result = await callWebhook({
			node: node({ events: ['messageCreated'] }),
			nodeType: trigger,
			request: {
				headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
				body: JSON.stringify({ event: 'message.created', data: { id: 9, conversation_id: 5 } }),
			},
		});
		expect(result.status).toBe(200);
		expect(result.responseBody).toBe(JSON.stringify({ received: true }));
		expect(result.responseHeaders['content-type']).toMatch(/application\/json/);
		expect(result.response.workflowData?.[0]).toHaveLength(1);
		expect(result.response.workflowData?.[0][0].json).toMatchObject({
			event: 'messageCreated',
			conversationId: 5,
			messageId: 9,
			deliveryId: 'msg_1',
		});
		// The delivery's record is saved in the node's static data.
		const saved = Object.values(result.staticData[`node:Support Chat Trigger`] ?? {});
		expect(saved).toContainEqual(
			expect.objectContaining({ seen: expect.arrayContaining([expect.any(Array)]) }),
		);
	});

	test('with Download Attachments on engine v2, a delivery is answered 500 in words and starts nothing', async () => {
		const request = {
			headers: { 'content-type': 'application/json', 'webhook-id': 'msg_v2' },
			body: JSON.stringify({ event: 'message.created', data: { id: 9, conversation_id: 5 } }),
		};
		const withFiles = node({ events: ['messageCreated'], options: { downloadAttachments: true } });
		const refused = await callWebhook({
			node: withFiles,
			nodeType: trigger,
			request,
			settings: { engineType: 'v2' },
		});
		expect(refused.status).toBe(500);
		expect(JSON.parse(String(refused.responseBody))).toEqual({
			received: false,
			error: "Download Attachments does not work in a trigger on n8n's engine v2",
		});
		expect(refused.response).toEqual({ noWebhookResponse: true });
		// On engine v2 without the option, the same delivery runs as ever.
		const accepted = await callWebhook({
			node: node({ events: ['messageCreated'] }),
			nodeType: trigger,
			request,
			settings: { engineType: 'v2' },
		});
		expect(accepted.status).toBe(200);
		expect(accepted.response.workflowData?.[0]).toHaveLength(1);
	});

	test('a repeat, with static data saved and reloaded, starts nothing', async () => {
		const request = {
			headers: { 'content-type': 'application/json', 'webhook-id': 'msg_2' },
			body: JSON.stringify({ event: 'user.created', data: { id: 3 } }),
		};
		const first = await callWebhook({ node: node({ events: ['*'] }), nodeType: trigger, request });
		const second = await callWebhook({
			node: node({ events: ['*'] }),
			nodeType: trigger,
			request,
			staticData: first.staticData,
		});
		expect(second.response.workflowData).toBeUndefined();
		expect(second.response.noWebhookResponse).toBe(true);
		expect(second.status).toBe(200);
		expect(second.responseBody).toBe(
			JSON.stringify({ received: true, ignored: 'duplicate delivery' }),
		);
	});

	test('an event not selected: 200, no workflowData at all', async () => {
		const result = await callWebhook({
			node: node({ events: ['tagApplied'] }),
			nodeType: trigger,
			request: {
				headers: { 'content-type': 'application/json' },
				body: '{"event":"user.created"}',
			},
		});
		expect(result.response).toEqual({ noWebhookResponse: true });
		expect(result.status).toBe(200);
	});

	test('a malformed form field: 400 with a short reason', async () => {
		const result = await callWebhook({
			node: node({ events: ['*'] }),
			nodeType: trigger,
			request: {
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: 'payload=%7Bbroken',
			},
		});
		expect(result.status).toBe(400);
		expect(result.responseBody).toBe(
			JSON.stringify({ received: false, error: 'Field "payload" is not valid JSON' }),
		);
		expect(result.response.workflowData).toBeUndefined();
	});

	test('HMAC verification with the secret from the credentials', async () => {
		const body = '{"event":"tag.applied","data":{"user_id":4,"tag":"vip"}}';
		const signature = createHmac('sha256', 'cred-secret').update(body).digest('hex');
		const parameters = {
			events: ['*'],
			verification: 'hmac',
			hmacHeader: 'X-Signature',
			hmacPrefix: 'sha256=',
		};
		const good = await callWebhook({
			node: node(parameters),
			nodeType: trigger,
			credentials: credentials('cred-secret'),
			request: {
				headers: { 'content-type': 'application/json', 'x-signature': `sha256=${signature}` },
				body,
			},
		});
		expect(good.response.workflowData?.[0][0].json).toMatchObject({
			event: 'tagApplied',
			userId: 4,
		});

		const bad = await callWebhook({
			node: node(parameters),
			nodeType: trigger,
			credentials: credentials('another-secret'),
			request: {
				headers: { 'content-type': 'application/json', 'x-signature': `sha256=${signature}` },
				body,
			},
		});
		expect(bad.status).toBe(401);
		expect(bad.response).toEqual({ noWebhookResponse: true });
	});

	test('verification chosen but no credentials: 401, fail closed', async () => {
		const result = await callWebhook({
			node: node({ events: ['*'], verification: 'standardWebhooks' }),
			nodeType: trigger,
			request: { headers: { 'content-type': 'application/json' }, body: '{"event":"lead"}' },
		});
		expect(result.status).toBe(401);
		expect(result.responseBody).toBe(
			JSON.stringify({ received: false, error: 'Webhook secret not configured' }),
		);
	});
});
