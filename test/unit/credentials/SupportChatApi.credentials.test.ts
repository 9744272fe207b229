describe('credentials', () => {
	it('authenticate with a declarative block, so the HTTP Request node can use them', async () => {
		const { SupportChatApi } = await import('../../../credentials/SupportChatApi.credentials');
		// The editor lists a credential under "predefined credential type" when `authenticate` survives
		// JSON serialisation (a function would not).
		const seenByEditor = JSON.parse(JSON.stringify(new SupportChatApi()));
		expect(seenByEditor.authenticate).toEqual({
			type: 'generic',
			// REST sends the bearer token; Support Board reads its token from the body (transport/wires).
			properties: {
				headers: {
					Authorization:
						'={{$credentials.api === "supportBoard" ? "" : "Bearer " + $credentials.apiToken}}',
				},
			},
		});
	});

	it.each([
		['rest', 'tok_123'],
		[undefined, 'tok_123'],
		['supportBoard', 'sb-admin-token'],
	])(
		'authenticate (run as n8n runs it) and authorizationHeader (for the credential test) give one header: api %s',
		async (api, apiToken) => {
			const { SupportChatApi, authorizationHeader } = await import(
				'../../../credentials/SupportChatApi.credentials'
			);
			const expression = String(
				new SupportChatApi().authenticate.properties.headers?.Authorization,
			);
			// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- test code running the credentials' own expression, as n8n does
			const run = new Function('$credentials', `return ${expression.slice(3, -2)}`) as (
				c: Record<string, unknown>,
			) => string;
			const credentials: Record<string, string> =
				api === undefined ? { apiToken } : { api, apiToken };
			expect(authorizationHeader(credentials)).toBe(run(credentials));
			expect(run(credentials)).toBe(api === 'supportBoard' ? '' : `Bearer ${apiToken}`);
		},
	);
});
