// @ts-check
'use strict';

/**
 * End-to-end harness: a real n8n (installed once into a cache folder, run under Node 24) with this
 * repository's package installed as a user's community package. Each type is declared once, in JSDoc
 * in the module that owns it (checked by `tsc -p e2e`); these names re-export the public ones.
 *
 * @typedef {import('./constants').N8nLine} N8nLine
 * @typedef {import('./install').N8nInstall} N8nInstall
 * @typedef {import('./package').PackedPackage} PackedPackage
 * @typedef {import('./processes').ManagedProcess} ManagedProcess
 * @typedef {import('./http').RequestOptions} RequestOptions
 * @typedef {import('./n8n').StartOptions} StartOptions
 * @typedef {import('./n8n').CredentialJson} CredentialJson
 * @typedef {import('./n8n').WorkflowNodeJson} WorkflowNodeJson
 * @typedef {import('./n8n').WorkflowJson} WorkflowJson
 * @typedef {import('./n8n').Execution} Execution
 * @typedef {import('./n8n').CliResult} CliResult
 * @typedef {import('./n8n').N8nInstance} N8nInstance
 */
/**
 * @template [T=any]
 * @typedef {import('./http').HttpResponse<T>} HttpResponse
 */

const constants = require('./constants');
const { HttpError, request, requestOk } = require('./http');
const { ensureN8n } = require('./install');
const { startN8n } = require('./n8n');
const { installPackage, packPackage } = require('./package');

module.exports = {
	N8N_VERSION: constants.N8N_VERSION,
	NODE_VERSION: constants.NODE_VERSION,
	N8N_LINES: constants.N8N_LINES,
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
