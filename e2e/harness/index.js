// @ts-check
'use strict';

/**
 * End-to-end harness: a real n8n (installed once into a cache folder, run under Node 24) with this
 * repository's package installed as a user's community package. Types: index.d.ts.
 */

const constants = require('./constants');
const { HttpError, request, requestOk } = require('./http');
const { ensureN8n } = require('./install');
const { startN8n } = require('./n8n');
const { installPackage, packPackage } = require('./package');

module.exports = {
	N8N_VERSION: constants.N8N_VERSION,
	NODE_VERSION: constants.NODE_VERSION,
	PACKAGE_NAME: constants.PACKAGE_NAME,
	cacheDir: constants.cacheDir,
	ensureN8n,
	startN8n,
	packPackage,
	installPackage,
	request,
	requestOk,
	HttpError,
};
