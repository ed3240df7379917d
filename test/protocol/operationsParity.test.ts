/**
 * One operation, one result (docs/contract.md, "Operations"): `repair` on a locked, committed
 * workspace whose cited document drifted (a paragraph moved, a sentence deleted, one reworded),
 * driven through the CLI (`--json`), the MCP server (the SDK client) and the language server's agent
 * tool (what VS Code's language model tool asks). Every front end must find the same repairs, leave
 * the same refs, with the same codes and next steps. `lock` likewise, and through the editor's Lock Refs.
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { diskToolRunner } from "../../server/src/mcp/diskContext";
import { createMcpServer } from "../../server/src/mcp/server";
import type { AgentToolResult } from "../../shared/agentToolProtocol";
import type { LockRefsResult } from "../../shared/customProtocol";
import { runCli } from "../unit/cliRun";
import { driftedWorkspace, FILE } from "../unit/driftWorkspace";
import { startClient } from "./harness";

interface RepairJson {
    repairs: {
        annotation: number;
        role: string;
        source?: number;
        certain: boolean;
        after: unknown;
        evidenceKind: string;
    }[];
    remaining: { annotation: number; role: string; source?: number; code: string; next: { action: string } }[];
    written: number;
}

interface LockJson {
    lock: string;
    locked: number;
    accepted: number;
    changed: number;
    unresolved: number;
    notLocked: { annotation: number; role: string; source?: number; code: string; next: { action: string } }[];
    written: boolean;
}

/** What must agree: the certain repairs, the refs left with their codes and next steps, the candidates offered. */
function essence(result: RepairJson) {
    const place = (r: { annotation: number; role: string; source?: number }) =>
        `${r.annotation}/${r.role}${r.source === undefined ? "" : `/${r.source}`}`;
    return {
        certain: result.repairs
            .filter((r) => r.certain)
            .map((r) => ({ at: place(r), after: r.after, evidence: r.evidenceKind })),
        offered: result.repairs.filter((r) => !r.certain).map((r) => ({ at: place(r), after: r.after })),
        remaining: result.remaining.map((r) => ({ at: place(r), code: r.code, next: r.next })),
    };
}

/**
 * The CLI's `--json` without its envelope (`ok`, `exitCode`: docs/cli.md), which the tools leave out;
 * the envelope must name the process's exit status.
 */
function withoutEnvelope(stdout: string, status: number): Record<string, unknown> {
    const { ok, exitCode, ...rest } = JSON.parse(stdout);
    assert.equal(exitCode, status, "the envelope's exitCode is the exit status");
    assert.equal(ok, status === 0, "ok is exitCode === 0");
    return rest;
}

async function viaMcp(root: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return callMcp(root, "repair", args);
}

async function callMcp(root: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const server = createMcpServer(diskToolRunner(root), "test");
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "parity", version: "1" });
    await client.connect(clientSide);
    try {
        // callTool also validates the structured content against the listed output schema.
        await client.listTools();
        return (await client.callTool({ name, arguments: args })) as CallToolResult;
    } finally {
        await client.close();
    }
}

async function viaLanguageServer(root: string, input: Record<string, unknown>): Promise<AgentToolResult> {
    const client = await startClient({ root, pull: true });
    try {
        return await client.request<AgentToolResult>("sourcecheck/agentTool", { name: "repair", input });
    } finally {
        await client.stop();
    }
}

