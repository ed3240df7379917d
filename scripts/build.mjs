// Bundles the extension, the language server, the CLI and the library API into dist/ (DESIGN section 1).
import { build } from "esbuild";

const production = process.argv.includes("--production");
const common = {
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    sourcemap: !production,
    minify: production,
    logLevel: "warning",
    // jsonc-parser's UMD main uses dynamic requires esbuild cannot follow; its ESM build bundles cleanly.
    mainFields: ["module", "main"],
};

await Promise.all([
    build({ ...common, entryPoints: ["client/src/extension.ts"], outfile: "dist/extension.js", external: ["vscode"] }),
    build({ ...common, entryPoints: ["server/src/server.ts"], outfile: "dist/server.js" }),
    build({ ...common, entryPoints: ["server/src/cli.ts"], outfile: "dist/cli.js" }),
    build({ ...common, entryPoints: ["server/src/cli/evidenceMain.ts"], outfile: "dist/evidence.js" }),
    build({ ...common, entryPoints: ["server/src/cli/checkWorker.ts"], outfile: "dist/checkWorker.js" }),
    build({ ...common, entryPoints: ["server/src/index.ts"], outfile: "dist/index.js" }),
]);
