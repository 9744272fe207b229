// @ts-check
'use strict';

/**
 * What a user does in n8n 2.41's editor, as locators and steps: the node panel, the node view (NDV)
 * with its parameters, pickers and output, the credential dialog. Selectors are n8n's own test ids
 * (`data-test-id`, set as the test id attribute by `launchBrowser`), roles and visible text, found in
 * n8n's editor and its Playwright page objects (packages/testing/playwright/pages).
 */

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Locator} Locator */

/**
 * A new, empty workflow in the editor.
 * @param {Page} page
 * @param {string} baseUrl
 */
async function newWorkflow(page, baseUrl) {
	await page.goto(`${baseUrl}/workflow/new`);
	await page.getByTestId('node-creator-plus-button').waitFor();
}

/**
 * Opens the node panel and types into its search.
 * @param {Page} page
 * @param {string} text
 * @returns {Promise<Locator>} The panel.
 */
async function searchNodePanel(page, text) {
	const panel = page.getByTestId('node-creator');
	if (!(await panel.getByTestId('node-creator-search-bar').isVisible()))
		await page.getByTestId('node-creator-plus-button').click();
	await panel.getByTestId('node-creator-search-bar').fill(text);
	return panel;
}

/**
 * The node panel's entries, each `{ name, description }`.
 * @param {Locator} panel
 */
async function nodePanelEntries(panel) {
	const items = panel.getByTestId('item-iterator-item');
	return await items.evaluateAll((elements) =>
		elements.map((element) => ({
			name:
				element.querySelector('[data-test-id="node-creator-item-name"]')?.textContent?.trim() ?? '',
			description:
				element
					.querySelector('[data-test-id="node-creator-item-description"]')
					?.textContent?.trim() ?? '',
			text: /** @type {any} */ (element.innerText ?? '').trim(),
		})),
	);
}

/**
 * Waits until the node panel has drawn `count` named entries. n8n's panel draws a long list a few
 * entries per tick (its ItemsRenderer's lazy rendering), so a list read as soon as the headers show may
 * lack its last entries.
 * @param {Locator} panel
 * @param {number} count
 */
async function waitForPanelEntries(panel, count) {
	await panel
		.page()
		.waitForFunction(
			([element, expected]) =>
				[
					.../** @type {any} */ (element).querySelectorAll('[data-test-id="item-iterator-item"]'),
				].filter((item) =>
					item.querySelector('[data-test-id="node-creator-item-name"]')?.textContent?.trim(),
				).length >= expected,
			/** @type {const} */ ([await panel.elementHandle(), count]),
		);
}

/**
 * The icons the node panel shows for an entry, once loaded: `{ src, width }` (width 0: not drawn).
 * @param {Locator} entry
 */
async function loadedIcons(entry) {
	const images = entry.locator('img');
	await images.first().waitFor();
	await entry
		.page()
		.waitForFunction(
			(elements) => elements.every((image) => /** @type {any} */ (image).complete),
			await images.elementHandles(),
		);
	return await images.evaluateAll((elements) =>
		elements.map((image) => ({
			src: /** @type {any} */ (image).src,
			width: /** @type {any} */ (image).naturalWidth,
		})),
	);
}

/**
 * Adds a node from the node panel: searches, opens the app's entry, clicks one of its triggers or
 * actions by the text the panel shows (`On lead captured`, `Get many users`). The node view opens.
 * @param {Page} page
 * @param {{ search: string, app: string, item: string }} what
 * @returns {Promise<Locator>} The node view.
 */
async function addNode(page, what) {
	const panel = await searchNodePanel(page, what.search);
	await panel
		.getByTestId('item-iterator-item')
		.filter({ has: page.getByText(what.app, { exact: true }) })
		.first()
		.click();
	const item = panel
		.getByTestId('item-iterator-item')
		.filter({ has: page.getByText(what.item, { exact: true }) });
	if (!(await item.isVisible())) await panel.getByText(/^Actions \(\d+\)$/).click();
	await item.click();
	const ndv = page.getByTestId('ndv');
	await ndv.waitFor();
	return ndv;
}

/**
 * The visible parameter labels of the node view's Parameters tab, in order.
 * @param {Locator} ndv
 */
async function parameterLabels(ndv) {
	const labels = ndv
		.getByTestId('node-parameters')
		.locator('label.n8n-input-label')
		.filter({ visible: true });
	// A label's text ends with the Fixed / Expression switch the editor adds to it.
	return (await labels.allInnerTexts()).map((text) =>
		text
			.split('\n')[0]
			.replace(/\s*Fixed\s*Expression$/, '')
			.trim(),
	);
}

/**
 * Chooses an option of a parameter's drop-down by its shown name (an entry also shows the option's
 * description, so it is found by its name line).
 * @param {Locator} ndv
 * @param {string} parameter
 * @param {string} option
 */
