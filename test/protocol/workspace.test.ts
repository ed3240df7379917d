import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic, Hover } from "vscode-languageserver-protocol";
import { LocatedText } from "../../server/src/core/parse";
import { copyDemo, positionOf, rangeOf, sleep, startClient } from "./harness";

describe("workspace index", () => {
    for (const pull of [false, true]) {
        it(`checks every annotation file of the workspace at start, unopened ones included (${pull ? "pull" : "push"} mode)`, async () => {
            const root = copyDemo();
            fs.mkdirSync(path.join(root, "nested"));
            fs.writeFileSync(
                path.join(root, "nested", "extra.annotations.json"),
                JSON.stringify([
                    {
                        claim: { path: "answer.md", start: { line: 99, str: "x" }, end: { line: 99, str: "x" } },
                        sources: [],
                    },
                ]),
            );
            fs.mkdirSync(path.join(root, "node_modules", "pkg"), { recursive: true });
            fs.writeFileSync(path.join(root, "node_modules", "pkg", "skip.sourcecheck.json"), "{");
            const client = await startClient({ root, pull });
            try {
                const demo = await client.waitForPublished(client.uri("answer.sourcecheck.json"));
                assert.equal(demo.diagnostics.length, 7);
                const extra = await client.waitForPublished(client.uri("nested/extra.annotations.json"));
                assert.deepEqual(extra.diagnostics.map((d) => d.code).sort(), [
                    "line-out-of-range",
                    "line-out-of-range",
                    "schema",
                ]);
                await client.waitFor(
                    () => client.progress.some((p) => (p as { value: { kind: string } }).value.kind === "end"),
                    "progress end",
                );
                const kinds = client.progress.map((p) => (p as { value: { kind: string } }).value.kind);
                assert.equal(kinds[0], "begin");
                assert.equal(kinds.at(-1), "end");
                assert.ok(
                    !client.published.has(client.uri("node_modules/pkg/skip.sourcecheck.json")),
                    "node_modules is skipped",
                );
                if (pull) {
                    // Opened, the file is pulled: what was pushed is cleared so nothing shows twice.
                    const uri = await client.open("answer.sourcecheck.json", "sourcecheck");
                    await client.waitForPublished(uri, (p) => p.diagnostics.length === 0);
                    assert.equal((await client.pull(uri)).length, 7);
                }
            } finally {
                await client.stop();
            }
        });
    }

    it("an annotation file on disk is re-checked when it changes there (didChangeWatchedFiles)", async () => {
        const client = await startClient({ pull: false });
        try {
            const uri = client.uri("answer.sourcecheck.json");
            await client.waitForPublished(uri, (p) => p.diagnostics.length === 7);
            const file = path.join(client.options.root, "answer.sourcecheck.json");
            fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"planned for 2.6."', '"planned for 2.5."'));
            await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
                changes: [{ uri, type: 2 }],
            });
            await client.waitForPublished(uri, (p) => p.diagnostics.length === 6);
        } finally {
            await client.stop();
        }
    });

    it("a deleted folder (one watcher event) re-checks every ref into documents below it", async () => {
        const client = await startClient({ pull: false });
        try {
            const uri = client.uri("answer.sourcecheck.json");
            await client.waitForPublished(uri, (p) => p.diagnostics.length === 7);
            fs.rmSync(path.join(client.options.root, "sources"), { recursive: true });
            await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
                changes: [{ uri: client.uri("sources"), type: 3 }],
            });
            // Every source ref now names a missing file; claims into answer.md are untouched.
            const params = await client.waitForPublished(uri, (p) => p.diagnostics.length === 10);
            assert.deepEqual(params.diagnostics.map((d) => d.code).sort(), [
                "boundary-ambiguous",
                ...Array(9).fill("unreadable-document"),
            ]);
        } finally {
            await client.stop();
        }
    });

    it("a document cited under two spellings resolves under both, from the buffer when open", async () => {
        const client = await startClient({ pull: true });
        try {
            const text = JSON.stringify({
                annotations: [
                    {
                        claim: {
                            path: "./answer.md",
                            start: { line: 1, str: "Orbit" },
                            end: { line: 1, str: "changed" },
                        },
                        sources: [
                            {
                                path: "sources/../answer.md",
                                start: { line: 3, str: "37%" },
                                end: { line: 3, str: "37%" },
                                polarity: "supports",
                                confidence: 1,
                            },
                        ],
                    },
                ],
            });
            const uri = await client.open("spelling.sourcecheck.json", "sourcecheck", text);
            assert.deepEqual(await client.pull(uri), []);
            const answer = await client.open("answer.md");
            await client.change(answer, client.text(answer).replace("changed", "is new"));
            const after = await client.pull(uri);
            assert.deepEqual(
                after.map((d) => [d.code, d.range]),
                [["boundary-not-found", rangeOf(text, '"changed"')]],
            );
            const hover = await client.request<Hover>("textDocument/hover", {
                textDocument: { uri },
                position: rangeOf(text, '"37%"').start,
            });
            assert.match((hover.contents as { value: string }).value, /\[sources\/\.\.\/answer\.md:3:42-3:45\]/);
        } finally {
            await client.stop();
        }
    });

    it("recognises annotation files by the sourcecheck.annotationFiles globs", async () => {
        const root = copyDemo();
        fs.mkdirSync(path.join(root, "cites"));
        fs.copyFileSync(path.join(root, "answer.sourcecheck.json"), path.join(root, "cites", "answer.json"));
        const client = await startClient({ root, pull: false, settings: { annotationFiles: ["cites/*.json"] } });
        try {
            const params = await client.waitForPublished(client.uri("cites/answer.json"));
            assert.equal(params.diagnostics.length, 7);
        } finally {
            await client.stop();
        }
    });

    it("a settings change re-reads the settings and re-scans (didChangeConfiguration)", async () => {
        const root = copyDemo();
        fs.mkdirSync(path.join(root, "cites"));
        fs.copyFileSync(path.join(root, "answer.sourcecheck.json"), path.join(root, "cites", "answer.json"));
        const client = await startClient({ root, pull: false });
        try {
            await client.waitFor(
                () => client.progress.some((p) => (p as { value: { kind: string } }).value.kind === "end"),
                "first scan",
            );
            assert.ok(!client.published.has(client.uri("cites/answer.json")));
            client.settings = { annotationFiles: ["cites/*.json"] };
            await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
            const params = await client.waitForPublished(client.uri("cites/answer.json"));
            assert.equal(params.diagnostics.length, 7);
            // And back: no longer an annotation file, its diagnostics are cleared.
            client.settings = {};
            await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
            await client.waitForPublished(client.uri("cites/answer.json"), (p) => p.diagnostics.length === 0);
        } finally {
            await client.stop();
        }
    });

    it("a workspace folder added later is scanned, and a deleted annotation file loses its diagnostics", async () => {
        const root = copyDemo();
        const second = copyDemo();
        const client = await startClient({ root, pull: false });
        try {
            await client.waitForPublished(client.uri("answer.sourcecheck.json"));
            const secondUri = pathToFileURL(path.join(second, "answer.sourcecheck.json")).href;
            await client.connection.sendNotification("workspace/didChangeWorkspaceFolders", {
                event: { added: [{ uri: pathToFileURL(second).href, name: "second" }], removed: [] },
            });
            const params = await client.waitForPublished(secondUri);
            assert.equal(params.diagnostics.length, 7);
            fs.rmSync(path.join(second, "answer.sourcecheck.json"));
            await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
                changes: [{ uri: secondUri, type: 3 }],
            });
            await client.waitForPublished(secondUri, (p) => p.diagnostics.length === 0);
        } finally {
            await client.stop();
        }
    });

    it("sourcecheck.documentRoot moves the root refs are relative to", async () => {
        const root = copyDemo();
        const text = JSON.stringify({
            annotations: [
                {
                    claim: { path: "benchmark.txt", start: { line: 4, str: "delta" }, end: { line: 4, str: "-37%" } },
                    sources: [
                        {
                            path: "release-notes.md",
                            start: { line: 7, str: "New" },
                            end: { line: 7, str: "queues." },
                            polarity: "supports",
                            confidence: 1,
                        },
                    ],
                },
            ],
        });
        const client = await startClient({ root, pull: false, settings: { documentRoot: "sources" } });
        try {
            const uri = await client.open("rooted.sourcecheck.json", "sourcecheck", text);
            const params = await client.waitForPublished(uri, (p) => p.version === 1);
            assert.deepEqual(params.diagnostics, []);
        } finally {
            await client.stop();
        }
    });

    it("in pull mode a closed file the client pulls (a tab) moves from push to pull, shown once", async () => {
        const client = await startClient({ pull: true });
        try {
            const uri = client.uri("answer.sourcecheck.json");
            await client.waitForPublished(uri, (p) => p.diagnostics.length === 7);
            assert.equal((await client.pull(uri)).length, 7);
            await client.waitForPublished(uri, (p) => p.diagnostics.length === 0);
            // A change to a cited document now asks for a re-pull instead of pushing.
            const before = client.publishLog.length;
            const refreshes = client.refreshes.diagnostics;
            fs.writeFileSync(path.join(client.options.root, "sources/benchmarks.txt"), "x\n");
            await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
                changes: [{ uri: client.uri("sources/benchmarks.txt"), type: 1 }],
            });
            await client.waitFor(() => client.refreshes.diagnostics > refreshes, "a diagnostic refresh");
            assert.ok(!client.publishLog.slice(before).some((p) => p.uri === uri && p.diagnostics.length > 0));
            const codes = (await client.pull(uri)).map((d) => d.code);
            assert.ok(!codes.includes("unreadable-document"), codes.join());
        } finally {
            await client.stop();
        }
    });

    it("in pull mode asks the client to re-pull (workspace/diagnostic/refresh) when a cited document changes", async () => {
        const client = await startClient({ pull: true });
        try {
            const uri = await client.open("answer.sourcecheck.json", "sourcecheck");
            assert.equal((await client.pull(uri)).length, 7);
            const notes = await client.open("sources/release-notes.md");
            const before = client.refreshes.diagnostics;
            await client.change(notes, client.text(notes).replace("planned for 2.5.", "planned for 2.6."));
            await client.waitFor(() => client.refreshes.diagnostics > before, "a diagnostic refresh");
            assert.equal((await client.pull(uri)).length, 6);
        } finally {
            await client.stop();
        }
    });

    it("publishes only the latest version: a burst of edits yields diagnostics for the last one", async () => {
        const client = await startClient({ pull: false });
        try {
            const uri = await client.open("answer.sourcecheck.json", "sourcecheck");
            const original = client.text(uri);
            await client.waitForPublished(uri, (p) => p.version === 1);
            client.publishLog.length = 0;
            for (let i = 0; i < 20; i++)
                await client.change(uri, original.replace('"planned for 2.6."', `"planned for 2.${i}."`));
            const last = await client.waitForPublished(uri, (p) => p.version === client.version(uri));
            await sleep(300);
            const versions = client.publishLog.filter((p) => p.uri === uri).map((p) => p.version);
            assert.ok(versions.length < 20, `debounced: ${versions.length} publishes for 20 edits`);
            assert.deepEqual(
                [...versions].sort((a, b) => (a ?? 0) - (b ?? 0)),
                versions,
                "never an older version after a newer one",
            );
            assert.equal(versions.at(-1), client.version(uri));
            assert.ok(!last.diagnostics.some((d) => d.message.includes("2.6.")));
        } finally {
            await client.stop();
        }
    });
});

