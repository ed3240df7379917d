import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { languageModelTools } from "../../server/src/agentTools/manifest";
import { TOOL_DEFINITIONS } from "../../server/src/agentTools/schemas";
import { runTool, type ToolContext } from "../../server/src/agentTools/tools";
import { type Ref, SessionDocument } from "../../server/src/core";
import type { RepairEntry } from "../../server/src/core/repair";
import { applyCertainRepairs as writeCertainRepairs } from "../../server/src/core/repair";

const repo = path.resolve(__dirname, "../../..");

function repairOf(pointer: string, before: Ref, after: Ref, certain: boolean): RepairEntry {
    return {
        annotation: 0,
        role: "claim",
        pointer,
        reason: "line-shift",
        certain,
        before,
        after,
        text: "x",
        evidence: "test",
        evidenceKind: "search",
    };
}

const ref = (line: number, path = "a.md"): Ref => ({
    path,
    start: { line, str: "Orbit" },
    end: { line, str: "changed" },
});

describe("agent tools", () => {
    it("package.json contributes exactly the tools the MCP server serves, with the same schemas", () => {
        const manifest = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
        assert.deepEqual(
            manifest.contributes.languageModelTools,
            languageModelTools(),
            "run `npx tsc -p . && node scripts/language-model-tools.mjs`",
        );
        assert.deepEqual(TOOL_DEFINITIONS.map((tool) => tool.name).sort(), [
            "annotate",
            "check",
            "cite",
            "evidence",
            "import",
            "index",
            "lock",
            "repair",
        ]);
        for (const tool of manifest.contributes.languageModelTools) {
            assert.match(tool.name, /^sourcecheck_[a-z]+$/);
            assert.match(tool.toolReferenceName, /^sourcecheck[A-Z][a-z]+$/);
            assert.ok(tool.modelDescription.length > 100, tool.name);
        }
    });

    it("writes certain repairs only, changing only the values that differ, keeping comments and layout", () => {
        const text = [
            "{",
            "  // answers of 2026",
            '  "annotations": [',
            '    { "claim": { "path": "a.md", "start": { "line": 3, "str": "Orbit" }, "end": { "line": 3, "str": "changed" } },',
            '      "sources": [ { "path": "a.md", "start": { "line": 9, "str": "Orbit" }, "end": { "line": 9, "str": "changed" }, "polarity": "supports", "confidence": 1 } ] }',
            "  ]",
            "}",
        ].join("\r\n");
        const out = writeCertainRepairs(text, [
            repairOf("/annotations/0/claim", ref(3), ref(5), true),
            repairOf("/annotations/0/sources/0", ref(9), ref(2), false),
        ]);
        assert.equal(out.applied, 1);
        assert.equal(out.text, text.replace(/"line": 3/g, '"line": 5'));
        const none = writeCertainRepairs(text, [repairOf("/annotations/0/sources/0", ref(9), ref(2), false)]);
        assert.deepEqual(none, { text, applied: 0 });
    });

    it("writes into a bare array of annotations, and a path repair changes the path only", () => {
        const text = JSON.stringify([{ claim: ref(1, "old.md"), sources: [] }], null, 2);
        const out = writeCertainRepairs(text, [repairOf("/0/claim", ref(1, "old.md"), ref(1, "new.md"), true)]);
        assert.equal(out.text, text.replace('"old.md"', '"new.md"'));
    });

    it("an engine failure is a tool error with a code, never an exception", async () => {
        const failing: ToolContext = {
            document: () => {
                throw new Error("disk on fire");
            },
            documents: () => ({ get: () => undefined }),
            annotationFile: () => ({ code: "unreadable-document", message: "nope" }),
            annotationFileToWrite: () => ({ code: "unreadable-document", message: "nope" }),
            files: () => [],
            evidence: () => {
                throw new Error("index on fire");
            },
            refScope: () => ({
                documents: () => ({ get: () => undefined }),
                files: () => [],
                revision: () => ({ get: () => undefined }),
                lastCommit: () => undefined,
            }),
        };
        assert.deepEqual(await runTool("cite", { path: "a.md", quote: "x" }, failing), {
            ok: false,
            error: { code: "internal-error", message: "cite failed: disk on fire" },
        });
        assert.equal(
            ((await runTool("evidence", { query: "q" }, failing)) as { error: { code: string } }).error.code,
            "internal-error",
        );
        assert.deepEqual(await runTool("repair", { file: "a" }, failing), {
            ok: false,
            error: { code: "unreadable-document", message: "nope" },
        });
        const document = new SessionDocument("a.md", "Orbit changed\n");
        const working: ToolContext = { ...failing, document: () => document };
        const cited = await runTool("cite", { path: "a.md", quote: "Orbit changed" }, working);
        assert.ok(cited.ok);
    });
});

describe("agent tools: every tool named in mcp --help, the lock tool's file an annotation file", () => {
    it("mcp --help lists every tool, and lock's file example is an annotation file", async () => {
        const { runCli } = await import("./cliRun");
        const { TOOL_DEFINITIONS, lockInput } = await import("../../server/src/agentTools/schemas");
        const help = runCli(["mcp", "--help"], { cwd: process.cwd() });
        assert.equal(help.status, 0);
        for (const tool of TOOL_DEFINITIONS) assert.match(help.stdout, new RegExp(`\\b${tool.name}\\b`), tool.name);
        const described = JSON.stringify(
            (lockInput as unknown as { shape: { file: { description: string } } }).shape.file.description,
        );
        assert.match(described, /e\.g\. \\"answer\.sourcecheck\.json\\"/);
    });
});