describe("one operation on every front end: repair after drift, with a lock and history", function () {
    this.timeout(60_000);

    it("the CLI, the MCP tool and the editor's agent tool repair alike", async () => {
        const root = driftedWorkspace();
        const cli = runCli(["repair", "--json", FILE], { cwd: root });
        assert.equal(cli.status, 1, cli.stderr);
        const fromCli = withoutEnvelope(cli.stdout, cli.status) as unknown as RepairJson;

        const mcp = await viaMcp(root, { file: FILE, detail: "full" });
        assert.notEqual(mcp.isError, true, JSON.stringify(mcp.content));
        const fromMcp = mcp.structuredContent as unknown as RepairJson;

        const editor = await viaLanguageServer(root, { file: FILE, detail: "full" });
        assert.ok(editor.ok, JSON.stringify(editor));
        const fromEditor = editor.structured as unknown as RepairJson;

        const expected = essence(fromCli);
        // The drift as built: the moved paragraph and the shifted sentence found by the lock, the
        // deleted sentence and the reworded one left with their next step.
        assert.deepEqual(
            expected.certain.map((r) => [r.at, r.evidence]),
            [
                ["2/source/1", "lock"],
                ["3/source/1", "lock"],
                ["3/source/2", "lock"],
            ],
        );
        assert.deepEqual(
            expected.remaining.map((r) => [r.at, r.code, r.next.action]),
            [
                ["1/source/1", "boundary-not-found", "choose-candidate"],
                ["1/source/2", "boundary-not-found", "cite-again"],
                ["2/source/2", "boundary-not-found", "choose-candidate"],
            ],
        );
        assert.deepEqual(essence(fromMcp), expected, "MCP repair differs from sourcecheck repair --json");
        assert.deepEqual(
            essence(fromEditor),
            expected,
            "the editor's agent tool differs from sourcecheck repair --json",
        );
        // The same object, not only the same essence: the CLI adds no envelope to repair.
        assert.deepEqual(fromMcp, fromCli);
        assert.deepEqual(fromEditor, fromCli);
    });

    it("brief (the agents' default) keeps the certain repairs and every remaining ref, and words the next call", async () => {
        const root = driftedWorkspace({ git: false });
        const fromCli = JSON.parse(runCli(["repair", "--json", FILE], { cwd: root }).stdout) as RepairJson;
        const brief = await viaMcp(root, { file: FILE });
        const structured = brief.structuredContent as unknown as RepairJson;
        assert.deepEqual(essence(structured).certain, essence(fromCli).certain);
        assert.deepEqual(essence(structured).remaining, essence(fromCli).remaining);
        assert.deepEqual(essence(structured).offered, [], "brief lists no uncertain candidate");
        const text = (brief.content[0] as { text: string }).text;
        assert.match(text, /^3 certain repairs, proposed: call repair with write: true/m);
        assert.match(text, /^- annotation 1, source 2: boundary-not-found: .*Next: quote the text meant near line 6/m);
        assert.match(text, /annotate \{ file: "answer\.sourcecheck\.json", replace: \{ annotation: 1, source: 2 \}/);
        assert.doesNotMatch(
            text,
            /Quick Fix|`sourcecheck /,
            "a model over MCP is told tool calls, not editor or CLI steps",
        );
        assert.ok(text.length < fromCli.repairs.length * 400, `brief is short (${text.length} characters)`);
    });

    it("cite answers the same on every front end: a ref, an ambiguous quote, a path with a near miss", async () => {
        const root = driftedWorkspace({ git: false });
        const requests: [string, string][] = [
            ["sources/guide.md", "Offline sync resumes after the client reconnects."],
            ["./sources/guide.md", "Cold start takes under two seconds"],
            ["sources/guide.md", "the"],
            ["sources/guides.md", "Offline sync"],
            ["sources/guide.md", "Offline sync resumes when the client reconnects."],
        ];
        const { mcp, editor } = await frontEnds(root);
        try {
            for (const [path, quote] of requests) {
                const cli = runCli(["cite", "--json", path, quote], { cwd: root });
                const fromCli = withoutEnvelope(cli.stdout, cli.status);
                const viaMcp = (await mcp.callTool({ name: "cite", arguments: { path, quote } })) as CallToolResult;
                const viaEditor = await editor.request<AgentToolResult>("sourcecheck/agentTool", {
                    name: "cite",
                    input: { path, quote },
                });
                const fromEditor = viaEditor.ok
                    ? viaEditor.structured
                    : viaEditor.candidates
                      ? { error: viaEditor.error, candidates: viaEditor.candidates }
                      : { error: viaEditor.error };
                assert.deepEqual(viaMcp.structuredContent, fromCli, `MCP cite ${path} ${quote}`);
                assert.deepEqual(fromEditor, fromCli, `editor cite ${path} ${quote}`);
                assert.equal(viaMcp.isError === true, cli.status !== 0, `${path} ${quote}: ok on both or on neither`);
            }
            const missing = JSON.parse(runCli(["cite", "--json", "sources/guides.md", "x"], { cwd: root }).stdout);
            assert.match(missing.error.message, /did you mean "sources\/guide\.md"/);
        } finally {
            await mcp.close();
            await editor.stop();
        }
    });
});

describe("one operation on every front end: annotate's failures", function () {
    this.timeout(60_000);

    it("a quote not found, an ambiguous claim and a missing path: the same error, place and next step on every front end", async () => {
        const root = driftedWorkspace({ git: false });
        const claim = { path: "answer.md", quote: "Orbit resumes sync offline" };
        const source = (path: string, quote: string) => ({ path, quote, polarity: "supports", confidence: 0.9 });
        const requests = [
            {
                claim: { path: "answer.md", quote: "nowhere in the answer" },
                sources: [source("sources/guide.md", "x")],
            },
            { claim, sources: [source("sources/guide.md", "Offline sync resumes when the client reconnects.")] },
            { claim, sources: [source("sources/guides.md", "Offline sync")] },
            { claim: { path: "answer.md", quote: "and" }, sources: [source("sources/guide.md", "Offline sync")] },
        ];
        const { mcp, editor } = await frontEnds(root);
        try {
            for (const request of requests) {
                const label = JSON.stringify(request);
                const input = { file: FILE, ...request };
                const cli = runCli(["annotate", "--json", FILE, "-"], { cwd: root, stdin: JSON.stringify(request) });
                const fromCli = withoutEnvelope(cli.stdout, cli.status) as Record<string, any>;
                assert.notEqual(cli.status, 0, label);
                assert.ok(fromCli.error.role === "claim" || fromCli.error.role === "source", label);
                assert.ok(fromCli.error.next, `${label}: a next step`);
                const viaMcp = (await mcp.callTool({ name: "annotate", arguments: input })) as CallToolResult;
                const viaEditor = await editor.request<AgentToolResult>("sourcecheck/agentTool", {
                    name: "annotate",
                    input,
                });
                assert.ok(!viaEditor.ok, label);
                const fromEditor = viaEditor.candidates
                    ? { error: viaEditor.error, candidates: viaEditor.candidates }
                    : { error: viaEditor.error };
                assert.deepEqual(viaMcp.structuredContent, fromCli, `MCP annotate ${label}`);
                assert.deepEqual(fromEditor, fromCli, `editor annotate ${label}`);
            }
        } finally {
            await mcp.close();
            await editor.stop();
        }
    });
});

/** The MCP server (over an in-memory transport, with the SDK client) and the language server, on one root. */
async function frontEnds(root: string) {
    const server = createMcpServer(diskToolRunner(root), "test");
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const mcp = new Client({ name: "parity", version: "1" });
    await mcp.connect(clientSide);
    await mcp.listTools();
    return { mcp, editor: await startClient({ root, pull: true }) };
}

/** The CLI's lock result for one file without its envelope (`file`, `exitCode`): the operation's result. */
function cliLockResult(root: string, accept: boolean): { status: number; result: Record<string, unknown> } {
    const run = runCli(["lock", "--json", ...(accept ? ["--accept"] : []), FILE], { cwd: root });
    const { file: _file, exitCode: _exitCode, ...result } = JSON.parse(run.stdout).files[0];
    return { status: run.status ?? -1, result };
}

const LOCK_FILE = "answer.sourcecheck.lock.json";
const MEMORY = "Peak memory fell by a third after the cache was trimmed.";

/** The drifted workspace with the guide as it was locked, but one cited sentence changed in place: text-changed. */
function changedInPlace(): string {
    const root = driftedWorkspace();
    const guide = execFileSync("git", ["show", "HEAD:sources/guide.md"], { cwd: root, encoding: "utf8" });
    fs.writeFileSync(
        path.join(root, "sources/guide.md"),
        guide.replace(MEMORY, MEMORY.replace("a third", "a quarter")),
    );
    return root;
}

describe("one operation on every front end: lock", function () {
    this.timeout(90_000);

    const scenarios: { name: string; make: () => string; accept: boolean; expect: (r: LockJson) => void }[] = [
        {
            name: "after drift (moved, deleted, reworded): every ref not resolving keeps its entry",
            make: () => driftedWorkspace({ git: false }),
            accept: false,
            expect: (r) => {
                assert.deepEqual([r.locked, r.changed, r.unresolved, r.accepted], [3, 0, 6, 0]);
                assert.deepEqual(r.notLocked[0].next, { action: "re-anchor", path: "sources/guide.md", line: 5 });
            },
        },
        {
            name: "a cited text changed in place, not accepted: the locked text is kept",
            make: changedInPlace,
            accept: false,
            expect: (r) => {
                assert.deepEqual([r.locked, r.changed, r.unresolved, r.accepted], [8, 1, 0, 0]);
                const [changed] = r.notLocked;
                assert.deepEqual(
                    [changed.annotation, changed.role, changed.source, changed.code, changed.next.action],
                    [2, "source", 2, "text-changed", "accept-text"],
                );
            },
        },
        {
            name: "a cited text changed in place, accepted",
            make: changedInPlace,
            accept: true,
            expect: (r) => assert.deepEqual([r.locked, r.changed, r.unresolved, r.accepted], [9, 0, 0, 1]),
        },
    ];

    for (const scenario of scenarios) {
        it(`the CLI, the MCP tool, the editor's agent tool and Lock Refs lock alike: ${scenario.name}`, async () => {
            const [viaCli, viaMcpRoot, viaEditorRoot] = [scenario.make(), scenario.make(), scenario.make()];
            const cli = cliLockResult(viaCli, scenario.accept);
            scenario.expect(cli.result as unknown as LockJson);
            assert.equal(cli.status, (cli.result as unknown as LockJson).notLocked.length > 0 ? 1 : 0);

            const mcp = await callMcp(viaMcpRoot, "lock", { file: FILE, write: true, accept: scenario.accept });
            assert.notEqual(mcp.isError, true, JSON.stringify(mcp.content));
            assert.deepEqual(mcp.structuredContent, cli.result, "MCP lock differs from sourcecheck lock --json");
            const text = (mcp.content[0] as { text: string }).text;
            assert.doesNotMatch(text, /Quick Fix|`sourcecheck /, "a model is told tool calls");

            const editor = await startClient({ root: viaEditorRoot, pull: true });
            try {
                const dry = await editor.request<AgentToolResult>("sourcecheck/agentTool", {
                    name: "lock",
                    input: { file: FILE, accept: scenario.accept },
                });
                assert.ok(dry.ok, JSON.stringify(dry));
                assert.deepEqual(
                    dry.structured,
                    { ...cli.result, written: false },
                    "the editor's agent tool differs from sourcecheck lock --json",
                );
                const uri = await editor.open(FILE, "sourcecheck");
                const lockRefs = await editor.request<LockRefsResult>("sourcecheck/lockRefs", {
                    uri,
                    mode: "lock",
                    accept: scenario.accept,
                });
                const expected = cli.result as unknown as LockJson;
                assert.deepEqual(
                    [lockRefs.ok, lockRefs.locked, lockRefs.changed, lockRefs.unresolved, lockRefs.accepted],
                    [true, expected.locked, expected.changed, expected.unresolved, expected.accepted],
                    "Lock Refs counts differ from sourcecheck lock",
                );
            } finally {
                await editor.stop();
            }
            // The very same lock on disk, byte for byte, whichever front end wrote it.
            const written = (root: string) => fs.readFileSync(path.join(root, LOCK_FILE), "utf8");
            assert.equal(written(viaMcpRoot), written(viaCli), "the MCP tool wrote another lock");
            assert.equal(written(viaEditorRoot), written(viaCli), "Lock Refs wrote another lock");
        });
    }
});

describe("next steps are data, worded by each front end", function () {
    this.timeout(60_000);

    it("a changed cited text and an unlocked ref: check carries next as data; the CLI names the command, MCP names no command and no quick fix", async () => {
        const root = changedInPlace();
        const check = runCli(["check", "--json", FILE], { cwd: root });
        const report = JSON.parse(check.stdout);
        const warnings = report.entries.flatMap((e: { sources: { warnings?: { code: string; next?: unknown }[] }[] }) =>
            e.sources.flatMap((s) => s.warnings ?? []),
        );
        assert.deepEqual(
            warnings.map((w: { code: string; next?: unknown }) => [w.code, w.next]),
            [["text-changed", { action: "accept-text", path: "sources/guide.md", line: 11 }]],
        );
        const text = runCli(["check", FILE], { cwd: root }).stdout;
        assert.match(text, /text-changed: .*; next: .*`sourcecheck lock --accept 2 answer\.sourcecheck\.json`/);
        fs.rmSync(path.join(root, LOCK_FILE));
        const locked = runCli(["check", "--locked", FILE], { cwd: root }).stdout;
        assert.match(
            locked,
            /unlocked: this file has no lock: lock its refs; next: .*`sourcecheck lock answer\.sourcecheck\.json`/,
        );

        const outputs = await Promise.all(
            (
                [
                    ["check", { file: FILE, locked: true }],
                    ["check", { file: FILE }],
                    ["lock", { file: FILE }],
                    ["repair", { file: FILE }],
                    ["cite", { path: "sources/guide.md", quote: "the" }],
                    ["annotate", { file: FILE, remove: 9 }],
                ] as const
            ).map(([name, args]) => callMcp(root, name, args)),
        );
        const unlocked = JSON.stringify(outputs[0].structuredContent);
        assert.match(unlocked, /"code":"unlocked"[^}]*"next":\{"action":"lock"\}/);
        for (const [i, result] of outputs.entries()) {
            const said = JSON.stringify(result.content);
            assert.doesNotMatch(
                said,
                /Quick Fix|in the editor|`sourcecheck |sourcecheck (cite|lock|repair|annotate)\b/,
                `MCP result ${i}: ${said.slice(0, 300)}`,
            );
        }
    });
});
