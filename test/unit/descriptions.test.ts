import { SupportChatApi } from '../../credentials/SupportChatApi.credentials';
import { paginationOptions, requestOptions } from '../../nodes/SupportChat/descriptions/options';
import { DEFAULT_PAGINATION } from '../../nodes/SupportChat/transport/pageShape';
import { DEFAULT_CLIENT_SETTINGS } from '../../nodes/SupportChat/transport/limits';
import { SupportChat } from '../../nodes/SupportChat/SupportChat.node';
import { SupportChatTrigger } from '../../nodes/SupportChat/SupportChatTrigger.node';

// The editor shows the literal defaults of the options; the transport falls back to its own
// constants when an option is not set. Both must say the same thing.
describe('option defaults', () => {
	const defaults = Object.fromEntries([...requestOptions, ...paginationOptions].map((p) => [p.name, p.default]));

	it('match the transport', () => {
		expect(defaults).toMatchObject({
			maxAttempts: DEFAULT_CLIENT_SETTINGS.maxAttempts,
			maxRetryWait: DEFAULT_CLIENT_SETTINGS.maxDelayMs / 1000,
			timeout: DEFAULT_CLIENT_SETTINGS.timeoutMs / 1000,
			requestsPerSecond: DEFAULT_CLIENT_SETTINGS.requestsPerSecond,
			maxResponseSize: DEFAULT_CLIENT_SETTINGS.maxResponseBytes / (1024 * 1024),
			paginationStyle: DEFAULT_PAGINATION.style,
			pageParam: DEFAULT_PAGINATION.pageParam,
			offsetParam: DEFAULT_PAGINATION.offsetParam,
			limitParam: DEFAULT_PAGINATION.limitParam,
			pageSize: DEFAULT_PAGINATION.pageSize,
			firstPage: DEFAULT_PAGINATION.firstPage,
			maxPages: DEFAULT_PAGINATION.maxPages,
			concurrency: DEFAULT_PAGINATION.concurrency,
			itemsPath: DEFAULT_PAGINATION.itemsPath,
			nextPath: DEFAULT_PAGINATION.nextPath,
			cursorParam: DEFAULT_PAGINATION.cursorParam,
		});
	});
});

describe('resource locators', () => {
	it.each([
		['userId', 'searchUsers'],
		['conversationId', 'searchConversations'],
	])('%s offers From List backed by %s, and By ID', async (name, method) => {
		const { SupportChat } = await import('../../nodes/SupportChat/SupportChat.node');
		const node = new SupportChat();
		const locators = node.description.properties.filter((p) => p.name === name);
		expect(locators.length).toBeGreaterThan(0);
		for (const locator of locators) {
			expect(locator.modes?.map((m) => m.name)).toEqual(['list', 'id']);
			expect(locator.modes?.[0].typeOptions?.searchListMethod).toBe(method);
			// In a workflow the picker opens on From List; as an AI Agent's tool (`@tool`) the model gives the ID.
			if (locator.displayOptions?.show?.['@tool']) {
				expect(locator.default).toEqual({ __rl: true, mode: 'id', value: expect.stringContaining(`$fromAI('${name}'`) });
			} else {
				expect(locator.displayOptions?.hide?.['@tool']).toEqual([true]);
				expect(locator.default).toEqual({ mode: 'list', value: '' });
			}
		}
		expect(typeof (node.methods.listSearch as Record<string, unknown>)[method]).toBe('function');
	});
});

describe('credentials', () => {
	it('authenticate with a declarative block, so the HTTP Request node can use them', async () => {
		const { SupportChatApi } = await import('../../credentials/SupportChatApi.credentials');
		// The editor lists a credential under "predefined credential type" when `authenticate` survives
		// JSON serialisation (a function would not).
		const seenByEditor = JSON.parse(JSON.stringify(new SupportChatApi()));
		expect(seenByEditor.authenticate).toEqual({
			type: 'generic',
			// REST sends the bearer token; Support Board reads its token from the body (transport/wires).
			properties: { headers: { Authorization: '={{$credentials.api === "supportBoard" ? "" : "Bearer " + $credentials.apiToken}}' } },
		});
	});

	it.each([
		['rest', 'tok_123'],
		[undefined, 'tok_123'],
		['supportBoard', 'sb-admin-token'],
	])('authenticate (run as n8n runs it) and authorizationHeader (for the credential test) give one header: api %s', async (api, apiToken) => {
		const { SupportChatApi, authorizationHeader } = await import('../../credentials/SupportChatApi.credentials');
		const expression = String(new SupportChatApi().authenticate.properties.headers?.Authorization);
		// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- test code running the credentials' own expression, as n8n does
		const run = new Function('$credentials', `return ${expression.slice(3, -2)}`) as (c: Record<string, unknown>) => string;
		const credentials: Record<string, string> = api === undefined ? { apiToken } : { api, apiToken };
		expect(authorizationHeader(credentials)).toBe(run(credentials));
		expect(run(credentials)).toBe(api === 'supportBoard' ? '' : `Bearer ${apiToken}`);
	});
});

describe('the action node\'s subtitle on the canvas', () => {
	const { description } = new SupportChat();
	// The expression is plain JavaScript over $parameter: run it as n8n's editor would.
	const expression = String(description.subtitle);
	// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- test code running the node's own subtitle text, as the editor does
	const subtitle = new Function('$parameter', `return ${expression.slice(3, -2)}`) as (p: Record<string, unknown>) => string;

	it('names resource and operation as the drop-downs show them, for every operation', () => {
		expect(expression).toMatch(/^=\{\{ .* \}\}$/);
		const resources = description.properties.find((p) => p.name === 'resource')!.options as Array<{ name: string; value: string }>;
		let checked = 0;
		for (const resource of resources) {
			const operation = description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value));
			for (const option of operation!.options as Array<{ name: string; value: string }>) {
				expect(subtitle({ resource: resource.value, operation: option.value })).toBe(`${resource.name}: ${option.name}`);
				checked++;
			}
		}
		expect(checked).toBe(24);
		expect(subtitle({ resource: 'user', operation: 'getAll' })).toBe('User: Get Many');
	});

	it('shows a value it does not know as it is', () => {
		expect(subtitle({ resource: 'user', operation: 'constructor' })).toBe('constructor: user');
	});
});

describe('the credential test', () => {
	// n8n 2.41 (CredentialsTester.getCredentialTestFunction) runs a credential type's own `test` first and
	// never reaches a node's: with one, the function that shows the service's message would be dead code.
	it('is the nodes\' function, not a declarative request of the credential type', () => {
		expect(new SupportChatApi()).not.toHaveProperty('test');
		for (const node of [new SupportChat(), new SupportChatTrigger()]) {
			const entry = node.description.credentials?.find((credential) => credential.name === 'supportChatApi');
			expect(entry?.testedBy).toBe('supportChatApiTest');
			expect(typeof node.methods?.credentialTest?.supportChatApiTest).toBe('function');
		}
	});
});
