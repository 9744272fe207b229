#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * npm run demo: the package in a real n8n, against the sandbox service, end to end.
 *
 * Builds the package, installs n8n once into a cache folder (the first run takes a few minutes), starts
 * the sandbox with sample data and a real n8n on 127.0.0.1 with the package installed as a community
 * package, imports and publishes the lead-escalation workflow (on Lead Captured: tag the user, assign
 * the conversation, tell the visitor), points the sandbox's webhooks at its production URL, plays a few
 * visitors, and prints what happened and where to log in.
 *
 * Interactive (a terminal, no CI): n8n and the sandbox keep running until Ctrl-C, which stops both.
 * `--once`, CI=true or no terminal: prints the summary, stops everything and exits (1 if a run failed).
 * `--no-build` skips `npm run build`.
 * `--service support-board`: the same against the sandbox's Support Board mode (the product's Web API and
 * webhooks): the lead-escalation workflow adapted to Support Board
 * (e2e/fixtures/support-board-lead-escalation.workflow.json: on a lead from the follow-up form, find the
 * visitor by e-mail, mark them `user_type` lead, assign their chat, answer), with credentials for Support
 * Board's Web API and the product's Secret key; a delivery with another Secret key is refused.
 */

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { N8N_VERSION, cacheDir, ensureN8n, startN8n } = require('../e2e/harness');
const {
	REPO_ROOT,
	SANDBOX_TOKEN,
	TRIGGER_TYPE,
	deployWorkflow,
	leadEscalationWorkflow,
	readWorkflow,
	sleep,
} = require('../e2e/support');
const { startSandbox } = require('../sandbox');

const args = new Set(process.argv.slice(2));
const serviceAt = process.argv.indexOf('--service');
const service = serviceAt === -1 ? 'rest' : process.argv[serviceAt + 1];
if (service !== 'rest' && service !== 'support-board') {
	process.stderr.write('--service takes rest or support-board\n');
	process.exit(2);
}
const interactive =
	!args.has('--once') && Boolean(process.stdout.isTTY) && !/^(1|true)$/i.test(process.env.CI ?? '');

const bold = (/** @type {string} */ text) =>
	process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text;
const dim = (/** @type {string} */ text) => (process.stdout.isTTY ? `\x1b[2m${text}\x1b[0m` : text);
const say = (/** @type {string} */ line = '') => process.stdout.write(`${line}\n`);
const step = (/** @type {string} */ line) => say(`${bold('▸')} ${line}`);
const started = Date.now();
const elapsed = (since = started) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** @type {Array<() => Promise<void>>} */
const cleanups = [];
let stopping = false;

async function stopAll() {
	if (stopping) return;
	stopping = true;
	for (const cleanup of cleanups.reverse()) {
		try {
			await cleanup();
		} catch (error) {
			process.stderr.write(`clean-up: ${/** @type {Error} */ (error).message}\n`);
		}
	}
}

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
	process.on(signal, () => {
		if (stopping) {
			// A second Ctrl-C: leave now; the harness's watchdogs end n8n once this process is gone.
			process.exit(130);
		}
		say(`\n${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping n8n and the sandbox…`);
		void stopAll().then(() => process.exit(0));
	});
}

function build() {
	if (args.has('--no-build')) return;
	const since = Date.now();
	step('Building the package (npm run build)');
	try {
		execFileSync('npm', ['run', 'build'], {
			cwd: REPO_ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
			encoding: 'utf8',
		});
	} catch (error) {
		const failed = /** @type {{ stdout?: string, stderr?: string }} */ (error);
		process.stderr.write(`${failed.stdout ?? ''}${failed.stderr ?? ''}`);
		throw new Error('npm run build failed');
	}
	say(dim(`  built in ${elapsed(since)}`));
}

