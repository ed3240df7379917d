/**
 * What a `sourcecheck` process loads (docs/architecture.md, "CLI bundles"): the built CLI (dist/,
 * made by scripts/build.mjs before the suites run) through bin/sourcecheck.js, with a preloaded script
 * that records every module file Node compiled. A command must load its own bundle and nothing of
 * another command, the MCP tools or the libraries only some inputs need.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { COMMAND_NAMES } from "../../server/src/cli/registry";

const repo = path.resolve(__dirname, "../../..");
const bin = path.join(repo, "bin/sourcecheck.js");

/** Records each module file compiled in the process, in order, into RECORD_TO at exit. */
const RECORDER = `
const Module = require("node:module");
const fs = require("node:fs");
const compiled = [];
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
    compiled.push(filename);
    return compile.apply(this, arguments);
};
process.on("exit", () => fs.writeFileSync(process.env.RECORD_TO, JSON.stringify(compiled)));
`;

interface Loaded {
    status: number | null;
    stdout: string;
    /** The module files compiled, relative to the repository, in load order. */
    files: string[];
}

function tinyWorkspace(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-bundles-"));
    fs.writeFileSync(path.join(dir, "doc.md"), "# Notes\n\nThe cache makes cold start 37% faster.\n");
    fs.writeFileSync(path.join(dir, "answer.md"), "Cold start is 37% faster.\n");
    const ref = (p: string, line: number, start: string, end: string) => ({
        path: p,
        start: { line, str: start },
        end: { line, str: end },
    });
    const annotation = {
        claim: ref("answer.md", 1, "Cold", "faster."),
        sources: [{ ...ref("doc.md", 3, "The cache", "faster."), polarity: "supports", confidence: 0.9 }],
    };
    fs.writeFileSync(path.join(dir, "answer.sourcecheck.json"), JSON.stringify({ annotations: [annotation] }));
    fs.writeFileSync(path.join(dir, "recorder.js"), RECORDER);
    return dir;
}

function loadedBy(dir: string, args: string[], stdin = ""): Loaded {
    const record = path.join(dir, "loaded.json");
    const run = spawnSync(process.execPath, ["--require", path.join(dir, "recorder.js"), bin, ...args], {
        cwd: dir,
        input: stdin,
        encoding: "utf8",
        env: { ...process.env, RECORD_TO: record },
    });
    const files = (JSON.parse(fs.readFileSync(record, "utf8")) as string[])
        .filter((file) => file !== path.join(dir, "recorder.js"))
        .map((file) => path.relative(repo, file));
    return { status: run.status, stdout: run.stdout, files };
}

/** MCP messages, one a line: initialize, then `more`. */
function mcpInput(...more: object[]): string {
    const initialize = {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
    };
    return [initialize, { jsonrpc: "2.0", method: "notifications/initialized" }, ...more]
        .map((message) => `${JSON.stringify(message)}\n`)
        .join("");
}

describe("the modules a sourcecheck process loads", function () {
    this.timeout(60_000);
    let dir: string;
    before(() => {
        dir = tinyWorkspace();
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("a tiny check loads the entry and check's bundle: three files, nothing from node_modules", () => {
        const run = loadedBy(dir, ["check", "answer.sourcecheck.json"]);
        assert.equal(run.status, 0, run.stdout);
        assert.deepEqual(run.files, ["bin/sourcecheck.js", "dist/cli.js", "dist/checkCommand.js"]);
    });

    it("glob and .gitignore libraries are bundles of their own, loaded only by the inputs that need them", () => {
        const named = loadedBy(dir, ["lock", "answer.sourcecheck.json"]);
        assert.equal(named.status, 0, named.stdout);
        assert.deepEqual(named.files, ["bin/sourcecheck.js", "dist/cli.js", "dist/lockCommand.js"]);
        const globbed = loadedBy(dir, ["lock", "*.sourcecheck.json"]);
        assert.equal(globbed.status, 0, globbed.stdout);
        assert.deepEqual(globbed.files, [
            "bin/sourcecheck.js",
            "dist/cli.js",
            "dist/lockCommand.js",
            "dist/picomatch.js",
        ]);
        const ignoring = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-bundles-ignore-"));
        try {
            fs.cpSync(dir, ignoring, { recursive: true });
            fs.writeFileSync(path.join(ignoring, ".gitignore"), "drafts/\n");
            fs.mkdirSync(path.join(ignoring, "drafts"));
            fs.writeFileSync(path.join(ignoring, "drafts", "old.sourcecheck.json"), "not json");
            const walked = loadedBy(ignoring, ["check", "."]);
            assert.equal(walked.status, 0, walked.stdout);
            assert.match(walked.stdout, /^1 file, 1 annotation/);
            assert.deepEqual(walked.files, [
                "bin/sourcecheck.js",
                "dist/cli.js",
                "dist/checkCommand.js",
                "dist/ignore.js",
            ]);
        } finally {
            fs.rmSync(ignoring, { recursive: true, force: true });
        }
    });

    it("a command line naming no command is check's and loads the same", () => {
        const run = loadedBy(dir, ["answer.sourcecheck.json"]);
        assert.equal(run.status, 0, run.stdout);
        assert.deepEqual(run.files, ["bin/sourcecheck.js", "dist/cli.js", "dist/checkCommand.js"]);
    });

    it("cite loads its own bundle only: no HTML parser, no check bundle", () => {
        const run = loadedBy(dir, ["cite", "doc.md", "cold start 37%"]);
        assert.equal(run.status, 0, run.stdout);
        assert.deepEqual(run.files, ["bin/sourcecheck.js", "dist/cli.js", "dist/citeCommand.js"]);
    });

    it("mcp answers tools/list without loading the tools, and loads them once on the first call", () => {
        const listed = loadedBy(dir, ["mcp"], mcpInput({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
        assert.match(listed.stdout, /"name":"cite"/);
        assert.deepEqual(listed.files, ["bin/sourcecheck.js", "dist/cli.js", "dist/mcpCommand.js"]);
        const call = (id: number) => ({
            jsonrpc: "2.0",
            id,
            method: "tools/call",
            params: { name: "cite", arguments: { path: "doc.md", quote: "cold start 37%" } },
        });
        const called = loadedBy(dir, ["mcp"], mcpInput(call(2), call(3)));
        assert.equal((called.stdout.match(/"str":"cold"/g) ?? []).length, 2, called.stdout);
        assert.deepEqual(called.files, [
            "bin/sourcecheck.js",
            "dist/cli.js",
            "dist/mcpCommand.js",
            "dist/diskContext.js",
        ]);
    });

    it("--help loads every command's bundle, each once, and nothing else", () => {
        const run = loadedBy(dir, ["--help"]);
        assert.equal(run.status, 0);
        for (const name of COMMAND_NAMES) assert.match(run.stdout, new RegExp(`sourcecheck ${name}\\b`));
        assert.equal(new Set(run.files).size, run.files.length);
        assert.deepEqual(run.files.slice(0, 2), ["bin/sourcecheck.js", "dist/cli.js"]);
        for (const file of run.files.slice(2)) assert.match(file, /^dist\/\w+Command\.js$/);
    });
});
