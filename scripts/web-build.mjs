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
 * Node modules with a browser twin (the same exports, for the browser): only the lock schema's zod
 * wording. Everything else the worker does differently is passed in by its entry (server/src/browserHost.ts:
 * the client's files, readers, walk, locks, realPath and UriSpace; client/src/browserExtension.ts: the
 * server's connection), or is one module for both builds (SHA-256 and CRC-32 ask the host for node:crypto
 * and node:zlib; the evidence index's file codec is bundled and never reached). This is the `browser`
 * field's module map, done here because the manifest's `browser` field names the web entry (docs/web.md);
 * test/unit/webBuild.test.ts lists what is left.
 */
export const WEB_TWINS = Object.fromEntries(
    [
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