async function installN8n() {
	const since = Date.now();
	const dir = cacheDir();
	const fresh = !fs.existsSync(path.join(dir, '.install-complete.json'));
	step(
		`n8n ${N8N_VERSION} ${fresh ? `is installed once into ${dir}: a few minutes, about 3 GB` : `from ${dir}`}`,
	);
	const ticker = setInterval(() => {
		let packages = 0;
		try {
			packages = fs.readdirSync(path.join(dir, 'node_modules')).length;
		} catch {
			// Not created yet.
		}
		say(
			dim(
				`  still installing… ${elapsed(since)}${packages ? `, ${packages} top-level packages so far` : ''}`,
			),
		);
	}, 30_000);
	try {
		await ensureN8n({ log: (line) => say(dim(`  ${line}`)) });
	} finally {
		clearInterval(ticker);
	}
	if (fresh) say(dim(`  installed in ${elapsed(since)}`));
}

/**
 * @param {import('../sandbox').Sandbox} sandbox
 * @param {import('../e2e/harness').N8nInstance} n8n
 * @param {string} workflowId
 */
async function playVisitors(sandbox, n8n, workflowId) {
	step('The sandbox plays three visitors:');
	const grace = sandbox.visitor.startConversation({
		name: 'Grace Hopper',
		message: 'Hi! Do you offer volume pricing for 40 seats?',
	});
	say(`  1. Grace Hopper opens conversation ${grace.conversation.id}: "${grace.message.message}"`);
	const graceSays = 'Sure, you can reach me at grace@example.com';
	sandbox.visitor.say(grace.conversation.id, graceSays);
	say(`     and writes: "${graceSays}"  ${dim('(an e-mail address in a message: Lead Captured)')}`);
	await sandbox.settled();

	const alan = sandbox.visitor.startConversation({
		name: 'Alan Turing',
		message: 'Could someone call me back?',
	});
	sandbox.visitor.captureLead({
		name: 'Alan Turing',
		phone: '+441632960961',
		conversationId: alan.conversation.id,
	});
	say(
		`  2. Alan Turing opens conversation ${alan.conversation.id} and leaves his phone number in the lead form`,
	);
	await sandbox.settled();

	sandbox.webhookSignatureOptions({ tamper: 'signature' });
	sandbox.emitWebhook('leadCaptured', {
		lead: { email: 'mallory@example.com', phone: null, via: 'form' },
	});
	say(`  3. Someone without the signing secret sends a forged Lead Captured delivery`);
	await sandbox.settled();

	// Two leads, two runs; their calls back to the service make it send more events (filtered out).
	const runs = await n8n.waitForExecutions(workflowId, { count: 2, timeoutMs: 90_000 });
	await sleep(1000);
	await sandbox.settled();
	return { grace, alan, runs };
}

/**
 * @param {import('../sandbox').Sandbox} sandbox
 * @param {import('../e2e/harness').N8nInstance} n8n
 * @param {import('../e2e/harness').Execution[]} runs
 * @param {Array<{ name: string, conversationId: string, userId: string }>} visitors
 */
