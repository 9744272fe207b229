// n8n loads the package through the "n8n" block of package.json, so the published tarball has no
// entry point; this file only answers require() of the repository folder (tooling, tests).
module.exports = {};
