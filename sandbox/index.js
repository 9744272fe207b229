// @ts-check
'use strict';

/**
 * The local stand-in of the chat service (spec 000), used by the tests, the benchmark and the demo.
 * See README.md in this folder; types in index.d.ts.
 */
module.exports = require('./sandbox');
