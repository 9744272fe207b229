// n8n loads the package through the "n8n" block of package.json; this entry only exists for tooling.
module.exports = {};
