import { createHmac } from 'crypto';
import type { INodeProperties, IWebhookFunctions } from 'n8n-workflow';

import { SupportChatTrigger } from '../../../nodes/SupportChat/SupportChatTrigger.node';
import type { TriggerSettings } from '../../../nodes/SupportChat/trigger/handle';
import { handleDelivery } from '../../../nodes/SupportChat/trigger/handle';
import { TRIGGER_DEFAULTS } from '../../../nodes/SupportChat/trigger/defaults';
import { parseIdList, readSettings } from '../../../nodes/SupportChat/trigger/readSettings';

// The editor shows the literal defaults of the description; readSettings falls back to
// TRIGGER_DEFAULTS when a parameter is not set. Both must say the same thing.
const { properties } = new SupportChatTrigger().description;
const { options: optionDefaults, ...parameterDefaults } = TRIGGER_DEFAULTS;

function defaultsOf(list: INodeProperties[]): Record<string, unknown> {
	return Object.fromEntries(list.filter((p) => p.type !== 'notice').map((p) => [p.name, p.default]));
}

const optionsCollection = properties.find((p) => p.name === 'options')!;
const topLevel = defaultsOf(properties.filter((p) => p.name !== 'options'));
const inOptions = defaultsOf((optionsCollection.options ?? []) as INodeProperties[]);

/** A webhook context whose parameters are the given ones, falling back as n8n does. */
function context(parameters: Record<string, unknown>): IWebhookFunctions {
	return {
		getNodeParameter: (name: string, fallback: unknown) => (name in parameters ? parameters[name] : fallback),
		getCredentials: async () => {
			throw new Error('no credentials');
		},
	} as unknown as IWebhookFunctions;
}

describe('trigger defaults', () => {
	test('the description shows the defaults the code falls back to', () => {
		const { events, ...rest } = topLevel;
		expect(events).toEqual([]);
		expect(rest).toEqual(parameterDefaults);
		expect(inOptions).toEqual(optionDefaults);
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
	});

	test('unusable values fall back to the defaults', async () => {
		const settings = await readSettings(
			context({ verification: 'telepathy', timestampTolerance: -5, headerName: 7, options: { dedupeWindowMinutes: 'x' } }),
		);
		expect(settings).toMatchObject({
			verification: 'none',
			timestampTolerance: TRIGGER_DEFAULTS.timestampTolerance,
			headerName: TRIGGER_DEFAULTS.headerName,
			dedupeWindowMinutes: 0,
		});
	});

	// handleDelivery has fallbacks of its own for settings left out; they must be the same ones.
	describe('handleDelivery falls back to the same names', () => {
		const SECRET = 's3cret-value';
		const body = JSON.stringify({ event: 'user.created', data: { id: 1 } });
		const base: TriggerSettings = {
			events: ['*'],
			verification: 'none',
			secret: SECRET,
			unknownEvents: 'ignore',
			dedupeWindowMinutes: 0,
			ignoreOwnMessages: true,
			ignoredSenderIds: [],
			includeHeaders: false,
		};
		const deliver = (settings: Partial<TriggerSettings>, headers: Record<string, string>, query: Record<string, string> = {}) =>
			handleDelivery(
				{ rawBody: Buffer.from(body), headers: { 'content-type': 'application/json', ...headers }, query },
				{ ...base, ...settings },
				{},
				Date.now(),
			).status;

		test('token in the header', () => {
			expect(deliver({ verification: 'token', tokenLocation: 'header' }, { [TRIGGER_DEFAULTS.headerName.toLowerCase()]: SECRET })).toBe(200);
			expect(deliver({ verification: 'token', tokenLocation: 'header' }, { 'x-other-token': SECRET })).toBe(401);
		});

		test('token in the query', () => {
			expect(deliver({ verification: 'token' }, {}, { [TRIGGER_DEFAULTS.queryParameterName]: SECRET })).toBe(200);
		});

		test('HMAC header, algorithm and encoding', () => {
			const digest = createHmac(TRIGGER_DEFAULTS.hmacAlgorithm, SECRET).update(body).digest(TRIGGER_DEFAULTS.hmacEncoding);
			expect(deliver({ verification: 'hmac' }, { [TRIGGER_DEFAULTS.hmacHeader.toLowerCase()]: digest })).toBe(200);
		});
	});
});

describe('parseIdList', () => {
	test.each([
		['12, 57', ['12', '57']],
		['12;57\n 99', ['12', '57', '99']],
		['', []],
		[42, ['42']],
		[[' 1 ', 2, ''], ['1', '2']],
		[undefined, []],
		[{ id: 1 }, []],
	])('%j', (value, expected) => {
		expect(parseIdList(value)).toEqual(expected);
	});
});
