import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { discoverFiles } from "../../server/src/cli/discovery";
import { nodeProjectConfigs } from "../../server/src/workspace/nodeConfigs";
import { copyDemo, sleep, startClient, type TestClient } from "./harness";

// The `exclude` of a sourcecheck.config.json in the editor (docs/config.md): the language server's
// scan leaves out what `sourcecheck check .` leaves out, so the view and the diagnostics list the
// files the CLI checks.

/** An annotation file with one broken ref: it is published with diagnostics when (and only when) checked. */
const BROKEN = JSON.stringify([
    {
        claim: { path: "answer.md", start: { line: 99, str: "x" }, end: { line: 99, str: "x" } },
        sources: [{ path: "answer.md", start: { line: 3, str: "37%" }, end: { line: 3, str: "37%" } }],
    },
]);

function write(root: string, relative: string, text: string): void {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
}

/** What `sourcecheck check .` would check in `root`, relative to it, sorted. */
function cliChecks(root: string): string[] {
    return discoverFiles(["."], { cwd: root, exclude: [], configs: nodeProjectConfigs() }).map((f) => f.shown);
}

/** The annotation files the language server checks (the SourceCheck view's list), relative to `root`, sorted. */
async function editorChecks(client: TestClient, root: string): Promise<string[]> {
    const { uris } = await client.request<{ uris: string[] }>("sourcecheck/annotationFiles", {});
    return uris.map((uri) => path.relative(root, fileURLToPath(uri)).split(path.sep).join("/")).sort();
}

const scanEnds = (client: TestClient) =>
    client.progress.filter((p) => (p as { value: { kind: string } }).value.kind === "end").length;

describe("workspace scan: the exclude of sourcecheck.config.json", () => {
    it("leaves out what each configuration excludes, nested ones included, exactly as `sourcecheck check .` does", async () => {
        const root = copyDemo();
        write(
            root,
            "sourcecheck.config.json",
            JSON.stringify({ exclude: ["fixtures/**", "*.draft.sourcecheck.json"] }),
        );
        write(root, "nested/sourcecheck.config.json", JSON.stringify({ exclude: ["old"] }));
        const kept = ["kept/a.sourcecheck.json", "old/a.sourcecheck.json", "nested/new/a.sourcecheck.json"];
        const excluded = [
            "fixtures/a.sourcecheck.json",
            "fixtures/deep/b.annotations.json",
            "deep/notes.draft.sourcecheck.json",
            "nested/old/a.sourcecheck.json",
        ];
        for (const relative of [...kept, ...excluded]) write(root, relative, BROKEN);
        const expected = ["answer.sourcecheck.json", ...kept].sort();
        assert.deepEqual(cliChecks(root), expected, "the CLI's own answer (the oracle) changed");

        const client = await startClient({ root, pull: false });
        try {
            // The request answers once the start-up scan and check are over.
            assert.deepEqual(await editorChecks(client, root), expected);
            for (const relative of kept) {
                await client.waitForPublished(client.uri(relative), (p) => p.diagnostics.length > 0);
            }
            await client.waitFor(() => scanEnds(client) > 0, "the scan's end");
            for (const relative of excluded) {
                assert.ok(!client.published.has(client.uri(relative)), `${relative} was checked`);
            }
        } finally {
            await client.stop();
        }
    });

    it("a file created in an excluded folder is not checked; editing the exclude scans again", async () => {
        const root = copyDemo();
        write(root, "sourcecheck.config.json", JSON.stringify({ exclude: ["fixtures"] }));
        write(root, "fixtures/a.sourcecheck.json", BROKEN);
        const client = await startClient({ root, pull: false });
        try {
            assert.deepEqual(await editorChecks(client, root), ["answer.sourcecheck.json"]);
            // Created after the scan: the excluded one is left out, the other is checked.
            write(root, "fixtures/late.sourcecheck.json", BROKEN);
            write(root, "late.sourcecheck.json", BROKEN);
            await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
                changes: [
                    { uri: client.uri("fixtures/late.sourcecheck.json"), type: 1 },
                    { uri: client.uri("late.sourcecheck.json"), type: 1 },
                ],
            });
            await client.waitForPublished(client.uri("late.sourcecheck.json"), (p) => p.diagnostics.length > 0);
            await sleep(300);
            assert.ok(
                !client.published.has(client.uri("fixtures/late.sourcecheck.json")),
                "an excluded file was checked",
            );
            assert.deepEqual(await editorChecks(client, root), ["answer.sourcecheck.json", "late.sourcecheck.json"]);

            // The exclude removed: the folder's files are checked.
            write(root, "sourcecheck.config.json", "{}");
            await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
                changes: [{ uri: client.uri("sourcecheck.config.json"), type: 2 }],
            });
            await client.waitForPublished(client.uri("fixtures/a.sourcecheck.json"), (p) => p.diagnostics.length > 0);
            assert.deepEqual(await editorChecks(client, root), cliChecks(root));

            // And excluded again: their diagnostics are cleared.
            write(root, "sourcecheck.config.json", JSON.stringify({ exclude: ["fixtures/**"] }));
            await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
                changes: [{ uri: client.uri("sourcecheck.config.json"), type: 2 }],
            });
            await client.waitForPublished(client.uri("fixtures/a.sourcecheck.json"), (p) => p.diagnostics.length === 0);
            assert.deepEqual(await editorChecks(client, root), cliChecks(root));
            assert.deepEqual(cliChecks(root), ["answer.sourcecheck.json", "late.sourcecheck.json"]);
        } finally {
            await client.stop();
        }
    });
});
