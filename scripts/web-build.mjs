// The web bundles (docs/web.md): the extension's `browser` entry and the language server as a web worker,
// built with esbuild for `platform: "browser"`. No Node built-in may reach them: `rejectNodeBuiltins`
// fails the build naming the import and who pulled it in (test/unit/webBuild.test.ts proves it).
import { existsSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { join, resolve } from "node:path";
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

/**
 * Node modules with a browser twin (the same exports, for the browser): the safe reader, for the
 * configuration files, over the client's files (server/src/workspace/web/safeFile.ts, over the
 * ClientFiles the web entry installs), and the lock schema's zod wording. No longer twins: the client's
 * connection to its server (each entry passes its own: client/src/browserExtension.ts), SHA-256 and
 * CRC-32 (one module each, node:crypto and node:zlib where the host has them), URIs, where links lead,
 * the discovery walk, the locks and the document reader (the web entry gives the language service its
 * UriSpace, realPath, walk, locks and readers), the safe writer (nothing in the worker imports it) and
 * the evidence index's file codec (bundled, never reached: the browser's index lives in memory). This
 * is the `browser` field's module map, done here because the manifest's `browser` field names the web
 * entry (docs/web.md); test/unit/webBuild.test.ts lists what is left.
 */
export const WEB_TWINS = Object.fromEntries(
    [
        ...["safeFile"].map((name) => [`server/src/workspace/${name}`, `server/src/workspace/web/${name}`]),
        // zod only words what is wrong with a lock already refused, and is half the worker's size.
        ["server/src/core/lock/lockZodSchema", "server/src/workspace/web/lockZodSchema"],
    ].map(([node, web]) => [resolve(node), resolve(`${web}.ts`)]),
);

/** An esbuild plugin: an import of a twinned module resolves to its twin. */
export const useWebTwins = {
    name: "use-web-twins",
    setup(build) {
        build.onResolve({ filter: /^\.\.?\// }, (args) => {
            const twin = WEB_TWINS[join(args.resolveDir, args.path).replace(/\.ts$/, "")];
            if (twin === undefined) return undefined;
            if (!existsSync(twin)) return { errors: [{ text: `the web twin ${twin} is missing` }] };
            return { path: twin };
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
        plugins: [useWebTwins, rejectNodeBuiltins],
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
