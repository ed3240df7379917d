#!/usr/bin/env node
// The `sourcecheck` command: the bundled CLI (built by `npm run build`, run on `npm ci` by `prepare`).
// dist/cli.js holds the first commands (check, session, validate, index); each further command is a
// bundle of its own beside it, loaded only when named (docs/architecture.md, "CLI bundles").
const { main, processIo } = require("../dist/cli.js");

// Set the exit code rather than exiting: large reports are written asynchronously to pipes.
Promise.resolve(main(process.argv.slice(2), processIo())).then((status) => {
    process.exitCode = status;
});
