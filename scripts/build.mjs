// Bundles the extension, the language server, the CLI and the library API into dist/ (docs/contract.md section 1).
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { basename } from "node:path";
import { build } from "esbuild";
import { buildWeb } from "./web-build.mjs";

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

/** The package version, written into the bundles so that none parses package.json at start-up. */
const { version } = JSON.parse(readFileSync("package.json", "utf8"));
const define = { SOURCECHECK_VERSION: JSON.stringify(version) };

/**
 * The MCP tool list (JSON Schemas converted from the tools' zod schemas, server/src/mcp/toolList.ts),
 * computed once here and written into the CLI, so `sourcecheck mcp` answers tools/list without
 * building or converting a zod schema at start-up (docs/architecture.md, "CLI bundles").
 */
async function mcpToolList() {
    const bundled = await build({
        ...common,
        sourcemap: false,
        entryPoints: ["server/src/mcp/toolList.ts"],
        write: false,
    });
    const module = { exports: {} };
    new Function("module", "exports", "require", bundled.outputFiles[0].text)(
        module,
        module.exports,
        createRequire(import.meta.url),
    );
    return module.exports.toolList();
}

/**
 * Lazy bundles: modules that are required only on first use, by a literal `./name` path (the registry's
 * `require("./citeCommand")`, the lock reader's `require("./lockZodSchema")`, fetch/html.ts's
 * `require("./visibleText")`, mcp/server.ts's `require("./mcpTools")`). Each is a bundle of its own in dist/, and every CLI bundle leaves that
 * require as it is (external), so it finds the bundle beside it: a command loads only its own libraries,
 * zod is parsed only when a lock is wrong, parse5 only for an HTML page and the agent tools only on `mcp`'s first tool call (docs/architecture.md,
 * "CLI bundles"). A lazy module is never imported statically: that import would load it eagerly.
 */
const COMMAND_MODULES = [
    ...new Set(
        [...readFileSync("server/src/cli/registry.ts", "utf8").matchAll(/require\("\.\/(\w+)"\)/g)].map((m) => m[1]),
    ),
].map((name) => `server/src/cli/${name}.ts`);
if (COMMAND_MODULES.length === 0) throw new Error("build: no command modules found in server/src/cli/registry.ts");
const LAZY_MODULES = [
    ...COMMAND_MODULES,
    "server/src/core/lock/lockZodSchema.ts",
    "server/src/fetch/visibleText.ts",
    "server/src/mcp/mcpTools.ts",
];
const lazyName = (path) => basename(path, ".ts");
const cliBundle = {
    ...common,
    define: { ...define, SOURCECHECK_MCP_TOOLS: JSON.stringify(await mcpToolList()) },
    external: LAZY_MODULES.map((path) => `./${lazyName(path)}`),
};

// Built afresh: a bundle no longer built (dist/check.js before the lazy bundles) must not linger and be packed.
rmSync("dist", { recursive: true, force: true });

await Promise.all([
    build({ ...common, entryPoints: ["client/src/extension.ts"], outfile: "dist/extension.js", external: ["vscode"] }),
    // The language server and the library stay self-contained: the .vsix ships dist/server.js alone.
    build({ ...common, define, entryPoints: ["server/src/server.ts"], outfile: "dist/server.js" }),
    build({ ...cliBundle, entryPoints: ["server/src/cli.ts"], outfile: "dist/cli.js" }),
    ...LAZY_MODULES.map((path) => build({ ...cliBundle, entryPoints: [path], outfile: `dist/${lazyName(path)}.js` })),
    build({ ...cliBundle, entryPoints: ["server/src/cli/checkWorker.ts"], outfile: "dist/checkWorker.js" }),
    build({ ...common, define, entryPoints: ["server/src/index.ts"], outfile: "dist/index.js" }),
    // VS Code for the Web: the browser entry and the server's web worker (scripts/web-build.mjs, docs/web.md).
    buildWeb({ production, define }),
]);
