// @ts-check
'use strict';

/**
 * What a Support Board function can end in, and how api.php answers each:
 * - `ok`: 200 `{"success":true,"response":value}`
 * - `refused`: 200 `{"success":false,"response":code}` (the product's SBValidationError)
 * - `error`: 200 `{"status":"error","response":code[,"message"]}` (an SBError raised inside a function)
 * - `fatal`: 500 with an empty body (PHP died: a foreign key or SQL error)
 * - `missing`: 501, a function of the Web API that the sandbox does not imitate
 *
 * @typedef {{ ok: unknown } | { refused: string } | { error: string, message?: string } | { fatal: string } | { missing: string }} Outcome
 *
 * The webhook a function fires: its name and data, sent before the answer as the product does.
 * @typedef {{ name: string, data: unknown }} Fired
 *
 * What every function gets.
 * @typedef {object} CallContext
 * @property {import('./supportBoardRecords').SupportBoardData} data
 * @property {import('./store').Store} store
 * @property {import('./supportBoardPhp').Params} params
 * @property {(name: string, data: unknown) => void} fire Queues a webhook; the caller sends them in order.
 */

/** @param {unknown} value @returns {Outcome} */
const ok = (value) => ({ ok: value });
/** @param {string} code @returns {Outcome} */
const refused = (code) => ({ refused: code });
/** @param {string} code @param {string} [message] @returns {Outcome} */
const error = (code, message) =>
	message === undefined ? { error: code } : { error: code, message };
/** @param {string} why Logged for the test author; the client sees an empty 500. @returns {Outcome} */
const fatal = (why) => ({ fatal: why });

module.exports = { ok, refused, error, fatal };
