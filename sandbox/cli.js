#!/usr/bin/env node
// @ts-check
'use strict';

const { parseArgs } = require('node:util');
const { startSandbox } = require('./sandbox');

const USAGE = `Usage: node sandbox/cli.js [options]

Starts the chat service sandbox on 127.0.0.1 and prints its base URL on the first line of stdout
(with --api support-board: the install URL a Support Board user enters, {origin}/script).

  --api <name>             rest (the description's REST paths) or support-board (Support Board's
                           Web API at /script/include/api.php; --token is the admin token) (default rest)
  --port <n>               port (default 5679; 0 = any free port)
  --token <text>           bearer token the API requires (default demo-token)
  --pagination <style>     none, array, link, next-url, links-next, hal, cursor, cursor-meta,
                           has-more, page, page-nototal, page-nototal-404, offset,
                           offset-nototal (default page)
  --envelope <name>        none, data, success-response (default none)
  --error-style <name>     message, error, errors, detail, text, html (default message)
  --page-size <n>          default page size (default 20)
  --max-page-size <n>      largest page size a client may ask for (default 100)
  --tag-shape <shape>      objects or strings (default objects)
  --delete-status <n>      200 or 204 (default 200)
  --public-origin <url>    origin written into next-page links (default: the request's Host)
  --seed-users <n>         seeded users (default 25)
  --seed-conversations <n> seeded conversations (default 10)
  --seed-tags <a,b>        seeded tag list (default vip,lead)
  --no-log                 keep no request log (long runs)
  --webhook-urls <a,b>     webhook receivers, comma-separated (default none)
  --webhook-style <name>   dotted, flat-php, event-header, nested, human (default dotted)
  --webhook-secret <text>  sign deliveries (Standard Webhooks); whsec_<base64> or any text
  --webhook-kinds <a,b>    kinds to send (default all): conversationCreated, messageCreated,
                           conversationClosed, userCreated, tagApplied, leadCaptured
  --webhook-retries <n>    attempts in all per delivery (default 1)
  --sb-webhook-url <url>   support-board: Settings > Webhooks URL (one URL; default none)
  --sb-webhook-key <text>  support-board: the Secret key sent as \`key\` in every body (default empty)
  --sb-webhook-allowed <a,b> support-board: the "Active webhooks" names (default all)
  --sb-latency-ms <n>      support-board: every Web API call answers n ms later (default 0)
  -h, --help`;

/** @param {string | undefined} value @param {number} fallback @param {string} name */
function int(value, fallback, name) {
	if (value === undefined) return fallback;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 0)
		throw new TypeError(`--${name} must be a non-negative integer`);
	return n;
}

async function main() {
	const { values } = parseArgs({
		options: {
			api: { type: 'string' },
			port: { type: 'string' },
			token: { type: 'string' },
			pagination: { type: 'string' },
			envelope: { type: 'string' },
			'error-style': { type: 'string' },
			'page-size': { type: 'string' },
			'max-page-size': { type: 'string' },
			'tag-shape': { type: 'string' },
			'delete-status': { type: 'string' },
			'public-origin': { type: 'string' },
			'seed-users': { type: 'string' },
			'seed-conversations': { type: 'string' },
			'seed-tags': { type: 'string' },
			'no-log': { type: 'boolean' },
			'webhook-urls': { type: 'string' },
			'webhook-style': { type: 'string' },
			'webhook-secret': { type: 'string' },
			'webhook-kinds': { type: 'string' },
			'webhook-retries': { type: 'string' },
			'sb-webhook-url': { type: 'string' },
			'sb-webhook-key': { type: 'string' },
			'sb-webhook-allowed': { type: 'string' },
			'sb-latency-ms': { type: 'string' },
			help: { type: 'boolean', short: 'h' },
		},
	});
	if (values.help) {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	const api = values.api ?? 'rest';
	if (api !== 'rest' && api !== 'support-board')
		throw new TypeError('--api must be rest or support-board');
	const sb = await startSandbox({
		api,
		port: int(values.port, 5679, 'port'),
		token: values.token ?? 'demo-token',
		pagination: /** @type {import('./pagination').PaginationStyle} */ (values.pagination ?? 'page'),
		envelope: /** @type {import('./envelope').Envelope} */ (values.envelope ?? 'none'),
		errorStyle: /** @type {import('./errors').ErrorStyle} */ (values['error-style'] ?? 'message'),
		pageSize: int(values['page-size'], 20, 'page-size'),
		maxPageSize: int(values['max-page-size'], 100, 'max-page-size'),
		tagShape: /** @type {import('./sandbox').TagShape} */ (values['tag-shape'] ?? 'objects'),
		deleteStatus: /** @type {200 | 204} */ (int(values['delete-status'], 200, 'delete-status')),
		publicOrigin: values['public-origin'] ?? null,
		log: !values['no-log'],
		webhooks: {
			urls: values['webhook-urls'] ?? '',
			style: /** @type {import('./webhooks').WebhookStyle} */ (values['webhook-style'] ?? 'dotted'),
			secret: values['webhook-secret'] ?? null,
			...(values['webhook-kinds'] === undefined ? {} : { kinds: values['webhook-kinds'] }),
			retry:
				int(values['webhook-retries'], 0, 'webhook-retries') > 1
					? { attempts: int(values['webhook-retries'], 1, 'webhook-retries'), delayMs: 500 }
					: null,
		},
		supportBoard: {
			latencyMs: int(values['sb-latency-ms'], 0, 'sb-latency-ms'),
			webhooks: {
				url: values['sb-webhook-url'] ?? null,
				key: values['sb-webhook-key'] ?? '',
				allowed: values['sb-webhook-allowed'] ?? null,
			},
		},
		seed: {
			users: int(values['seed-users'], 25, 'seed-users'),
			conversations: int(values['seed-conversations'], 10, 'seed-conversations'),
			tags: (values['seed-tags'] ?? 'vip,lead')
				.split(',')
				.map((t) => t.trim())
				.filter(Boolean),
		},
	});
	process.stdout.write(`${sb.supportBoard ? sb.supportBoard.installUrl : sb.baseUrl}\n`);
	const sbUrl = sb.supportBoard?.webhooks.url;
	const hooks = sbUrl
		? `; Support Board webhooks to ${sbUrl}`
		: sb.webhooks.urls.length > 0
			? `; webhooks (${sb.webhooks.style}) to ${sb.webhooks.urls.join(', ')}`
			: '';
	process.stderr.write(
		`sandbox: control API at ${sb.controlUrl}/ (pagination ${sb.config.pagination}${hooks}); Ctrl-C to stop\n`,
	);
	const stop = () => {
		sb.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((error) => {
	process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(1);
});
