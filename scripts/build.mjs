// Bundles the extension, the language server, the CLI and the library API into dist/ (docs/contract.md section 1).
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

/** In dist/check.js, `./cli/registry` is the full bundle's registry, loaded on first use. */
const registryFromFullCli = {
    name: "registry-from-full-cli",
    setup(builder) {
        builder.onResolve({ filter: /\/cli\/registry$/ }, () => ({ path: "registry", namespace: "full-cli" }));
        builder.onLoad({ filter: /.*/, namespace: "full-cli" }, () => ({
            contents: 'module.exports = { COMMANDS: require("./cli.js").registryCommands() };',
            loader: "js",
        }));
        builder.onResolve({ filter: /^\.\/cli\.js$/, namespace: "full-cli" }, () => ({
            path: "./cli.js",
            external: true,
        }));
    },
};

await Promise.all([
    build({ ...common, entryPoints: ["client/src/extension.ts"], outfile: "dist/extension.js", external: ["vscode"] }),
    build({ ...common, entryPoints: ["server/src/server.ts"], outfile: "dist/server.js" }),
    build({ ...common, entryPoints: ["server/src/cli.ts"], outfile: "dist/cli.js" }),
    build({ ...common, entryPoints: ["server/src/cli/evidenceMain.ts"], outfile: "dist/evidence.js" }),
    // The check bundle: the CLI without the registry of further commands (the MCP SDK, fetchers,
    // renderers...), which it borrows from dist/cli.js when a command line names one (docs/ci.md).
    build({
        ...common,
        entryPoints: ["server/src/cli.ts"],
        outfile: "dist/check.js",
        plugins: [registryFromFullCli],
    }),
    build({ ...common, entryPoints: ["server/src/cli/checkWorker.ts"], outfile: "dist/checkWorker.js" }),
    build({ ...common, entryPoints: ["server/src/index.ts"], outfile: "dist/index.js" }),
]);
