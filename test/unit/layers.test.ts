/**
 * The layer rules of `npm run lint` (.dependency-cruiser.cjs, docs/architecture.md) fail on a
 * forbidden import: run on a small tree laid out like the repository, each rule fires on its own
 * violation and on nothing else, and the same tree without the violations passes.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");

function lay(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sc-layers-"));
    fs.symlinkSync(path.join(repo, "node_modules"), path.join(dir, "node_modules"), "dir");
    fs.writeFileSync(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { module: "commonjs", moduleResolution: "node", strict: true } }),
    );
    for (const [file, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
    }
    return dir;
}

function cruise(dir: string): { status: number | null; output: string } {
    const result = spawnSync(
        process.execPath,
        [
            path.join(repo, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs"),
            "--config",
            path.join(repo, ".dependency-cruiser.cjs"),
            "--output-type",
            "err",
            "server/src",
            "client/src",
            "shared",
        ],
        { cwd: dir, encoding: "utf8" },
    );
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const CLEAN: Record<string, string> = {
    "shared/protocol.ts": "export const NAME = 'x';\n",
    "server/src/core/a.ts": "import { NAME } from '../../../shared/protocol';\nexport const A = NAME;\n",
    "server/src/workspace/files.ts": "import * as fs from 'node:fs';\nexport const read = fs.readFileSync;\n",
    "server/src/features/hover.ts":
        "import type { Hover } from 'vscode-languageserver-protocol';\nimport { A } from '../core/a';\nexport const h: Hover | string = A;\n",
    "server/src/cli/run.ts": "import { read } from '../workspace/files';\nexport const run = read;\n",
    "server/src/operations/op.ts": "import { A } from '../core/a';\nexport const op = A;\n",
    "server/src/mcp/tools.ts": "import { read } from '../workspace/files';\nexport const tools = read;\n",
    "client/src/view.ts": "import { NAME } from '../../shared/protocol';\nexport const v = NAME;\n",
    "server/src/quotes/notes.ts": "import { A } from '../core/a';\nexport const notes = A;\n",
    "server/src/workspace/pages.ts": "import { A } from '../core/a';\nexport const pages = A;\n",
    "server/src/languageService.ts": "import { h } from './features/hover';\nexport const service = { hover: h };\n",
    "server/src/lsp/context.ts":
        "import type { service } from '../languageService';\nexport type Context = typeof service;\n",
    // The one door: the Node workspace, the front ends' composition and tests may do I/O; a type is no import.
    "server/src/workspace/safeWrite.ts":
        "import * as fs from 'node:fs';\nexport type Snapshot = { size: number };\nexport const write = fs.writeFileSync;\n",
    "server/src/node/tools.ts": "import { write } from '../workspace/safeWrite';\nexport const lockWrite = write;\n",
    "server/src/mcp/diskContext.ts":
        "import * as fs from 'node:fs';\nimport { lockWrite } from '../node/tools';\nexport const disk = [fs, lockWrite];\n",
    "server/src/service/core.ts":
        "import type { Snapshot } from '../workspace/safeWrite';\nexport const core = (s: Snapshot) => s.size;\n",
    "client/src/test/hooks.test.ts": "import * as fs from 'node:fs';\nexport const hooks = fs;\n",
    "server/src/lsp/hover.ts":
        "import type { Connection } from 'vscode-languageserver/node';\nimport { NAME } from '../../../shared/protocol';\nimport { service } from '../languageService';\nimport type { Context } from './context';\nexport const register = (c: Connection, x?: Context) => [c, x, service, NAME];\n",
};

describe("layers the build enforces (dependency-cruiser in npm run lint)", () => {
    it("passes a tree that keeps to the layers", function () {
        this.timeout(120_000);
        const dir = lay(CLEAN);
        try {
            const { status, output } = cruise(dir);
            assert.equal(status, 0, output);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("fails on each forbidden import, naming its rule", function () {
        this.timeout(120_000);
        const violations: Record<string, [string, string]> = {
            "core-is-pure": ["server/src/core/bad.ts", "import * as fs from 'node:fs';\nexport const b = fs;\n"],
            "features-are-thin": [
                "server/src/features/bad.ts",
                "import { run } from '../cli/run';\nimport type { Connection } from 'vscode-languageserver';\nexport const b: Connection | typeof run = run;\n",
            ],
            "connection-in-lsp-only": [
                "server/src/languageService.ts",
                "import type { Connection } from 'vscode-languageserver/node';\nexport const b = (c: Connection) => c;\n",
            ],
            "operations-over-capabilities": [
                "server/src/operations/bad.ts",
                "import { read } from '../workspace/files';\nexport const b = read;\n",
            ],
            // Below the features and the quote files: what a page's text is lives in core/, not quotes/.
            "workspace-below-features": [
                "server/src/workspace/bad.ts",
                "import { h } from '../features/hover';\nimport { notes } from '../quotes/notes';\nexport const b = [h, notes];\n",
            ],
            "mcp-not-into-cli": ["server/src/mcp/bad.ts", "import { run } from '../cli/run';\nexport const b = run;\n"],
            // A registration past the service, even for a type only.
            "lsp-through-the-service": [
                "server/src/lsp/bad.ts",
                "import type { h } from '../features/hover';\nimport { read } from '../workspace/files';\nexport const b: typeof h | typeof read = read;\n",
            ],
            // Files through the one door: no fs in the agent tools, no child_process in the client.
            "io-behind-the-door": [
                "server/src/agentTools/lockBad.ts",
                "import * as fs from 'fs';\nexport const b = fs;\n",
            ],
            "service-through-the-workspace": [
                "server/src/features/diskBad.ts",
                "import { write } from '../workspace/safeWrite';\nimport { lockWrite } from '../node/tools';\nexport const b = [write, lockWrite];\n",
            ],
            "client-asks-the-server": [
                "client/src/bad.ts",
                "import { A } from '../../server/src/core/a';\nexport const b = A;\n",
            ],
        };
        const files = { ...CLEAN };
        for (const [file, text] of Object.values(violations)) files[file] = text;
        files["client/src/spawnBad.ts"] = "import { spawn } from 'node:child_process';\nexport const b = spawn;\n";
        files["server/src/workspace/web/netBad.ts"] = "import * as net from 'node:net';\nexport const b = net;\n";
        // A cycle made of type-only imports is a cycle too.
        files["server/src/workspace/one.ts"] = "import type { Two } from './two';\nexport type One = { two?: Two };\n";
        files["server/src/workspace/two.ts"] = "import type { One } from './one';\nexport type Two = { one?: One };\n";
        const dir = lay(files);
        try {
            const { status, output } = cruise(dir);
            assert.notEqual(status, 0, "the check must fail");
            for (const [rule, [file]] of Object.entries(violations)) {
                assert.match(output, new RegExp(`${rule}: ${file.replace(/\./g, "\\.")}`), `${rule} on ${file}`);
            }
            assert.match(output, /no-cycles: server\/src\/workspace\/(one|two)\.ts/, "a type-only cycle");
            assert.match(
                output,
                /features-are-thin: server\/src\/features\/bad\.ts → \S*node_modules\/vscode-languageserver\//,
            );
            for (const to of ["features/hover", "quotes/notes"]) {
                assert.match(
                    output,
                    new RegExp(`workspace-below-features: server/src/workspace/bad\\.ts → server/src/${to}\\.ts`),
                );
            }
            for (const to of ["features/hover", "workspace/files"]) {
                assert.match(
                    output,
                    new RegExp(`lsp-through-the-service: server/src/lsp/bad\\.ts → server/src/${to}\\.ts`),
                );
            }
            for (const [file, to] of [
                ["client/src/spawnBad.ts", "child_process"],
                ["server/src/workspace/web/netBad.ts", "net"],
            ]) {
                assert.match(output, new RegExp(`io-behind-the-door: ${file.replace(/\./g, "\\.")} → ${to}`), file);
            }
            for (const to of ["workspace/safeWrite", "node/tools"]) {
                assert.match(
                    output,
                    new RegExp(
                        `service-through-the-workspace: server/src/features/diskBad\\.ts → server/src/${to}\\.ts`,
                    ),
                );
            }
            assert.doesNotMatch(
                output,
                /(hover|run|tools|view|a|files|protocol|op|notes|pages|context|safeWrite|diskContext|core|hooks\.test)\.ts →/,
                "a clean module was flagged",
            );
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("names as Node-only every module of workspace/ and fetch/ that reaches the disk, git or the network", function () {
        this.timeout(120_000);
        const config = require(path.join(repo, ".dependency-cruiser.cjs")) as {
            forbidden: { name: string; to: { path: string[] } }[];
        };
        const rule = (name: string) => {
            const found = config.forbidden.find((r) => r.name === name);
            assert.ok(found, name);
            return found.to.path.map((p) => new RegExp(p));
        };
        const io = rule("io-behind-the-door");
        const nodeOnly = rule("service-through-the-workspace");
        const result = spawnSync(
            process.execPath,
            [
                path.join(repo, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs"),
                "--config",
                path.join(repo, ".dependency-cruiser.cjs"),
                "--output-type",
                "json",
                "server/src",
            ],
            { cwd: repo, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
        );
        assert.equal(result.status, 0, result.stderr);
        const modules = (
            JSON.parse(result.stdout) as {
                modules: { source: string; dependencies: { resolved: string; dependencyTypes: string[] }[] }[];
            }
        ).modules;
        // What runs when a module runs: its imports and requires, not its type-only imports.
        const runtime = new Map(
            modules.map((m) => [
                m.source,
                m.dependencies.filter((d) => !d.dependencyTypes.includes("type-only")).map((d) => d.resolved),
            ]),
        );
        const reaching = new Set<string>();
        for (let grown = true; grown; ) {
            grown = false;
            for (const [source, targets] of runtime) {
                if (reaching.has(source)) continue;
                if (targets.some((t) => io.some((r) => r.test(t)) || reaching.has(t))) {
                    reaching.add(source);
                    grown = true;
                }
            }
        }
        const below = [...reaching].filter((m) => /^server\/src\/(workspace|fetch)\//.test(m));
        assert.ok(below.includes("server/src/workspace/safeFile.ts"), "the safe reader reaches fs");
        const unlisted = below.filter((m) => !nodeOnly.some((r) => r.test(m)));
        assert.deepEqual(unlisted, [], "add these to NODE_ONLY in .dependency-cruiser.cjs");
        // And every name on the list is a module that exists and reaches I/O: the list does not rot.
        const listed = [...runtime.keys()].filter(
            (m) => /^server\/src\/(workspace|fetch)\//.test(m) && nodeOnly.some((r) => r.test(m)),
        );
        assert.deepEqual(
            listed.filter((m) => !reaching.has(m)),
            [],
            "modules on NODE_ONLY that reach no I/O",
        );
        const names = /\(([a-zA-Z|]+)\)\\\.ts\$/.exec(nodeOnly[0].source)?.[1].split("|") ?? [];
        assert.ok(names.length > 10, nodeOnly[0].source);
        for (const name of names) assert.ok(runtime.has(`server/src/workspace/${name}.ts`), `${name}.ts exists`);
    });
});
