/**
 * The web bundles (scripts/web-build.mjs, docs/web.md): a Node built-in in a web bundle fails the build,
 * naming the import and who imported it; `path` alone has a browser implementation; no module is swapped
 * (the entry alone differs from Node's); the real bundles build, each under 1 MB minified.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");
const webBuild = path.join(repo, "scripts", "web-build.mjs");

/** Runs an ES module snippet that imports scripts/web-build.mjs; its status and output. */
function runModule(code: string) {
    const result = spawnSync(
        process.execPath,
        ["--input-type=module", "-e", `import * as web from ${JSON.stringify(webBuild)};\n${code}`],
        { cwd: repo, encoding: "utf8" },
    );
    return { status: result.status, output: result.stderr + result.stdout };
}

/** Builds one fixture entry with the web bundles' options. */
function buildFixture(source: string) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sc-webbuild-"));
    const entry = path.join(dir, "entry.ts");
    fs.writeFileSync(entry, source);
    return runModule(
        `import { build } from "esbuild";
        await build({ ...web.webOptions(), logLevel: "silent", entryPoints: [${JSON.stringify(entry)}], outfile: ${JSON.stringify(path.join(dir, "out.js"))} })
            .then(() => console.log("BUILT"), (e) => { console.log(e.errors.map((x) => x.text).join("\\n")); process.exit(1); });`,
    );
}

describe("web bundles", () => {
    it("builds from Node's modules with only the entry swapped: no alias, no twin, no resolving plugin", function () {
        this.timeout(30000);
        // Every option that could send an import elsewhere, and every hook a plugin registers.
        const { status, output } = runModule(
            `const options = web.webOptions({ production: true });
            const hooks = [];
            for (const plugin of options.plugins) plugin.setup({ onResolve: (o) => hooks.push([plugin.name, "resolve", String(o.filter)]), onLoad: (o) => hooks.push([plugin.name, "load", String(o.filter)]) });
            console.log(JSON.stringify({ alias: options.alias ?? {}, inject: options.inject ?? [], plugins: options.plugins.map((p) => p.name), hooks }));`,
        );
        assert.equal(status, 0, output);
        const found = JSON.parse(output);
        assert.deepEqual(found.alias, {});
        assert.deepEqual(found.inject, []);
        // The one plugin refuses Node built-ins (and maps `path`); it loads nothing.
        assert.deepEqual(found.plugins, ["reject-node-builtins"]);
        assert.deepEqual(found.hooks, [["reject-node-builtins", "resolve", "/^[a-z_:/]+$/"]]);
        assert.ok(!fs.existsSync(path.join(repo, "server", "src", "workspace", "web", "lockZodSchema.ts")));
        for (const gone of [
            "uris",
            "sha256",
            "fileStat",
            "discoveryFs",
            "lockFiles",
            "safeWrite",
            "diskDocuments",
            "safeFile",
        ])
            assert.ok(!fs.existsSync(path.join(repo, "server", "src", "workspace", "web", `${gone}.ts`)), gone);
        assert.ok(!fs.existsSync(path.join(repo, "server", "src", "evidence", "web")));
    });

    it("a Node built-in fails the build, naming it and its importer", function () {
        this.timeout(30000);
        for (const specifier of ["node:fs", "fs", "crypto", "node:worker_threads", "fs/promises"]) {
            const { status, output } = buildFixture(
                `import * as m from "${specifier}";\nexport const used = Object.keys(m).length;\n`,
            );
            assert.equal(status, 1, `${specifier}: ${output}`);
            assert.ok(
                output.includes(`a web bundle may not import the Node built-in "${specifier}" (imported by `),
                output,
            );
            assert.match(output, /entry\.ts\)/);
            assert.doesNotMatch(output, /BUILT/);
        }
    });

    it("path is the one built-in with a browser implementation (path-browserify)", function () {
        this.timeout(30000);
        const { status, output } = buildFixture(
            `import * as nodePath from "node:path";\nexport const joined = nodePath.posix.join("a", "b");\n`,
        );
        assert.equal(status, 0, output);
        assert.match(output, /BUILT/);
    });

    it("the extension's browser entry and the server's worker build, each under 1 MB minified", function () {
        this.timeout(120000);
        const out = fs.mkdtempSync(path.join(os.tmpdir(), "sc-web-"));
        const { status, output } = runModule(
            `await web.buildWeb({ production: true, outdir: ${JSON.stringify(out)}, define: { SOURCECHECK_VERSION: '"0.0.0"' } });`,
        );
        assert.equal(status, 0, output);
        for (const name of ["extension.js", "server.js"]) {
            const size = fs.statSync(path.join(out, name)).size;
            assert.ok(size > 100_000 && size <= 1024 * 1024, `${name} is ${size} bytes`);
        }
        const server = fs.readFileSync(path.join(out, "server.js"), "utf8");
        // No Node reader (no node:crypto hashing), no zod, and the worker starts a browser connection.
        assert.doesNotMatch(server, /require\("(node:)?(fs|crypto|child_process|worker_threads)"\)/);
        assert.doesNotMatch(server, /ZodError/);
        assert.match(server, /BrowserMessageReader|postMessage/);
    });
});