function printSummary(sandbox, n8n, runs, visitors) {
	say();
	say(bold('What the service sent to n8n (webhook deliveries)'));
	for (const delivery of sandbox.deliveries) {
		let answer = delivery.response ?? delivery.error ?? '';
		try {
			const body = JSON.parse(answer);
			answer = body.ignored
				? `ignored: ${body.ignored}`
				: body.error
					? `refused: ${body.error}`
					: answer;
		} catch {
			// Not JSON: n8n's own answer for a started run.
			if (delivery.status === 200) answer = 'run started';
		}
		say(`  ${delivery.event.padEnd(22)} → ${String(delivery.status).padEnd(3)} ${answer}`);
	}

	say();
	say(bold('What n8n ran (stored executions)'));
	for (const run of runs) {
		const nodes = Object.keys(run.data?.resultData?.runData ?? {});
		const ms = run.stoppedAt ? Date.parse(run.stoppedAt) - Date.parse(run.startedAt) : NaN;
		const lead = run.data?.resultData?.runData?.[nodes[0]]?.[0]?.data?.main?.[0]?.[0]?.json ?? {};
		say(
			`  execution ${run.id}: ${run.status} in ${ms} ms, ${lead.event} for user ${lead.userId} in ${lead.conversationId}`,
		);
		say(dim(`    ${nodes.join(' → ')}`));
	}

	say();
	say(bold('What the service holds now'));
	for (const visitor of visitors) {
		const user = sandbox.state.users.find((u) => u.id === visitor.userId);
		const conversation = sandbox.state.conversations.find((c) => c.id === visitor.conversationId);
		const last = sandbox.state.messages
			.filter((m) => m.conversation_id === visitor.conversationId)
			.at(-1);
		say(`  ${visitor.name} (${visitor.userId}): tags [${user?.tags.join(', ')}]`);
		say(
			`    conversation ${visitor.conversationId}: ${conversation?.status}, assigned to ${conversation?.assignee_id ?? 'nobody'}`,
		);
		say(`    last message (${last?.type}): "${last?.message}"`);
	}
	const api = sandbox.requests.map((r) => `${r.method} ${r.path} → ${r.status}`);
	say(dim(`  API calls the workflow made: ${api.join(', ')}`));
}

const SB_TOKEN = 'demo-support-board-admin-token';
const SB_KEY = 'demo-support-board-secret-key';

/**
 * The Support Board demo: the sandbox plays the product, n8n runs the lead-escalation workflow adapted to
 * it on each lead its follow-up form sends, through the product's Web API; a delivery with another Secret
 * key is refused.
 * @returns {Promise<boolean>} whether both leads were escalated, nothing else ran, and the forged delivery was refused
 */
