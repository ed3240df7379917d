#!/usr/bin/env node
// The `sourcecheck` command: the bundled CLI (built by `npm run build`, run on `npm ci` by `prepare`).
// `evidence` has a small bundle of its own: it starts several times faster (docs/evidence.md, "Speed").
// `check` (and the other first commands) run from dist/check.js, the CLI without the registry of
// further commands, which it loads from dist/cli.js only when one is named (docs/ci.md, "Start-up").
const { main, processIo } = require(process.argv[2] === "evidence" ? "../dist/evidence.js" : "../dist/check.js");

// Set the exit code rather than exiting: large reports are written asynchronously to pipes.
Promise.resolve(main(process.argv.slice(2), processIo())).then((status) => {
    process.exitCode = status;
});