describe("robustness", () => {
    it("survives every prefix of the demo file typed in, and still answers correctly", async function () {
        this.timeout(120000);
        const client = await startClient({ pull: true });
        try {
            const full = fs.readFileSync(path.join(client.options.root, "answer.sourcecheck.json"), "utf8");
            const uri = await client.open("answer.sourcecheck.json", "sourcecheck", "");
            for (let length = 1; length <= full.length; length++) {
                const prefix = full.slice(0, length);
                await client.change(uri, prefix);
                const items = await client.pull(uri);
                // Every diagnostic sits on the token its pointer names in this very prefix.
                const located = new LocatedText(prefix);
                for (const item of items) {
                    if (item.code === "invalid-json") continue;
                    const span = located.spanOf((item.data as { pointer: string }).pointer);
                    const expected = {
                        start: positionOf(prefix, span.offset),
                        end: positionOf(prefix, span.offset + span.length),
                    };
                    assert.deepEqual(
                        item.range,
                        expected,
                        `prefix of ${length}: ${item.code} at ${JSON.stringify(item.data)}`,
                    );
                }
                if (length % 97 === 0) {
                    const end = rangeOf(prefix, prefix.slice(-1), prefix.split(prefix.slice(-1)).length - 2).end;
                    await client.request<Hover | null>("textDocument/hover", { textDocument: { uri }, position: end });
                    await client.request("textDocument/completion", { textDocument: { uri }, position: end });
                    await client.request("textDocument/codeAction", {
                        textDocument: { uri },
                        range: { start: { line: 0, character: 0 }, end },
                        context: { diagnostics: [], only: ["quickfix", "source.fixAll"] },
                    });
                    await client.request("textDocument/inlayHint", {
                        textDocument: { uri },
                        range: { start: { line: 0, character: 0 }, end },
                    });
                    await client.request("sourcecheck/fileSummary", { uri });
                }
            }
            assert.equal(client.exited, false, client.stderr.join(""));
            const final: Diagnostic[] = await client.pull(uri);
            assert.equal(final.length, 7);
            assert.ok(!client.stderr.join("").includes("failed"), client.stderr.join(""));
        } finally {
            await client.stop();
        }
    });

    it("answers requests on unknown documents and garbage params without dying", async () => {
        const client = await startClient({ pull: true });
        try {
            assert.equal(
                await client.request("textDocument/hover", {
                    textDocument: { uri: "untitled:nothing" },
                    position: { line: 0, character: 0 },
                }),
                null,
            );
            assert.deepEqual(await client.request("sourcecheck/citedSpans", { uri: "not a uri" }), {
                uri: "not a uri",
                spans: [],
                brokenRefs: [],
            });
            await assert.rejects(client.request("sourcecheck/fileSummary", { uri: client.uri("answer.md") }));
            const unknown = client.uri("nope.md");
            assert.deepEqual(await client.pull(unknown), []);
            assert.equal(client.exited, false);
        } finally {
            await client.stop();
        }
    });
});
