// @ts-check
'use strict';

/**
 * The project's goal for Return All against the plainest loop over n8n's request helper
 * (scripts/plainLoop), read by both benchmarks: at least 1.0× sequentially and 1.3× with Pagination
 * Concurrency 4, on the page styles whose declared count the node plans the remaining pages from.
 */
const GOAL = { sequential: 1.0, concurrent: 1.3 };
/** page declares total_pages, offset a total, link a rel="last" beside rel="next". */
const GOAL_STYLES = /** @type {const} */ (['page', 'offset', 'link']);
/**
 * Support Board's lists declare no count: with Pagination Concurrency 4 the node reads pages ahead by
 * number. Its goal against the plain loop, on the sandbox answering each call 20 ms late.
 */
const READ_AHEAD_GOAL = 1.5;

module.exports = { GOAL, GOAL_STYLES, READ_AHEAD_GOAL };
