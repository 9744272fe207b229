// @ts-check
'use strict';

/**
 * The n8n editor in a real browser: Debian's chromium, driven by playwright-core. Installs chromium
 * with apt when it is missing (a fresh CI machine), launches it with a fresh profile, signs in through
 * n8n's sign-in page, and writes the screenshots of the README and docs/ when asked to.
 */

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { chromium, selectors } = require('playwright-core');

const { REPO_ROOT } = require('../harness/constants');

const CHROMIUM = '/usr/bin/chromium';

/**
 * Without the background-networking flags Chromium keeps opening outgoing connections (updates,
 * safe browsing, sync) that a closed network refuses many at a time.
 */
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];

/** `npm run docs:screenshots` sets it: the suite then (re)writes docs/images/*.png. */
const SCREENSHOTS_ENV = 'SUPPORT_CHAT_DOCS_SCREENSHOTS';
const IMAGES_DIR = path.join(REPO_ROOT, 'docs', 'images');
/** What an image of the README or docs/ may weigh. */
const MAX_SCREENSHOT_BYTES = 150 * 1024;

/** @param {string} line */
const stderrLog = (line) => process.stderr.write(`[e2e] ${line}\n`);

/**
 * Makes sure Debian's chromium is installed: `apt-get update && apt-get install -y chromium` when it
 * is not (as root). Throws a message saying what to do when that is impossible.
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {string} The browser's path.
 */
function ensureChromium(options = {}) {
	const log = options.log ?? stderrLog;
	if (fs.existsSync(CHROMIUM)) return CHROMIUM;
	const missing = `${CHROMIUM} is missing and could not be installed`;
	const how =
		'install it as root with `apt-get update && apt-get install -y chromium` (Debian/Ubuntu) and run again';
	if (typeof process.getuid !== 'function' || process.getuid() !== 0)
		throw new Error(`${missing}: not root; ${how}`);
	if (!fs.existsSync('/usr/bin/apt-get'))
		throw new Error(`${missing}: no apt-get on this machine; ${how}`);
	log('installing chromium with apt-get (once per machine)');
	const started = Date.now();
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	try {
		execFileSync('apt-get', ['update'], {
			stdio: ['ignore', 'ignore', 'inherit'],
			env,
			timeout: 10 * 60_000,
		});
		execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
			stdio: ['ignore', 'ignore', 'inherit'],
			env,
			timeout: 20 * 60_000,
		});
	} catch (error) {
		throw new Error(
			`${missing}: apt-get failed (${/** @type {Error} */ (error).message.split('\n')[0]}); ${how}`,
		);
	}
	if (!fs.existsSync(CHROMIUM))
		throw new Error(`${missing}: apt-get installed no ${CHROMIUM}; ${how}`);
	log(`chromium installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return CHROMIUM;
}

/**
 * Launches chromium headless. Every launch gets a profile of its own in a new temporary folder,
 * removed when the browser closes: nothing carries over between runs.
 * @returns {Promise<import('playwright-core').Browser>}
 */
async function launchBrowser() {
	// n8n's own test ids: `getByTestId` then finds what n8n's editor tests find.
	selectors.setTestIdAttribute('data-test-id');
	return await chromium.launch({
		executablePath: ensureChromium(),
		args: CHROMIUM_ARGS,
		headless: true,
	});
}

/**
 * A page of the editor in a new browser context: light or dark theme (n8n reads `N8N_THEME` from local
 * storage), a viewport large enough for the node view's two panels.
 * @param {import('playwright-core').Browser} browser
 * @param {{ theme?: 'light' | 'dark', viewport?: { width: number, height: number } }} [options]
 */
async function newEditorPage(browser, options = {}) {
	const theme = options.theme ?? 'light';
	const context = await browser.newContext({
		viewport: options.viewport ?? { width: 1360, height: 860 },
		colorScheme: theme,
		deviceScaleFactor: 1,
		reducedMotion: 'reduce',
	});
	await context.addInitScript(
		(value) => /** @type {any} */ (globalThis).localStorage.setItem('N8N_THEME', value),
		theme,
	);
	const page = await context.newPage();
	page.setDefaultTimeout(20_000);
	return page;
}

/**
 * Signs in through n8n's sign-in page as a user would, and waits for the overview.
 * @param {import('playwright-core').Page} page
 * @param {string} baseUrl
 * @param {{ email: string, password: string }} user
 */
async function signIn(page, baseUrl, user) {
	await page.goto(`${baseUrl}/signin`);
	await page.getByLabel('Email').fill(user.email);
	await page.getByLabel('Password').fill(user.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/** Whether this run writes the screenshots of the README and docs/. */
const writingScreenshots = () => process.env[SCREENSHOTS_ENV] === '1';

/**
 * Writes `docs/images/<name>.png` from what the locator shows, only under `npm run docs:screenshots`:
 * an ordinary test run never rewrites committed files. Fails when the image would be heavier than
 * MAX_SCREENSHOT_BYTES allows.
 * @param {import('playwright-core').Locator} locator
 * @param {string} name
 * @param {{ mask?: import('playwright-core').Locator[] }} [options]
 * @returns {Promise<string | undefined>} The file written, if any.
 */
async function screenshot(locator, name, options = {}) {
	if (!writingScreenshots()) return undefined;
	fs.mkdirSync(IMAGES_DIR, { recursive: true });
	const file = path.join(IMAGES_DIR, `${name}.png`);
	// Toasts of earlier steps ("Credential saved") would cover the panel.
	await locator
		.page()
		.addStyleTag({ content: '.el-notification { visibility: hidden !important; }' });
	const image = await locator.screenshot({
		animations: 'disabled',
		caret: 'hide',
		mask: options.mask,
	});
	if (image.length > MAX_SCREENSHOT_BYTES) {
		throw new Error(
			`${name}.png would be ${Math.round(image.length / 1024)} KB (at most ${MAX_SCREENSHOT_BYTES / 1024} KB)`,
		);
	}
	fs.writeFileSync(file, image);
	stderrLog(`wrote docs/images/${name}.png (${Math.round(image.length / 1024)} KB)`);
	return file;
}

module.exports = {
	CHROMIUM,
	CHROMIUM_ARGS,
	SCREENSHOTS_ENV,
	IMAGES_DIR,
	MAX_SCREENSHOT_BYTES,
	ensureChromium,
	launchBrowser,
	newEditorPage,
	signIn,
	writingScreenshots,
	screenshot,
};
