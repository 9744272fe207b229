// Benchmark code, never shipped: docs/benchmark.md.
'use strict';

/**
 * The plainest Return All a node can write with n8n's request helper: `httpRequestWithAuthentication`
 * per page, page after page until an empty one, nothing else. The one baseline of both benchmarks:
 * scripts/benchWorker.ts runs it in n8n's engine, scripts/e2e-bench.js in a real n8n, which loads it
 * from a custom extensions folder (N8N_CUSTOM_EXTENSIONS). Plain CommonJS with no imports, so that a
 * real n8n can load it from any folder.
 */

/** How each sandbox style is read: where the records are and which parameters page. */
const STYLES = {
	page: { records: (body) => body.users, query: (page, size) => ({ page, per_page: size }) },
	'next-url': { records: (body) => body.data, query: (page, size) => ({ page, per_page: size }) },
	link: { records: (body) => body, query: (page, size) => ({ page, per_page: size }) },
	offset: {
		records: (body) => body.items,
		query: (page, size) => ({ offset: (page - 1) * size, limit: size }),
	},
};

/**
 * The control for what reading a body under a size bound costs: the helper hands the body over as a
 * stream, which is read to its end and parsed, and nothing else (no bound, no redirect policy, no
 * checks). A node can bound an answer's size only this way: in every other mode n8n's helper reads
 * the whole answer before handing it over.
 */
async function readAsStream(ctx, options) {
	const response = await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'supportChatApi', {
		...options,
		encoding: 'stream',
		returnFullResponse: true,
	});
	const bytes = await new Promise((resolve, reject) => {
		const chunks = [];
		response.body.on('data', (chunk) => chunks.push(chunk));
		response.body.on('end', () => resolve(Buffer.concat(chunks)));
		response.body.on('error', reject);
	});
	return JSON.parse(bytes.toString('utf8'));
}

class PlainLoop {
	constructor() {
		this.description = {
			displayName: 'Plain Loop',
			name: 'plainLoop',
			group: ['transform'],
			version: 1,
			description: 'Benchmark baseline',
			defaults: { name: 'Plain Loop' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'supportChatApi', required: true }],
			properties: [
				{ displayName: 'Style', name: 'style', type: 'string', default: 'page' },
				{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
				{ displayName: 'Page Size', name: 'pageSize', type: 'number', default: 100 },
				{ displayName: 'Support Board Token', name: 'token', type: 'string', default: '' },
				{ displayName: 'Body as a Stream', name: 'stream', type: 'boolean', default: false },
			],
		};
	}

	async execute() {
		const style = this.getNodeParameter('style', 0);
		const baseUrl = this.getNodeParameter('baseUrl', 0);
		const size = this.getNodeParameter('pageSize', 0);
		const out = [];
		if (style === 'support-board') {
			// Support Board's Web API: get-users by its 0-based page index, 100 rows a page.
			const token = this.getNodeParameter('token', 0);
			for (let page = 0; ; page++) {
				const body = await this.helpers.httpRequestWithAuthentication.call(this, 'supportChatApi', {
					method: 'POST',
					url: `${baseUrl}/include/api.php`,
					body: { function: 'get-users', token, pagination: page },
					json: true,
				});
				if (body.response.length === 0) break;
				for (const user of body.response) out.push({ json: user, pairedItem: { item: 0 } });
			}
			return [out];
		}
		const plain = STYLES[style];
		if (!plain) throw new Error(`no plain loop for style ${style}`);
		const stream = this.getNodeParameter('stream', 0, false);
		for (let page = 1; ; page++) {
			const options = {
				method: 'GET',
				url: `${baseUrl}/users`,
				qs: plain.query(page, size),
				json: true,
			};
			const body = stream
				? await readAsStream(this, options)
				: await this.helpers.httpRequestWithAuthentication.call(this, 'supportChatApi', options);
			const users = plain.records(body);
			if (users.length === 0) break;
			for (const user of users) out.push({ json: user, pairedItem: { item: 0 } });
		}
		return [out];
	}
}

module.exports = { PlainLoop };
