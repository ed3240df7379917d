#!/usr/bin/env node
// The `sourcecheck` command: the bundled CLI (built by `npm run build`, run on `npm ci` by `prepare`).
const { main, processIo } = require("../dist/cli.js");

process.exitCode = main(process.argv.slice(2), processIo());