async function supportBoardDemo() {
	step('Starting the sandbox as Support Board (its Web API and webhooks) with sample data');
	const sandbox = await startSandbox({
		api: 'support-board',
		token: SB_TOKEN,
		seed: { users: 25, conversations: 8 },
	});
	cleanups.push(async () => await sandbox.close());
	const board = /** @type {NonNullable<typeof sandbox.supportBoard>} */ (sandbox.supportBoard);
	say(dim(`  Web API ${board.apiUrl} (admin token "${SB_TOKEN}"), control ${sandbox.controlUrl}`));
	step('Starting n8n on 127.0.0.1 with the package installed as a community package');
	const n8n = await startN8n({ mode: 'regular', log: (line) => say(dim(`  ${line}`)) });
	cleanups.push(async () => await n8n.stop());
	const workflow = readWorkflow('support-board-lead-escalation.workflow.json');
	const agent = String(Number(board.data.staff?.agent.id.slice(2)));
	const assign = workflow.nodes.find((node) => node.name === 'Assign to sales agent');
	if (assign) assign.parameters = { ...assign.parameters, assignee: agent };
	step(`Importing and publishing "${workflow.name}"`);
	const deployed = await deployWorkflow(n8n, sandbox, workflow, {
		credentials: {
			api: 'supportBoard',
			baseUrl: board.installUrl,
			apiToken: SB_TOKEN,
			allowHttp: false,
			webhookSecret: SB_KEY,
		},
	});
	board.configureWebhooks({
		url: /** @type {string} */ (deployed.triggerUrl),
		key: SB_KEY,
		active: true,
	});
	say(
		dim(
			`  Settings > Miscellaneous > Webhooks: URL ${deployed.triggerUrl}, Secret key "${SB_KEY}"`,
		),
	);
	say(
		dim(
			`  the sales agent is user ${agent}; a lead is marked with user_type "lead" (the product has no tags)`,
		),
	);
	step(
		'Two visitors chat, then leave their e-mail in the follow-up form; then someone posts with another Secret key',
	);
	/** @type {Array<{ name: string, email: string, conversationId: string, userId: string }>} */
	const visitors = [];
	for (const [first, last, email, message] of [
		['Grace', 'Hopper', 'grace@example.com', 'Do you ship to Norway?'],
		['Alan', 'Turing', 'alan@example.com', 'Can I get a demo?'],
	]) {
		const { conversation, user } = await board.visitor.start({ message, first_name: first });
		await board.visitor.followUp({
			conversationId: conversation.id,
			email,
			name: `${first} ${last}`,
		});
		visitors.push({
			name: `${first} ${last}`,
			email,
			conversationId: String(conversation.id),
			userId: String(user.id),
		});
	}
	await board.settled();
	const runs = await n8n.waitForExecutions(deployed.id, { count: 2, timeoutMs: 90_000 });
	await sleep(1000);
	await board.settled();
	board.configureWebhooks({ key: 'not-the-secret-key' });
	const forgedFrom = board.deliveries.length;
	const mallory = await board.visitor.start({ message: 'Call me back?', first_name: 'Mallory' });
	await board.visitor.followUp({
		conversationId: mallory.conversation.id,
		email: 'mallory@example.com',
	});
	await board.settled();
	await sleep(1500);
	const all = await n8n.executions({ workflowId: deployed.id, includeData: false });
	const extra = all.length - runs.length;
	say();
	say(bold('What Support Board sent to n8n (webhook deliveries)'));
	for (const d of board.deliveries)
		say(
			`  ${d.function.padEnd(26)} → ${d.status}${d.status === 401 ? ' (another Secret key)' : ''}`,
		);
	say(bold('What the workflow called (Web API functions)'));
	say(`  ${sandbox.requests.map((r) => `${r.function} → ${r.status}`).join(', ')}`);
	say(bold('What Support Board holds now'));
	let escalated = 0;
	for (const visitor of visitors) {
		const call = async (/** @type {Record<string, unknown>} */ body) =>
			/** @type {any} */ (
				await (
					await fetch(board.apiUrl, {
						method: 'POST',
						body: JSON.stringify({ token: SB_TOKEN, ...body }),
					})
				).json()
			).response;
		const user = await call({ function: 'get-user', user_id: visitor.userId });
		const chat = await call({
			function: 'get-conversation',
			conversation_id: visitor.conversationId,
		});
		const last = chat.messages.at(-1);
		const ok =
			user.user_type === 'lead' &&
			String(chat.details.agent_id) === agent &&
			/sales team/.test(last?.message ?? '');
		if (ok) escalated += 1;
		say(
			`  ${ok ? '✔' : '✘'} ${visitor.name} <${visitor.email}>: user_type ${user.user_type}; conversation ${visitor.conversationId} assigned to ${chat.details.agent_id}; last message "${last?.message}"`,
		);
	}
	const failed = runs.filter((run) => run.status !== 'success');
	// With another Secret key every delivery is refused: the forged lead and the chat before it.
	const forged = board.deliveries.slice(forgedFrom);
	const refused = forged.filter((d) => d.status === 401);
	const forgedLead = forged.some((d) => d.function === 'new-email-address');
	const ok =
		failed.length === 0 &&
		runs.length === 2 &&
		escalated === 2 &&
		extra === 0 &&
		forgedLead &&
		refused.length === forged.length;
	say(
		`${ok ? '✔' : '✘'} ${runs.length - failed.length} of 2 leads escalated; ${refused.length} of ${forged.length} deliveries with another Secret key refused (401), the forged lead among them; ` +
			`${extra} unexpected run(s). Demo took ${elapsed()}.`,
	);
	return ok;
}

