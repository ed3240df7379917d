/**
 * One door, one check, the same history on every front end (docs/architecture.md, "One door for
 * files"): on the same workspaces, `check`, `repair` (a lock and a committed `git mv`), `lock`, `cite`
 * and `annotate` through the CLI (`--json`), the MCP server, the language server's agent tool (what
 * VS Code's language model tools ask) and, for `check`, the library give the same results and the
 * same exit codes; an unusable lock is exit 2 everywhere, and no output names another exit.
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { check, createMemoryWorkspace, createNodeWorkspace } from "../../server/src/index";
import { diskToolRunner } from "../../server/src/mcp/diskContext";
import { createMcpServer } from "../../server/src/mcp/server";
import type { AgentToolResult } from "../../shared/agentToolProtocol";
import { runCli, runCliAsync } from "../unit/cliRun";
import { startClient } from "./harness";

const SLA = "# SLA\n\nUptime is 99.9% per month.\nCredits apply below that.\n";
const ANSWER = "The service promises 99.9% uptime.\n";
const FILE = "answer.sourcecheck.json";
const ANNOTATIONS = {
    annotations: [
        {
            claim: { path: "answer.md", start: { line: 1, str: "The" }, end: { line: 1, str: "uptime." } },
            sources: [
                {
                    path: "sources/sla.md",
                    start: { line: 3, str: "Uptime" },
                    end: { line: 3, str: "per month." },
                    polarity: "supports",
                    confidence: 0.9,
                },
            ],
        },
    ],
};

function git(root: string, ...args: string[]): void {
    execFileSync("git", args, { cwd: root, stdio: "ignore" });
}

function workspace(files: Record<string, string>): string {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-onedoor-")));
    for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
        fs.writeFileSync(path.join(root, name), text);
    }
    return root;
}

/** Locked and committed, then the cited document renamed with `git mv` and committed. */
function renamedWorkspace(): string {
    const root = workspace({
        "answer.md": ANSWER,
        "sources/sla.md": SLA,
        [FILE]: JSON.stringify(ANNOTATIONS, null, 2),
    });
    assert.equal(runCli(["lock", FILE], { cwd: root }).status, 0);
    git(root, "init", "-q");
    git(root, "-c", "user.email=t@example.com", "-c", "user.name=t", "add", "-A");
    git(root, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "locked");
    git(root, "mv", "sources/sla.md", "sources/service-levels.md");
    git(root, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "renamed");
    return root;
}

