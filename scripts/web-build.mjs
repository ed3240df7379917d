// The web bundles (docs/web.md): the extension's `browser` entry and the language server as a web worker,
// built with esbuild for `platform: "browser"`. No Node built-in may reach them: `rejectNodeBuiltins`
// fails the build naming the import and who pulled it in (test/unit/webBuild.test.ts proves it).
import { builtinModules, createRequire } from "node:module";
import { build } from "esbuild";

const require = createRequire(import.meta.url);

/**
 * The one built-in with a browser implementation: `path`, as path-browserify (what VS Code's own web
 * extensions bundle). The workspace has POSIX paths in the browser too (a URI's path: docs/web.md).
 */
const BROWSER_BUILTINS = { path: require.resolve("path-browserify") };

const BUILTINS = new Set(builtinModules.map((name) => name.replace(/^node:/, "")));

/** The bare name of a built-in import (`node:fs/promises` -> `fs`), or undefined when it is none. */
function builtinName(specifier) {
    const bare = specifier.replace(/^node:/, "");
    const root = bare.split("/")[0];
    return specifier.startsWith("node:") || BUILTINS.has(root) ? root : undefined;
}

/** An esbuild plugin: every Node built-in import but those of BROWSER_BUILTINS is an error. */
export const rejectNodeBuiltins = {
    name: "reject-node-builtins",
    setup(build) {
        build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
            const name = builtinName(args.path);
            if (name === undefined) return undefined;
            if (BROWSER_BUILTINS[name]) return { path: BROWSER_BUILTINS[name] };
            return {
                errors: [
                    {
                        text: `a web bundle may not import the Node built-in "${args.path}" (imported by ${args.importer}): give the browser its own implementation behind an interface (docs/web.md)`,
                    },
                ],
            };
        });
    },
};

/** Options both web bundles share; `production` minifies (the ≤ 1 MB budget is for minified bundles). */
export function webOptions({ production = false, define = {} } = {}) {
    return {
        bundle: true,
        platform: "browser",
        format: "cjs",
        target: "es2022",
        sourcemap: !production,
        minify: production,
        logLevel: "warning",
        mainFields: ["browser", "module", "main"],
        define: { ...define, "process.env.NODE_ENV": JSON.stringify(production ? "production" : "development") },
        // One plugin, which only refuses: no module is swapped, so the worker runs the modules Node runs.
        plugins: [rejectNodeBuiltins],
    };
}

/** Build the client's browser entry and the language server's web worker into dist/web/. */
export function buildWeb({ production = false, define = {}, outdir = "dist/web" } = {}) {
    const options = webOptions({ production, define });
    return Promise.all([
        build({
            ...options,
            entryPoints: ["client/src/browserExtension.ts"],
            outfile: `${outdir}/extension.js`,
            external: ["vscode"],
        }),
        // A web worker runs a classic script: an IIFE, not a CommonJS module.
        build({
            ...options,
            format: "iife",
            entryPoints: ["server/src/browserServer.ts"],
            outfile: `${outdir}/server.js`,
        }),
    ]);
}
