// @ts-check
'use strict';

const ENVELOPES = Object.freeze(/** @type {const} */ (['none', 'data', 'success-response']));
/** @typedef {(typeof ENVELOPES)[number]} Envelope */

/**
 * @param {unknown} record
 * @param {Envelope} envelope
 */
function wrapRecord(record, envelope) {
	if (envelope === 'data') return { data: record };
	if (envelope === 'success-response') return { success: true, response: record };
	return record;
}

/**
 * A list page keeps its own `data` when it has one: `{ data: { data: [...] } }` is not something
 * services do.
 * @param {unknown} page
 * @param {Envelope} envelope
 */
function wrapPage(page, envelope) {
	if (envelope === 'data') {
		const hasData =
			typeof page === 'object' && page !== null && !Array.isArray(page) && 'data' in page;
		return hasData ? page : { data: page };
	}
	if (envelope === 'success-response') return { success: true, response: page };
	return page;
}

module.exports = { ENVELOPES, wrapRecord, wrapPage };
