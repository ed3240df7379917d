// Bundles the extension, the language server, the CLI and the library API into dist/ (docs/contract.md section 1).
import { readFileSync, rmSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { basename, resolve as resolvePath } from "node:path";
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
 * The CLI's bundles. Every module of ours that another loads with `require()` (never `import`) is
 * loaded lazily, on first use, and is a bundle of its own in dist/: the commands (required by name
 * from cli/registry.ts), the lock's zod schema (only when a lock is wrong), the HTML parser (only for
 * an HTML page), the MCP tools (on the first tool call). Each bundle leaves such a `require()` as a
 * require of the bundle beside it, so a command loads only its own libraries (docs/architecture.md,
 * "CLI bundles"). The set is found in esbuild's own resolution, from the entry points down, so a
 * command added to the registry needs nothing here.
 */
const cliBundle = {
    ...common,
    // JSON text (a string literal in the bundle): mcp/server.ts says why.
    define: { ...define, SOURCECHECK_MCP_TOOLS: JSON.stringify(JSON.stringify(await mcpToolList())) },
};
/** The CLI's entry points: the command, and the worker `check --jobs` starts by its path. */
const CLI_ROOTS = { cli: "server/src/cli.ts", checkWorker: "server/src/cli/checkWorker.ts" };
/** Bundles in dist/ that are not the CLI's: a lazy module by one of these names would overwrite one. */
const OTHER_BUNDLES = new Set(["extension", "server", "index"]);
const ours = resolvePath("server/src");

/**
 * Leaves `require("./x")` of a module of ours as a require of `./x.js` beside the bundle, and a
 * `require("pkg")` in our code (picomatch, ignore: loaded on first use) as a require of `./pkg.js`;
 * reports each as bundle name -> path. A package in a bundle of its own is not parsed by the
 * commands that never call it (V8 pre-parses every function of a script it loads).
 */
function lazyRequires(found) {
    return {
        name: "lazy-requires",
        setup(plugin) {
            plugin.onResolve({ filter: /^\.\.?\//, namespace: "file" }, async (args) => {
                if (args.kind !== "require-call" || args.pluginData === "lazy-requires") return undefined;
                const { path } = await plugin.resolve(args.path, {
                    kind: args.kind,
                    resolveDir: args.resolveDir,
                    importer: args.importer,
                    pluginData: "lazy-requires",
                });
                if (!path.startsWith(`${ours}/`)) return undefined;
                found.set(basename(path, ".ts"), path);
                return { path: `./${basename(path, ".ts")}.js`, external: true };
            });
            plugin.onResolve({ filter: /^[a-z@][^:]*$/, namespace: "file" }, async (args) => {
                if (args.kind !== "require-call" || args.pluginData === "lazy-requires") return undefined;
                if (!args.importer.startsWith(`${ours}/`) || isBuiltin(args.path)) return undefined;
                const { path } = await plugin.resolve(args.path, {
                    kind: args.kind,
                    resolveDir: args.resolveDir,
                    importer: args.importer,
                    pluginData: "lazy-requires",
                });
                const name = args.path.replace(/^@/, "").replace(/\//g, "-");
                found.set(name, path);
                return { path: `./${name}.js`, external: true };
            });
        },
    };
}

/**
 * `import * as fs from "node:fs"` (and node:path) in a CommonJS bundle is a copy of the module's
 * ~100 properties into a namespace object per importing module: 13 to 25 copies per command at
 * start-up. Each bundle gets one instead (`export *` from the built-in, which the importers share).
 * Imports only: a `require()` stays where it is, lazy.
 */
const sharedBuiltinNamespaces = {
    name: "shared-builtin-namespaces",
    setup(plugin) {
        plugin.onResolve({ filter: /^node:(fs|path)$/ }, (args) =>
            args.kind === "import-statement" && args.namespace === "file"
                ? { path: args.path, namespace: "builtin-namespace" }
                : undefined,
        );
        plugin.onLoad({ filter: /.*/, namespace: "builtin-namespace" }, (args) => ({
            contents: `export * from ${JSON.stringify(args.path)};`,
            loader: "js",
        }));
    },
};

/** Builds the CLI's entry points, then each module they require lazily, until none is new. */
async function buildCli() {
    const bundles = new Map(Object.entries(CLI_ROOTS).map(([name, path]) => [name, resolvePath(path)]));
    let wave = [...bundles];
    while (wave.length > 0) {
        const found = new Map();
        await Promise.all(
            wave.map(([name, path]) =>
                build({
                    ...cliBundle,
                    entryPoints: [path],
                    outfile: `dist/${name}.js`,
                    plugins: [lazyRequires(found), sharedBuiltinNamespaces],
                }),
            ),
        );
        wave = [];
        for (const [name, path] of found) {
            if (bundles.get(name) === path) continue;
            if (bundles.has(name) || OTHER_BUNDLES.has(name)) {
                throw new Error(
                    `build: two bundles named dist/${name}.js (${path}); rename the lazily required module`,
                );
            }
            bundles.set(name, path);
            wave.push([name, path]);
        }
    }
    if (!bundles.has("checkCommand")) throw new Error("build: no command bundle found from server/src/cli.ts");
}

// Built afresh: a bundle no longer built (dist/check.js before the lazy bundles) must not linger and be packed.
rmSync("dist", { recursive: true, force: true });

await Promise.all([
    build({ ...common, entryPoints: ["client/src/extension.ts"], outfile: "dist/extension.js", external: ["vscode"] }),
    // The language server and the library stay self-contained: the .vsix ships dist/server.js alone.
    build({ ...common, define, entryPoints: ["server/src/server.ts"], outfile: "dist/server.js" }),
    buildCli(),
    build({ ...common, define, entryPoints: ["server/src/index.ts"], outfile: "dist/index.js" }),
    // VS Code for the Web: the browser entry and the server's web worker (scripts/web-build.mjs, docs/web.md).
    buildWeb({ production, define }),
]);
