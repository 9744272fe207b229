'use strict';

const { TestEnvironment } = require('jest-environment-node');

/**
 * Node environment that records, for the harness, whether a test or hook of the file failed: `stop()`
 * then prints the tail of every n8n log and keeps the run's folder and database for a look.
 */
class E2eEnvironment extends TestEnvironment {
	/** @param {{ name: string }} event */
	async handleTestEvent(event) {
		if (event.name === 'test_fn_failure' || event.name === 'hook_failure') {
			this.global.__supportChatE2eFailed = true;
		}
	}
}

module.exports = E2eEnvironment;
