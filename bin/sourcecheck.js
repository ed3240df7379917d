#!/usr/bin/env node
// The `sourcecheck` command: the bundled CLI (built by `npm run build`, run on `npm ci` by `prepare`).
// `evidence` has a small bundle of its own: it starts several times faster (docs/evidence.md, "Speed").
const { main, processIo } = require(process.argv[2] === "evidence" ? "../dist/evidence.js" : "../dist/cli.js");

// Set the exit code rather than exiting: large reports are written asynchronously to pipes.
Promise.resolve(main(process.argv.slice(2), processIo())).then((status) => {
    process.exitCode = status;
});
