import { createHmac } from 'crypto';
import type { INodeProperties, IWebhookFunctions } from 'n8n-workflow';

import { SupportChatTrigger } from '../../../nodes/SupportChat/SupportChatTrigger.node';
import { attachmentOptions } from '../../../nodes/SupportChat/files/downloadOptions';
import { DEFAULT_CLIENT_SETTINGS } from '../../../nodes/SupportChat/transport/limits';
import { handleDelivery } from '../../../nodes/SupportChat/trigger/handle';
import {
	SELF_SETUP_DEFAULTS,
	TRIGGER_DEFAULTS,
	readSettings,
} from '../../../nodes/SupportChat/trigger/triggerSettings';
import { triggerSettings } from '../../helpers/trigger';

// The editor shows the literal defaults of the description; readSettings falls back to
// TRIGGER_DEFAULTS when a parameter is not set. Both must say the same thing.
const { properties } = new SupportChatTrigger().description;
const { options: optionDefaults, ...parameterDefaults } = TRIGGER_DEFAULTS;

function defaultsOf(list: INodeProperties[]): Record<string, unknown> {
	return Object.fromEntries(
		list.filter((p) => p.type !== 'notice').map((p) => [p.name, p.default]),
	);
}

const optionsCollection = properties.find((p) => p.name === 'options')!;
const topLevel = defaultsOf(properties.filter((p) => p.name !== 'options'));
const inOptions = defaultsOf((optionsCollection.options ?? []) as INodeProperties[]);

/** A webhook context whose parameters are the given ones, falling back as n8n does; without a secret, no credentials. */
function context(parameters: Record<string, unknown>, webhookSecret?: string): IWebhookFunctions {
	return {
		getNodeParameter: (name: string, fallback: unknown) =>
			name in parameters ? parameters[name] : fallback,
		getCredentials: async () => {
			if (webhookSecret === undefined) throw new Error('no credentials');
			return { webhookSecret };
		},
	} as unknown as IWebhookFunctions;
}

/** The names a secret is looked up by, and the algorithm: emptied in the editor, each is its default. */
const EMPTIED_NAMES = {
	queryParameterName: '',
	headerName: '',
	hmacHeader: '',
	hmacAlgorithm: '',
	keyField: '',
};

describe('trigger defaults', () => {
	test('the description shows the defaults the code falls back to', () => {
		const { events, ...rest } = topLevel;
		expect(events).toEqual([]);
		expect(rest).toEqual({ ...parameterDefaults, ...SELF_SETUP_DEFAULTS });
		// Download Attachments' options are the action node's and the poll trigger's too, their defaults
		// checked in test/unit/files/downloadOptions.test.ts; its Timeout is the client's.
		expect(inOptions).toEqual({
			...optionDefaults,
			...defaultsOf(attachmentOptions),
			timeout: DEFAULT_CLIENT_SETTINGS.timeoutMs / 1000,
		});
		expect(topLevel.headerName).toBe('X-Webhook-Token');
		expect(topLevel.hmacHeader).toBe('X-Signature');
		expect(topLevel.timestampTolerance).toBe(300);
		expect(inOptions.dedupeWindowMinutes).toBe(1440);
	});

	test('a node saved with nothing set reads the same settings as one saved with the editor defaults', async () => {
		const fromNothing = await readSettings(context({}));
		const fromEditor = await readSettings(context({ ...topLevel, options: inOptions }));
		expect(fromEditor).toEqual(fromNothing);
		expect(fromNothing).toEqual({
			events: [],
			verification: 'none',
			secret: '',
			credentialSecrets: [],
			timestampTolerance: 300,
			tokenLocation: 'query',
			queryParameterName: 'token',
			headerName: 'X-Webhook-Token',
			hmacHeader: 'X-Signature',
			hmacAlgorithm: 'sha256',
			hmacEncoding: 'hex',
			hmacPrefix: '',
			keyField: 'key',
			unknownEvents: 'ignore',
			dedupeWindowMinutes: 1440,
			ignoreOwnMessages: true,
			ignoredSenderIds: [],
			includeHeaders: false,
		});
		// The tests' settings helper is these settings.
		expect(triggerSettings()).toEqual(fromNothing);
	});

	test('unusable values fall back to the defaults', async () => {
		const settings = await readSettings(
			context({
				verification: 'telepathy',
				timestampTolerance: -5,
				headerName: 7,
				options: { dedupeWindowMinutes: 'x' },
			}),
		);
		expect(settings).toMatchObject({
			verification: 'none',
			timestampTolerance: TRIGGER_DEFAULTS.timestampTolerance,
			headerName: TRIGGER_DEFAULTS.headerName,
			dedupeWindowMinutes: 0,
		});
	});

	test('emptied names read as the defaults', async () => {
		const settings = await readSettings(context(EMPTIED_NAMES));
		expect(settings).toMatchObject({
			queryParameterName: topLevel.queryParameterName,
			headerName: topLevel.headerName,
			hmacHeader: topLevel.hmacHeader,
			hmacAlgorithm: topLevel.hmacAlgorithm,
			keyField: topLevel.keyField,
		});
	});

	// The defaults are applied once, by readSettings. What the user sees: a node left at its defaults (or
	// with a name emptied) checks deliveries by the names the editor shows as defaults.
	describe.each([
		['nothing set', {}],
		['names emptied', EMPTIED_NAMES],
	])('a node with %s verifies by the names the editor shows', (_, names) => {
		const SECRET = 's3cret-value';
		const body = JSON.stringify({
			event: 'user.created',
			data: { id: 1 },
			[String(topLevel.keyField)]: SECRET,
		});
		const deliver = async (
			parameters: Record<string, unknown>,
			headers: Record<string, string>,
			query: Record<string, string> = {},
		) =>
			handleDelivery(
				{
					rawBody: Buffer.from(body),
					headers: { 'content-type': 'application/json', ...headers },
					query,
				},
				await readSettings(context({ ...names, ...parameters }, SECRET)),
				{},
				Date.now(),
			).status;

		test('token in the header', async () => {
			const token = { verification: 'token', tokenLocation: 'header' };
			expect(await deliver(token, { [String(topLevel.headerName).toLowerCase()]: SECRET })).toBe(
				200,
			);
			expect(await deliver(token, { 'x-other-token': SECRET })).toBe(401);
		});

		test('token in the query', async () => {
			expect(
				await deliver(
					{ verification: 'token' },
					{},
					{ [String(topLevel.queryParameterName)]: SECRET },
				),
			).toBe(200);
			expect(await deliver({ verification: 'token' }, {}, { other: SECRET })).toBe(401);
		});

		test('HMAC header, algorithm and encoding', async () => {
			const digest = createHmac(String(topLevel.hmacAlgorithm), SECRET)
				.update(body)
				.digest(TRIGGER_DEFAULTS.hmacEncoding);
			expect(
				await deliver(
					{ verification: 'hmac' },
					{ [String(topLevel.hmacHeader).toLowerCase()]: digest },
				),
			).toBe(200);
			expect(await deliver({ verification: 'hmac' }, { 'x-other-signature': digest })).toBe(401);
		});

		test('secret field in the body', async () => {
			expect(await deliver({ verification: 'bodyField' }, {})).toBe(200);
		});
	});
});
