describe('resource locators', () => {
	it.each([
		['userId', 'searchUsers'],
		['conversationId', 'searchConversations'],
	])('%s offers From List backed by %s, and By ID', async (name, method) => {
		const { SupportChat } = await import('../../../nodes/SupportChat/SupportChat.node');
		const node = new SupportChat();
		const locators = node.description.properties.filter((p) => p.name === name);
		expect(locators.length).toBeGreaterThan(0);
		for (const locator of locators) {
			expect(locator.modes?.map((m) => m.name)).toEqual(['list', 'id']);
			expect(locator.modes?.[0].typeOptions?.searchListMethod).toBe(method);
			// In a workflow the picker opens on From List; as an AI Agent's tool (`@tool`) the model gives the ID.
			if (locator.displayOptions?.show?.['@tool']) {
				expect(locator.default).toEqual({
					__rl: true,
					mode: 'id',
					value: expect.stringContaining(`$fromAI('${name}'`),
				});
			} else {
				expect(locator.displayOptions?.hide?.['@tool']).toEqual([true]);
				expect(locator.default).toEqual({ mode: 'list', value: '' });
			}
		}
		expect(typeof (node.methods.listSearch as Record<string, unknown>)[method]).toBe('function');
	});
});