async function main() {
	if (service === 'support-board') {
		say(bold('Support Chat nodes in a real n8n: the Support Board demo'));
		build();
		await installN8n();
		const ok = await supportBoardDemo();
		await stopAll();
		process.exitCode = ok ? 0 : 1;
		return;
	}
	say(bold('Support Chat nodes in a real n8n: the lead-escalation demo'));
	say(
		dim(
			interactive
				? 'n8n keeps running after the demo until you press Ctrl-C.'
				: 'Non-interactive run: prints the summary, then stops everything.',
		),
	);
	say();
	build();
	await installN8n();

	step('Starting the sandbox service with sample data');
	const sandbox = await startSandbox({
		token: SANDBOX_TOKEN,
		pagination: 'page',
		seed: { users: 25, conversations: 8, tags: ['vip', 'newsletter'] },
	});
	cleanups.push(async () => await sandbox.close());
	say(
		dim(
			`  API ${sandbox.baseUrl} (bearer token "${SANDBOX_TOKEN}"), control ${sandbox.controlUrl}`,
		),
	);

	step('Starting n8n on 127.0.0.1 with the package installed as a community package');
	const n8n = await startN8n({ mode: 'regular', log: (line) => say(dim(`  ${line}`)) });
	cleanups.push(async () => await n8n.stop());

	const { workflow, file } = leadEscalationWorkflow();
	step(`Importing and publishing "${workflow.name}" (${path.relative(REPO_ROOT, file)})`);
	const deployed = await deployWorkflow(n8n, sandbox, workflow, { connectWebhooks: true });
	const trigger = workflow.nodes.find((node) => node.type === TRIGGER_TYPE);
	say(dim(`  trigger "${trigger?.name}" listens at ${deployed.triggerUrl}`));
	say(
		dim(
			"  the sandbox sends every event there, signed (Standard Webhooks) with the credential's webhook secret",
		),
	);
	say();

	const { grace, alan, runs } = await playVisitors(sandbox, n8n, deployed.id);
	const extra =
		(await n8n.executions({ workflowId: deployed.id, includeData: false })).length - runs.length;
	printSummary(sandbox, n8n, runs, [
		{ name: 'Grace Hopper', conversationId: grace.conversation.id, userId: grace.user.id },
		{ name: 'Alan Turing', conversationId: alan.conversation.id, userId: alan.user.id },
	]);
	const failed = runs.filter((run) => run.status !== 'success');
	const forged = sandbox.deliveries.filter((d) => d.tamper);
	say();
	say(
		`${failed.length === 0 && extra === 0 ? '✔' : '✘'} ${runs.length - failed.length} of 2 leads escalated; ` +
			`${forged.filter((d) => d.status === 401).length} of ${forged.length} forged delivery refused (401); ` +
			`${extra} unexpected run(s). Demo took ${elapsed()}.`,
	);

	if (!interactive) {
		await stopAll();
		say(
			dim(
				'n8n and the sandbox are stopped. Run `npm run demo` in a terminal to keep them up and log in.',
			),
		);
		process.exitCode = failed.length === 0 && extra === 0 ? 0 : 1;
		return;
	}
	say();
	say(bold('Log in to n8n'));
	say(`  ${n8n.baseUrl}/signin   e-mail ${n8n.owner.email}   password ${n8n.owner.password}`);
	say(
		`  the workflow: ${n8n.baseUrl}/workflow/${deployed.id}   its runs: ${n8n.baseUrl}/workflow/${deployed.id}/executions`,
	);
	say();
	say(bold('Try it'));
	say('  Leave another lead as a visitor (the workflow runs again):');
	say(
		`  curl -s -X POST ${sandbox.controlUrl}/visitor/leads -H 'content-type: application/json' \\\n` +
			`       -d '{"email":"you@example.com","conversationId":"${grace.conversation.id}"}'`,
	);
	say(`  What the service holds: curl -s '${sandbox.controlUrl}/state?resource=conversations'`);
	say();
	say(bold('n8n and the sandbox keep running. Press Ctrl-C to stop them.'));
	// Stays alive on the servers' handles; the signal handlers stop everything.
}

main().catch(async (error) => {
	process.stderr.write(
		`\nThe demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	await stopAll();
	process.exit(1);
});
