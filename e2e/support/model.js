// @ts-check
'use strict';

/**
 * A scripted OpenAI-compatible model on 127.0.0.1, for an AI Agent in a real n8n to talk to: the
 * Responses API (`POST /v1/responses`, what n8n's OpenAI Chat Model 1.3 uses by default), Chat
 * Completions (`POST /v1/chat/completions`, with "Use Responses API" off) and `GET /v1/models` (the
 * credential test and the model picker). It records every request as received, and answers by a
 * rule that needs no state: while the conversation holds no tool result, it calls the scripted tool
 * with the scripted arguments; with a scripted follow-up, the first result picks a second call; once
 * its calls have results, it answers with text that quotes the last tool's result.
 * Tool definitions and tool results are read back in one shape for both APIs (`toolsOf`,
 * `toolResultsOf`), so a test asserts what the model received, whichever API carried it.
 */

const http = require('node:http');

const { readBody, sendJson } = require('../../sandbox/httpio');

/** A recorded request; `authorization` is reduced to whether it carried the key. */
/**
 * @typedef {object} ModelRequest
 * @property {'responses' | 'chat'} api
 * @property {string} method
 * @property {string} path
 * @property {boolean} authorised Whether it carried `Authorization: Bearer <the key>`.
 * @property {any} body
 */

/**
 * A tool as the model was offered it.
 * @typedef {object} OfferedTool
 * @property {string} name
 * @property {string} description
 * @property {any} parameters JSON schema of the arguments.
 */

/**
 * A tool's result as handed back to the model.
 * @typedef {object} ToolResult
 * @property {string} callId
 * @property {string} output The text the model received.
 */

/**
 * What the model does on its first turn: call the tool whose name matches `tool` (a name, or a
 * test of one) with `args`. With `then`, the second turn is the call `then` makes of the first tool's
 * result (the text the model received), as a model that read it would choose. The turn after the
 * last call answers `Done: <the last tool result>`.
 * @typedef {object} ModelCall
 * @property {string | RegExp} tool
 * @property {Record<string, unknown>} args
 * @typedef {ModelCall & { then?: (output: string) => ModelCall }} ModelScript
 */

/**
 * @typedef {object} ScriptedModel
 * @property {string} baseUrl `http://127.0.0.1:PORT/v1`, the credential's Base URL.
 * @property {string} apiKey
 * @property {ModelRequest[]} requests Every request, in order (live array).
 * @property {(script: ModelScript) => void} script Sets what the model does from now on; clears the log.
 * @property {() => Promise<void>} close
 */

const MODEL = 'gpt-4.1-mini';

/**
 * The tools offered in a request, in one shape for both APIs. Responses: `{type:'function', name,
 * description, parameters}`; Chat Completions: `{type:'function', function:{name, description, parameters}}`.
 * @param {ModelRequest} request
 * @returns {OfferedTool[]}
 */
function toolsOf(request) {
	const tools = Array.isArray(request.body?.tools) ? request.body.tools : [];
	return tools.map((/** @type {any} */ tool) => {
		const fn = request.api === 'chat' ? tool.function : tool;
		return { name: fn.name, description: fn.description, parameters: fn.parameters };
	});
}

/**
 * The tool results handed back in a request. Responses: input items `{type:'function_call_output',
 * call_id, output}`; Chat Completions: messages `{role:'tool', tool_call_id, content}`.
 * @param {ModelRequest} request
 * @returns {ToolResult[]}
 */
function toolResultsOf(request) {
	if (request.api === 'chat') {
		const messages = Array.isArray(request.body?.messages) ? request.body.messages : [];
		return messages
			.filter((/** @type {any} */ m) => m.role === 'tool')
			.map((/** @type {any} */ m) => ({ callId: m.tool_call_id, output: contentText(m.content) }));
	}
	const input = Array.isArray(request.body?.input) ? request.body.input : [];
	return input
		.filter((/** @type {any} */ item) => item.type === 'function_call_output')
		.map((/** @type {any} */ item) => ({ callId: item.call_id, output: contentText(item.output) }));
}

/**
 * Message content as text: a string, or the text parts of a content list.
 * @param {unknown} content
 * @returns {string}
 */
function contentText(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content.map((part) => (typeof part === 'string' ? part : (part?.text ?? ''))).join('');
	return content === undefined || content === null ? '' : JSON.stringify(content);
}

/**
 * The next turn for a conversation: a tool call while no tool result has come back, then the text.
 * @param {ModelRequest} request
 * @param {ModelScript | undefined} script
 * @param {number} turn A counter for unique ids.
 * @returns {{ kind: 'call', name: string, args: string, callId: string } | { kind: 'text', text: string }}
 */
