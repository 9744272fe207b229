// @ts-check
'use strict';

/**
 * A real MCP client (`@modelcontextprotocol/sdk`, the one MCP hosts build on) for n8n's MCP Server
 * Trigger. The SDK ships CommonJS next to its ES modules (package `exports` with a `require`
 * condition), so plain `require` works under ts-jest's CommonJS and under `node`; no dynamic import.
 *
 * n8n 2.41's trigger (v2 and later) serves both transports at one URL: Streamable HTTP (POST, the one
 * n8n's own MCP Client node defaults to) and SSE (GET, which n8n labels "Deprecated").
 */

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { SSEClientTransport } = require('@modelcontextprotocol/sdk/client/sse.js');
const {
	StreamableHTTPClientTransport,
} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

/** @typedef {'streamable-http' | 'sse'} McpTransportKind */

/**
 * @typedef {object} McpConnectOptions
 * @property {McpTransportKind} [transport] Default `streamable-http`.
 * @property {Record<string, string>} [headers] Sent with every request, e.g. `authorization`.
 */

/**
 * Connects and initialises a session (the `initialize` handshake); `close()` ends it.
 * @param {string} url The trigger's MCP URL, e.g. `n8n.mcpUrl(path)`.
 * @param {McpConnectOptions} [options]
 * @returns {Promise<Client>}
 */
async function connectMcpClient(url, options = {}) {
	const requestInit = { headers: options.headers ?? {} };
	const transport =
		options.transport === 'sse'
			? new SSEClientTransport(new URL(url), { requestInit })
			: new StreamableHTTPClientTransport(new URL(url), { requestInit });
	const client = new Client({ name: 'support-chat-e2e', version: '1.0.0' });
	await client.connect(transport);
	return client;
}

module.exports = { connectMcpClient };