async function chooseOption(ndv, parameter, option) {
	const page = ndv.page();
	const input = ndv.getByTestId(`parameter-input-${parameter}`);
	await input.click();
	const entries = page.getByRole('option').filter({ visible: true });
	await entries
		.filter({ has: page.getByText(option, { exact: true }) })
		.first()
		.click();
	await entries.first().waitFor({ state: 'hidden' });
	await input.locator('input').first().waitFor();
	for (let i = 0; i < 50 && (await input.locator('input').first().inputValue()) !== option; i++)
		await page.waitForTimeout(100);
	const chosen = await input.locator('input').first().inputValue();
	if (chosen !== option)
		throw new Error(`${parameter} shows "${chosen}" after choosing "${option}"`);
}

/**
 * A resource locator parameter (`From list`, `By ID`…).
 * @param {Locator} ndv
 * @param {string} parameter
 */
function resourceLocator(ndv, parameter) {
	const root = ndv.getByTestId(`resource-locator-${parameter}`);
	const page = ndv.page();
	return {
		root,
		/** The picker's entries, once the list is open. */
		items: page.getByTestId('rlc-item'),
		search: page.getByTestId('rlc-search'),
		async open() {
			await root.getByTestId('rlc-input').click();
			await page.getByTestId('rlc-item').first().waitFor();
		},
		/** @param {string} mode As the mode selector shows it: `From list`, `By ID`, `By Name`. */
		async mode(mode) {
			await root.getByTestId('rlc-mode-selector').click();
			await page.getByRole('option', { name: mode, exact: true }).click();
		},
		/** The text the parameter's input shows. */
		async value() {
			const input = root.getByTestId('rlc-input');
			const tag = await input.evaluate((element) => element.tagName);
			return tag === 'INPUT'
				? await input.inputValue()
				: await input.locator('input').first().inputValue();
		},
		/** @param {string} value */
		async type(value) {
			const input = root
				.locator('input[data-test-id="rlc-input"]')
				.or(root.getByTestId('rlc-input').locator('input'));
			await input.first().fill(value);
			await input.first().press('Tab');
			// The editor stores typed text after a debounce; a run started sooner is refused with the
			// value before ("Parameter … is required"), which a person typing never meets.
			await page.waitForTimeout(1000);
		},
	};
}

/**
 * Runs the open node with its own button. The editor starts the run with `POST /rest/workflows/…/run`
 * and gets the result later over its push connection: this returns the execution's id, for the caller
 * to wait on, and the output panel.
 * @param {Locator} ndv
 * @returns {Promise<{ executionId: string, output: Locator }>}
 */
async function executeStep(ndv) {
	const page = ndv.page();
	const started = page.waitForResponse(
		(r) => r.request().method() === 'POST' && /\/rest\/workflows\/[^/]+\/run/.test(r.url()),
	);
	await ndv.getByTestId('node-execute-button').click();
	const response = await started;
	const body = await response.json();
	const executionId = body?.data?.executionId;
	if (!response.ok() || typeof executionId !== 'string')
		throw new Error(`the editor's run did not start: ${response.status()} ${JSON.stringify(body)}`);
	return { executionId, output: ndv.getByTestId('output-panel') };
}

/**
 * Polls `read` until its value deep-equals `expected` (JSON) or the time is up; returns the last value,
 * for the caller's assertion to show what the page showed.
 * @template T
 * @param {() => Promise<T>} read
 * @param {T} expected
 * @param {number} [timeoutMs]
 * @returns {Promise<T>}
 */
async function settle(read, expected, timeoutMs = 15_000) {
	const end = Date.now() + timeoutMs;
	const want = JSON.stringify(expected);
	for (;;) {
		const value = await read();
		if (JSON.stringify(value) === want || Date.now() > end) return value;
		await new Promise((resolve) => setTimeout(resolve, 150));
	}
}

/**
 * The output panel's table: header names and rows of cell texts (the page the panel shows).
 * @param {Locator} output
 */
async function outputTable(output) {
	await output.getByRole('radio', { name: 'Table' }).click();
	const table = output.getByTestId('ndv-data-container').locator('table').first();
	await table.waitFor();
	const headers = (await table.locator('thead th').allInnerTexts())
		.map((text) => text.trim())
		.filter(Boolean);
	const rows = await table
		.locator('tbody tr')
		.evaluateAll((trs) =>
			trs.map((tr) =>
				[...tr.querySelectorAll(':scope > td')].map((td) =>
					/** @type {any} */ (td.innerText ?? '').trim(),
				),
			),
		);
	return { headers, rows };
}

/**
 * The item count the output panel states ("45 items").
 * @param {Locator} output
 */
async function outputItemCount(output) {
	const text = await output
		.getByText(/^\d+ items?$/)
		.first()
		.innerText();
	return Number(text.split(' ')[0]);
}

/**
 * Closes the node view.
 * @param {Page} page
 */
async function closeNdv(page) {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

module.exports = {
	newWorkflow,
	searchNodePanel,
	nodePanelEntries,
	waitForPanelEntries,
	loadedIcons,
	addNode,
	parameterLabels,
	chooseOption,
	resourceLocator,
	executeStep,
	settle,
	outputTable,
	outputItemCount,
	closeNdv,
};