function nextTurn(request, script, turn) {
	const results = toolResultsOf(request);
	if (!script) return { kind: 'text', text: 'No script was set for this test.' };
	const calls = script.then ? 2 : 1;
	if (results.length >= calls)
		return { kind: 'text', text: `Done: ${results[results.length - 1].output}` };
	const call = results.length === 0 ? script : script.then?.(results[0].output);
	if (!call) return { kind: 'text', text: 'The script has no call for this turn.' };
	const match = toolsOf(request).find((tool) =>
		typeof call.tool === 'string' ? tool.name === call.tool : call.tool.test(tool.name),
	);
	if (!match) {
		const names = toolsOf(request).map((tool) => tool.name);
		return {
			kind: 'text',
			text: `The scripted tool ${String(call.tool)} was not offered (offered: ${names.join(', ')}).`,
		};
	}
	return {
		kind: 'call',
		name: match.name,
		args: JSON.stringify(call.args),
		callId: `call_${turn}`,
	};
}

const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };

/**
 * A Responses API answer (non-streaming), as the OpenAI SDK parses it.
 * @param {ReturnType<typeof nextTurn>} turn
 * @param {number} n
 */
function responsesAnswer(turn, n) {
	const output =
		turn.kind === 'call'
			? [
					{
						type: 'function_call',
						id: `fc_${n}`,
						call_id: turn.callId,
						name: turn.name,
						arguments: turn.args,
						status: 'completed',
					},
				]
			: [
					{
						type: 'message',
						id: `msg_${n}`,
						role: 'assistant',
						status: 'completed',
						content: [{ type: 'output_text', text: turn.text, annotations: [] }],
					},
				];
	return {
		id: `resp_${n}`,
		object: 'response',
		created_at: Math.floor(Date.now() / 1000),
		status: 'completed',
		model: MODEL,
		output,
		output_text: turn.kind === 'text' ? turn.text : '',
		parallel_tool_calls: true,
		tool_choice: 'auto',
		tools: [],
		usage,
	};
}

/**
 * A Chat Completions answer (non-streaming).
 * @param {ReturnType<typeof nextTurn>} turn
 * @param {number} n
 */
function chatAnswer(turn, n) {
	const message =
		turn.kind === 'call'
			? {
					role: 'assistant',
					content: null,
					tool_calls: [
						{
							id: turn.callId,
							type: 'function',
							function: { name: turn.name, arguments: turn.args },
						},
					],
				}
			: { role: 'assistant', content: turn.text };
	return {
		id: `chatcmpl_${n}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: MODEL,
		choices: [{ index: 0, message, finish_reason: turn.kind === 'call' ? 'tool_calls' : 'stop' }],
		usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
	};
}

/**
 * Starts the scripted model on a free port of 127.0.0.1.
 * @param {{ apiKey?: string }} [options]
 * @returns {Promise<ScriptedModel>}
 */
async function startModel(options = {}) {
	const apiKey = options.apiKey ?? 'sk-e2e-scripted-model';
	/** @type {ModelRequest[]} */
	const requests = [];
	/** @type {ModelScript | undefined} */
	let script;
	let turns = 0;

	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const authorised = req.headers.authorization === `Bearer ${apiKey}`;
		readBody(req)
			.then(({ text, tooLarge }) => {
				if (tooLarge)
					return sendJson(res, 413, {
						error: { message: 'request body too large', type: 'invalid_request_error' },
					});
				if (req.method === 'GET' && url.pathname === '/v1/models') {
					if (!authorised)
						return sendJson(res, 401, {
							error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
						});
					return sendJson(res, 200, {
						object: 'list',
						data: [{ id: MODEL, object: 'model', created: 0, owned_by: 'e2e' }],
					});
				}
				const api =
					url.pathname === '/v1/responses'
						? 'responses'
						: url.pathname === '/v1/chat/completions'
							? 'chat'
							: undefined;
				if (req.method !== 'POST' || api === undefined) {
					return sendJson(res, 404, {
						error: {
							message: `No route ${req.method} ${url.pathname}`,
							type: 'invalid_request_error',
						},
					});
				}
				/** @type {ModelRequest} */
				const request = {
					api,
					method: req.method,
					path: url.pathname,
					authorised,
					body: JSON.parse(text),
				};
				requests.push(request);
				if (!authorised)
					return sendJson(res, 401, {
						error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
					});
				// Nothing in these scenarios asks for a stream; answering one as a plain body would hide that.
				if (request.body.stream === true) {
					return sendJson(res, 400, {
						error: { message: 'The scripted model does not stream', type: 'invalid_request_error' },
					});
				}
				const n = ++turns;
				const turn = nextTurn(request, script, n);
				return sendJson(
					res,
					200,
					api === 'responses' ? responsesAnswer(turn, n) : chatAnswer(turn, n),
				);
			})
			.catch((error) =>
				sendJson(res, 400, {
					error: { message: String(error?.message ?? error), type: 'invalid_request_error' },
				}),
			);
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		baseUrl: `http://127.0.0.1:${address.port}/v1`,
		apiKey,
		requests,
		script: (next) => {
			script = next;
			requests.length = 0;
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

module.exports = { startModel, toolsOf, toolResultsOf, MODEL };