interface Front {
    mcp(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
    editor(name: string, input: Record<string, unknown>): Promise<AgentToolResult>;
    close(): Promise<void>;
}

async function frontEnds(root: string): Promise<Front> {
    const server = createMcpServer(diskToolRunner(root), "test");
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const mcp = new Client({ name: "one-door", version: "1" });
    await mcp.connect(clientSide);
    await mcp.listTools();
    const editor = await startClient({ root, pull: true });
    return {
        mcp: async (name, args) => (await mcp.callTool({ name, arguments: args })) as CallToolResult,
        editor: (name, input) => editor.request<AgentToolResult>("sourcecheck/agentTool", { name, input }),
        close: async () => {
            await mcp.close();
            await editor.stop();
        },
    };
}

/** The CLI's `--json` and its exit status, the envelope checked against it and taken off. */
async function cli(root: string, args: string[]): Promise<{ status: number; json: Record<string, unknown> }> {
    const run = await runCliAsync(args, { cwd: root });
    const json = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.equal(json.exitCode, run.status, `${args.join(" ")}: the envelope names the exit status`);
    assert.equal(json.ok, run.status === 0, `${args.join(" ")}: ok is exitCode === 0`);
    return { status: run.status, json };
}

/** What a model reads: check --json's entries named by `annotation` from 1 instead of the 0-based `index` (docs/agents.md, "Numbers"). */
function numbered(json: Record<string, unknown>): Record<string, unknown> {
    const entries = json.entries as { index: number }[] | undefined;
    if (!entries) return json;
    return { ...json, entries: entries.map(({ index, ...entry }) => ({ annotation: index + 1, ...entry })) };
}

function withoutEnvelope(json: Record<string, unknown>): Record<string, unknown> {
    const { ok: _ok, exitCode: _exitCode, ...rest } = json;
    return rest;
}

describe("one door: the same answers on every front end", function () {
    this.timeout(90_000);

    it("repair follows a committed git mv alike, and never offers the lock file as a document", async () => {
        const root = renamedWorkspace();
        const fromCli = await cli(root, ["repair", "--json", FILE]);
        assert.equal(fromCli.status, 0, "every ref repaired with certainty");
        const repairs = fromCli.json.repairs as { certain: boolean; after: { path: string }; evidenceKind: string }[];
        assert.deepEqual(
            repairs.map((r) => [r.certain, r.after.path]),
            [[true, "sources/service-levels.md"]],
        );
        const front = await frontEnds(root);
        try {
            for (const since of [undefined, "HEAD~1"]) {
                const args = { file: FILE, detail: "full", ...(since ? { since } : {}) };
                const viaCli = since ? await cli(root, ["repair", "--json", "--since", since, FILE]) : fromCli;
                const mcp = await front.mcp("repair", args);
                assert.notEqual(mcp.isError, true, JSON.stringify(mcp.content));
                assert.deepEqual(mcp.structuredContent, withoutEnvelope(viaCli.json), `MCP repair, since ${since}`);
                const editor = await front.editor("repair", args);
                assert.ok(editor.ok, JSON.stringify(editor));
                assert.deepEqual(editor.structured, withoutEnvelope(viaCli.json), `editor repair, since ${since}`);
                const text = JSON.stringify([mcp, editor]);
                assert.doesNotMatch(text, /\.lock\.json/, "the lock file is never a candidate document");
            }
        } finally {
            await front.close();
        }
    });

    it("check with drift: the CLI, MCP, the editor's tool and the library return the same report", async () => {
        const root = workspace({ "answer.md": ANSWER, "sources/sla.md": SLA, [FILE]: JSON.stringify(ANNOTATIONS) });
        assert.equal(runCli(["lock", FILE], { cwd: root }).status, 0);
        fs.writeFileSync(path.join(root, "sources/sla.md"), SLA.replace("99.9%", "99.5%"));
        const front = await frontEnds(root);
        try {
            for (const locked of [false, true]) {
                const args = ["check", "--json", ...(locked ? ["--locked"] : []), FILE];
                const viaCli = await cli(root, args);
                assert.equal(viaCli.status, locked ? 1 : 0);
                assert.match(JSON.stringify(viaCli.json), /"text-changed"/);
                const input = { file: FILE, locked, detail: "full" };
                const mcp = await front.mcp("check", input);
                assert.deepEqual(mcp.structuredContent, numbered(viaCli.json), `MCP check, locked ${locked}`);
                const editor = await front.editor("check", input);
                assert.deepEqual(
                    editor.ok && editor.structured,
                    numbered(viaCli.json),
                    `editor check, locked ${locked}`,
                );
                const options = { paths: [FILE], locked };
                assert.deepEqual(await check(createNodeWorkspace(root), options), viaCli.json, "library on disk");
                const files = Object.fromEntries(
                    ["answer.md", "sources/sla.md", FILE, "answer.sourcecheck.lock.json"].map((f) => [
                        f,
                        fs.readFileSync(path.join(root, f), "utf8"),
                    ]),
                );
                assert.deepEqual(await check(createMemoryWorkspace(files), options), viaCli.json, "library in memory");
            }
        } finally {
            await front.close();
        }
    });

    it("an unusable lock is exit 2 on every front end, and no output names another exit", async () => {
        const root = workspace({
            "answer.md": ANSWER,
            "sources/sla.md": SLA,
            [FILE]: JSON.stringify(ANNOTATIONS),
            "answer.sourcecheck.lock.json": "{ not a lock",
        });
        const viaCli = await cli(root, ["check", "--json", FILE]);
        assert.equal(viaCli.status, 2);
        const text = runCli(["check", FILE], { cwd: root });
        assert.equal(text.status, 2);
        const exits = (output: string) => [...output.matchAll(/\(?exit (\d)\)?/g)].map((m) => m[1]);
        assert.deepEqual([...new Set(exits(text.stdout))], ["2"], text.stdout);
        const front = await frontEnds(root);
        try {
            for (const detail of ["brief", "full"]) {
                const mcp = await front.mcp("check", { file: FILE, detail });
                assert.equal((mcp.structuredContent as { exitCode: number }).exitCode, 2, `MCP ${detail}`);
                const mcpText = (mcp.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
                assert.deepEqual(
                    [
                        ...new Set(
                            exits(mcpText).concat(mcpText.match(/"exitCode":(\d)/g)?.map((m) => m.slice(-1)) ?? []),
                        ),
                    ],
                    ["2"],
                    mcpText,
                );
                assert.deepEqual(mcp.structuredContent, numbered(viaCli.json), `MCP ${detail}`);
                const editor = await front.editor("check", { file: FILE, detail });
                assert.deepEqual(editor.ok && editor.structured, numbered(viaCli.json), `editor ${detail}`);
            }
        } finally {
            await front.close();
        }
        assert.deepEqual(await check(createNodeWorkspace(root), { paths: [FILE] }), viaCli.json, "library");
        assert.equal(runCli(["render", FILE], { cwd: root }).status, 2, "render");
    });

    it("lock, cite and annotate: one result and one exit code, the CLI's envelope aside", async () => {
        const root = workspace({ "answer.md": ANSWER, "sources/sla.md": SLA, [FILE]: JSON.stringify(ANNOTATIONS) });
        const front = await frontEnds(root);
        try {
            const cite = await cli(root, ["cite", "--json", "sources/sla.md", "Uptime is 99.9% per month."]);
            const mcpCite = await front.mcp("cite", { path: "sources/sla.md", quote: "Uptime is 99.9% per month." });
            assert.deepEqual(mcpCite.structuredContent, withoutEnvelope(cite.json), "cite");
            const missing = await cli(root, ["cite", "--json", "sources/sla.md", "nowhere said"]);
            assert.equal(missing.status, 1);
            const annotateRequest = {
                claim: { path: "answer.md", quote: "promises 99.9% uptime" },
                sources: [{ path: "sources/sla.md", quote: "Credits apply", polarity: "supports", confidence: 0.5 }],
            };
            const annotate = await runCliAsync(["annotate", "--json", FILE, "-"], {
                cwd: root,
                stdin: JSON.stringify(annotateRequest),
            });
            const annotateJson = JSON.parse(annotate.stdout);
            assert.deepEqual([annotateJson.ok, annotateJson.exitCode, annotate.status], [true, 0, 0]);
            const mcpAnnotate = await front.mcp("annotate", { file: FILE, ...annotateRequest });
            assert.deepEqual(mcpAnnotate.structuredContent, withoutEnvelope(annotateJson), "annotate");
            const editorAnnotate = await front.editor("annotate", { file: FILE, ...annotateRequest });
            assert.deepEqual(editorAnnotate.ok && editorAnnotate.structured, withoutEnvelope(annotateJson), "annotate");
            const lock = await cli(root, ["lock", "--json", FILE]);
            assert.equal(lock.status, 0);
            const { file: _file, exitCode, ...lockResult } = (lock.json.files as Record<string, unknown>[])[0];
            assert.equal(exitCode, 0);
            const mcpLock = await front.mcp("lock", { file: FILE });
            assert.deepEqual(
                { ...(mcpLock.structuredContent as object), written: true },
                { ...lockResult, written: true },
                "lock",
            );
        } finally {
            await front.close();
        }
    });
});
