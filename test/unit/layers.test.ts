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
            "client-asks-the-server": [
                "client/src/bad.ts",
                "import { A } from '../../server/src/core/a';\nexport const b = A;\n",
            ],
        };
        const files = { ...CLEAN };
        for (const [file, text] of Object.values(violations)) files[file] = text;
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
            assert.doesNotMatch(
                output,
                /(hover|run|tools|view|a|files|protocol|op|notes|pages|context)\.ts →/,
                "a clean module was flagged",
            );
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
