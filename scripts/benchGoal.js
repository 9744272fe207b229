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

module.exports = { GOAL, GOAL_STYLES };
